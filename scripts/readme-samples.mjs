// Regenerates the samples of README.md and docs/*.md from real runs: every block between `<!-- sample:NAME -->` and
// `<!-- /sample -->`, in whichever of those files it stands, is replaced by what NAME's commands print with the
// current build (bin/mcp-smart.js → dist/, the demo servers of node_modules) and, for the package sizes, the tarball
// `npm pack` makes. test/e2e/readme-samples.test.ts runs the same generation and fails when any block differs.
//
//   npm run build && node scripts/readme-samples.mjs            rewrite README.md and docs/*.md
//   node scripts/readme-samples.mjs --check                     exit 1 and list the samples that differ
//   node scripts/readme-samples.mjs --only budget,replay        regenerate some (the others are kept)
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { INSTALL_ARGS, packSourceTree, REPO, runProgram, tempHomeEnv } from './pack.mjs';

const BIN = join(REPO, 'bin', 'mcp-smart.js');
/** The files whose marked blocks are samples: README.md, then docs/*.md by name (paths relative to the repo). */
export function docFiles() {
  const docs = readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}
const MARKER = /<!-- sample:([a-z0-9-]+) -->\n([\s\S]*?)<!-- \/sample -->/g;
/** The scratch folder is shown as this path, so the samples do not change with mkdtemp's name. */
const SHOWN_DIR = '/tmp/demo';

/** A scratch folder and an environment of its own: HOME, caches, data and temp folders inside it, no colour. */
function sandbox() {
  const root = mkdtempSync(join(tmpdir(), 'mcp-smart-readme-'));
  const work = join(root, 'demo');
  mkdirSync(work, { recursive: true });
  const home = join(root, 'home');
  const env = {
    ...tempHomeEnv(root),
    COLUMNS: '200',
    GITHUB_STEP_SUMMARY: '',
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, 'no-gemini-system', 'settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(home, 'no-gemini-system', 'system-defaults.json'),
  };
  return { root, work, env };
}

/** `mcp-smart <args>` with this build, in `cwd`; the scratch path in its output is shown as SHOWN_DIR. */
async function cli(box, args, cwd = box.work) {
  const r = await runProgram(process.execPath, [BIN, ...args], { cwd, env: box.env, timeoutMs: 180_000 });
  const shown = (s) => s.split(box.work).join(SHOWN_DIR);
  return { code: r.code, stdout: shown(r.stdout), stderr: shown(r.stderr) };
}

/** The `$ command` line as a reader types it. */
const prompt = (args) =>
  `$ mcp-smart ${args.map((a) => (/^[\w./:@%+=,-]+$/.test(a) ? a : `"${a.replace(/"/g, '\\"')}"`)).join(' ')}`;
const fence = (parts) => `\`\`\`text\n${parts.map((p) => p.replace(/\n+$/, '')).join('\n')}\n\`\`\`\n`;
/** The `Next:` line servers/audit print on stderr under the table view. */
const nextLine = (stderr) => stderr.split('\n').filter((l) => l.startsWith('Next: '));

/** Keeps the first `keep` lines after the line matching `at`, and marks the cut with `…`. */
function cutAfter(text, at, keep) {
  const lines = text.replace(/\n$/, '').split('\n');
  const i = lines.findIndex((l) => at.test(l));
  if (i < 0) throw new Error(`no line matching ${at} in:\n${text}`);
  const end = lines.findIndex((l, j) => j > i && !l.startsWith('  '));
  const rest = end < 0 ? [] : lines.slice(end);
  const cut = lines.length > i + 1 + keep ? ['…'] : [];
  return [...lines.slice(0, i + 1 + keep), ...cut, ...rest].join('\n');
}

/** Sum of the sizes of the files under `dir` (symbolic links not followed), and the package folders in it. */
function installedSize(dir) {
  let bytes = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (!e.isSymbolicLink()) bytes += lstatSync(p).size;
    }
  };
  walk(join(dir, 'node_modules'));
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  const packages = Object.keys(lock.packages).filter(
    (p) => p.startsWith('node_modules/') && existsSync(join(dir, p, 'package.json')),
  ).length;
  return { bytes, packages };
}

const MB = (bytes, digits = 1) => `${(bytes / 1e6).toFixed(digits)} MB`;

/** Each sample: the README text between its markers. */
export const SAMPLES = {
  /** The Install section's size table: the tarball npm packs, and two fresh installs of it. */
  async 'package-size'(box) {
    const env = box.env;
    const packed = await packSourceTree(join(box.root, 'pack'), env);
    const data = packed.files.filter((f) => f.path.startsWith('data/')).reduce((n, f) => n + f.size, 0);
    const sizes = {};
    for (const [name, extra] of [
      ['full', []],
      ['lean', ['--omit=optional']],
    ]) {
      const prefix = join(box.root, name);
      const r = await runProgram('npm', ['install', '--prefix', prefix, ...INSTALL_ARGS, ...extra, packed.tarball], {
        cwd: box.root,
        env,
      });
      if (r.code !== 0) throw new Error(`npm install ${extra.join(' ')} failed:\n${r.stderr}`);
      sizes[name] = installedSize(prefix);
    }
    const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version;
    return [
      `Sizes for ${version} (\`npm pack --json\` of a clean copy; installed: the files under \`node_modules\` of a`,
      'fresh `npm install --prefix` of that tarball, and the packages in it; 1 MB = 10⁶ bytes):',
      '',
      '| | size |',
      '| --- | --- |',
      `| tarball (${packed.entryCount} files) | ${MB(packed.size)} (${MB(packed.unpackedSize)} unpacked, of which \`data/\` ${MB(data)}) |`,
      `| installed, with the demo servers | ${MB(sizes.full.bytes, 0)} (${sizes.full.packages} packages) |`,
      `| installed, \`--omit=optional\` | ${MB(sizes.lean.bytes, 0)} (${sizes.lean.packages} packages) |`,
      '',
    ].join('\n');
  },

  /** Quick start: the demo audit, its tool list cut to three and its findings to two. */
  async 'demo-audit'(box) {
    const args = ['--demo', 'audit', '--top', '3'];
    const r = await cli(box, args);
    if (r.code !== 0) throw new Error(`demo audit exited ${r.code}:\n${r.stderr}`);
    return fence([prompt(args), cutAfter(r.stdout, /^Findings: /, 2), ...nextLine(r.stderr)]);
  },

  async 'discover-keyword'(box) {
    const args = ['--demo', 'discover', 'read a file', '--engine', 'keyword'];
    const r = await cli(box, args);
    return fence([prompt(args), r.stdout]);
  },

  /** Everyday requests out of the box (issue 29): a request to keep and one to forget, with an empty store. */
  async 'discover-everyday'(box) {
    const keep = ['--demo', 'discover', 'remember that alice works at acme', '-k', '3', '--explain'];
    const forget = ['--demo', 'discover', 'forget that bob likes tea', '-k', '3'];
    const a = await cli(box, keep);
    const b = await cli(box, forget);
    return fence([prompt(keep), a.stdout, prompt(forget), b.stdout]);
  },

  /** One labelled case learned, then the ranking that uses it. */
  async 'discover-remember'(box) {
    const intent = 'remember that alice works at acme';
    const line = JSON.stringify({ intent, expected: ['memory.create_entities'] }).replace(/([:,])/g, '$1 ');
    writeFileSync(join(box.work, 'remember.jsonl'), `${line}\n`);
    const learn = ['--demo', 'replay', 'remember.jsonl', '--learn', '--store', 'usage.json'];
    const l = await cli(box, learn);
    if (l.code !== 0) throw new Error(`replay --learn exited ${l.code}:\n${l.stderr}`);
    const learned = l.stdout.split('\n').filter((x) => x.startsWith('Learned '));
    const rank = ['--demo', 'discover', intent, '--store', 'usage.json', '-k', '3'];
    const r = await cli(box, rank);
    return fence([`$ echo '${line}' > remember.jsonl`, prompt(learn), '…', ...learned, prompt(rank), r.stdout]);
  },

  /** The list of --explain reasons, made from the checks' declarations (src/core/discover/checks/reasons.ts). */
  async 'explain-reasons'() {
    const { reasonsMarkdown } = await import('../dist/core/discover/checks/reasons.js');
    return reasonsMarkdown();
  },

  async budget(box) {
    const args = ['--demo', 'budget', '--max', '20000'];
    const r = await cli(box, args);
    if (r.code !== 1) throw new Error(`budget was expected over (exit 1), exited ${r.code}:\n${r.stderr}`);
    return fence([prompt(args), r.stdout]);
  },

  /** A baseline from the base fixture, then the check of the grown one. */
  async 'check-fail'(box) {
    copyFileSync(join(REPO, 'fixtures', 'snapshots', 'check-base.json'), join(box.work, 'base.json'));
    copyFileSync(join(REPO, 'fixtures', 'snapshots', 'check-grown.json'), join(box.work, 'grown.json'));
    const update = ['--snapshot', 'base.json', 'check', '--update'];
    const u = await cli(box, update);
    const check = ['--snapshot', 'grown.json', 'check'];
    const r = await cli(box, check);
    if (r.code !== 1) throw new Error(`check was expected to fail (exit 1), exited ${r.code}:\n${r.stderr}`);
    rmSync(join(box.work, 'mcp-smart.lock.json'));
    return fence([prompt(update), u.stdout, prompt(check), r.stdout]);
  },

  /** replay over the recorded sessions of fixtures/, from the repo folder. */
  async replay(box) {
    const args = ['--snapshot', 'fixtures/snapshots/replay-demo.json', 'replay', 'fixtures/sessions'];
    const r = await cli(box, args, REPO);
    if (r.code !== 0) throw new Error(`replay exited ${r.code}:\n${r.stderr}`);
    return fence([prompt(args), r.stdout]);
  },

  /**
   * The find → call flow through `--demo serve --mode meta`, driven by the SDK's own client: every line is a
   * request sent or the answer received (answers cut at 150 characters).
   */
  async 'find-tool'(box) {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const audit = await cli(box, ['--demo', 'audit', '--json']);
    const metaTokens = JSON.parse(audit.stdout).totals.tokens.meta;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--demo', 'serve', '--mode', 'meta'],
      cwd: box.work,
      env: box.env,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'readme-samples', version: '1.0.0' });
    await client.connect(transport);
    const cut = (text) => (text.length > 150 ? `${text.slice(0, 149)}…` : text);
    const shown = (r) => {
      const text = r.content?.find((c) => c.type === 'text')?.text ?? JSON.stringify(r);
      return r.isError ? `isError: ${cut(JSON.stringify(text))}` : cut(text.replace(/\s*\n\s*/g, ' '));
    };
    // find_tool's answer: the ranked ids, and which fields each result and the answer carry.
    const found = (r) => {
      const text = r.content?.find((c) => c.type === 'text')?.text ?? '';
      let doc;
      try {
        doc = JSON.parse(text);
      } catch {
        return shown(r);
      }
      if (!Array.isArray(doc?.results)) return shown(r);
      const fields = [...new Set(doc.results.flatMap((x) => Object.keys(x)))].filter((k) => k !== 'id');
      const other = Object.keys(doc).filter((k) => k !== 'results');
      return (
        `results: ${doc.results.map((x) => x.id).join(', ')} (each with ${fields.join(', ')})` +
        (other.length > 0 ? `; also ${other.join(', ')}` : '')
      );
    };
    const lines = [];
    try {
      const { tools } = await client.listTools();
      lines.push('→ tools/list', `← ${tools.map((t) => t.name).join(', ')}   (${metaTokens} tokens)`);
      const calls = [
        ['find_tool', { intent: 'remember that alice works at acme', server: 'memory', k: 3 }],
        [
          'call_tool',
          {
            name: 'memory.create_entities',
            arguments: { entities: [{ name: 'alice', entityType: 'person', observations: ['works at acme'] }] },
          },
        ],
        ['call_tool', { name: 'memory.create_entities', arguments: { entities: 3 } }],
        ['call_tool_read', { name: 'memory.read_graph' }],
      ];
      for (const [name, args] of calls) {
        const r = await client.callTool({ name, arguments: args });
        lines.push(`→ ${name} ${JSON.stringify(args)}`, `← ${name === 'find_tool' ? found(r) : shown(r)}`);
      }
    } finally {
      await client.close();
    }
    return fence(lines);
  },

  /** The workflow init --github writes for a project with mcp-smart in its lockfile and a committed snapshot. */
  async workflow(box) {
    const dir = join(box.root, 'project');
    mkdirSync(dir);
    const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ devDependencies: { 'mcp-smart': `^${version}` } }));
    const lock = { lockfileVersion: 3, packages: { 'node_modules/mcp-smart': { version } } };
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
    copyFileSync(join(REPO, 'fixtures', 'snapshots', 'check-base.json'), join(dir, 'mcp-snapshot.json'));
    const r = await cli(box, ['--snapshot', 'mcp-snapshot.json', 'init', '--yes', '--github'], dir);
    if (r.code !== 0) throw new Error(`init --github exited ${r.code}:\n${r.stderr}`);
    const yml = readFileSync(join(dir, '.github', 'workflows', 'mcp-smart.yml'), 'utf8');
    return `\`\`\`yaml\n${yml}\`\`\`\n`;
  },
};

/** The samples' texts, generated in one scratch folder that is removed afterwards. */
export async function collectSamples(names = Object.keys(SAMPLES)) {
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const box = sandbox();
  try {
    const out = {};
    for (const name of names) {
      if (!SAMPLES[name]) throw new Error(`no sample named ${name} (known: ${Object.keys(SAMPLES).join(', ')})`);
      out[name] = await SAMPLES[name](box);
    }
    return out;
  } finally {
    rmSync(box.root, { recursive: true, force: true });
  }
}

/** The README's samples as they stand: name → text between the markers. */
export function readmeSamples(readme) {
  return Object.fromEntries([...readme.matchAll(MARKER)].map((m) => [m[1], m[2]]));
}

/** The text with each of `samples` put between its markers (markers of other samples are left as they are). */
export function applySamples(text, samples) {
  return text.replace(MARKER, (all, name) =>
    name in samples ? `<!-- sample:${name} -->\n${samples[name]}<!-- /sample -->` : all,
  );
}

/** The documentation files' texts: relative path → text. */
export function readDocs() {
  return Object.fromEntries(docFiles().map((f) => [f, readFileSync(join(REPO, f), 'utf8')]));
}

/** Every sample of the documentation files: name → {file, text}; a name marked twice is an error. */
export function docSamples(docs = readDocs()) {
  const out = {};
  for (const [file, text] of Object.entries(docs))
    for (const [name, block] of Object.entries(readmeSamples(text))) {
      if (out[name]) throw new Error(`sample:${name} is marked twice: in ${out[name].file} and ${file}`);
      out[name] = { file, text: block };
    }
  return out;
}

/** The documentation files with every generated sample applied; a sample marked in no file is an error. */
export function applyToDocs(docs, samples) {
  const present = docSamples(docs);
  const missing = Object.keys(samples).filter((n) => !(n in present));
  if (missing.length > 0)
    throw new Error(`no <!-- sample:NAME --> markers in README.md or docs/*.md for: ${missing.join(', ')}`);
  return Object.fromEntries(Object.entries(docs).map(([file, text]) => [file, applySamples(text, samples)]));
}

async function main(argv) {
  const check = argv.includes('--check');
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',') : undefined;
  const samples = await collectSamples(only);
  const docs = readDocs();
  const next = applyToDocs(docs, samples);
  const before = docSamples(docs);
  const changed = Object.keys(samples).filter((n) => before[n].text !== samples[n]);
  if (check) {
    for (const n of changed)
      process.stdout.write(`differs: ${n}\n--- ${before[n].file}\n${before[n].text}+++ generated\n${samples[n]}`);
    process.exitCode = changed.length > 0 ? 1 : 0;
    return;
  }
  for (const [file, text] of Object.entries(next)) {
    if (text === docs[file]) continue;
    const path = join(REPO, file);
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  }
  process.stdout.write(
    changed.length > 0
      ? `updated: ${changed.map((n) => `${n} (${before[n].file})`).join(', ')}\n`
      : 'samples are current\n',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  });
}
