// The start path as a bundle: after tsc, esbuild joins dist/cli.js and what it imports into a few ES modules in
// dist/bundle/, so a start loads ~30 files instead of ~100 (discover) or ~50 instead of ~280 (serve: zod, the SDK).
// Every dynamic import() in the source stays a lazy chunk; a few large packages used off the start path stay
// outside (loaded from node_modules when asked for). bin/mcp-smart.js runs dist/bundle/cli.js.
//
//   node scripts/bundle.mjs [--no-sourcemap]
//
// Files that find data next to themselves (`new URL('../../../data/…', import.meta.url)`) keep working: in each
// dist/ module, import.meta.url is replaced by the URL that module had in dist/, computed from the chunk's own
// URL, so every relative lookup (data/, package.json, createRequire) lands where it did.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(REPO, 'dist');
const BUNDLE = join(DIST, 'bundle');

/**
 * Kept out of the bundle, each loaded only off the start path: the PostgreSQL client (CommonJS, with an optional
 * native add-on it probes for), the interactive prompts (init, a confirmation), the BPE rank tables (several MB of
 * data; token counts are cached) and the file lock. Bundling them would only grow the tarball.
 */
export const EXTERNAL = ['pg', '@inquirer/prompts', 'gpt-tokenizer', 'gpt-tokenizer/*', 'proper-lockfile'];

/**
 * Worker threads' modules, each bundled alone to dist/bundle/<name>.js (a second esbuild run, so the CLI's chunks
 * stay as they are), with the dist/ module that starts it: that module's import.meta.url stays its chunk's, so
 * `new URL('./<name>.js', import.meta.url)` finds the worker beside it in dist/ and in the bundle alike.
 */
const WORKERS = [
  {
    name: 'index-worker',
    entry: join('app', 'services', 'index-worker.js'),
    starter: join('app', 'services', 'index-workers.js'),
  },
];

/** esbuild plugin: import.meta.url in a dist/ module means that module's own URL in dist/, not the chunk's. */
const distMetaUrl = (out) => ({
  name: 'dist-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(DIST + sep) || args.path.startsWith(out + sep)) return undefined;
      if (WORKERS.some((w) => args.path === join(DIST, w.starter))) return undefined; // its worker lies beside its chunk
      const text = readFileSync(args.path, 'utf8');
      // Node's import.meta.dirname/filename would name the chunk's folder: say so at build time, not at run time.
      const other = /import\.meta\.(dirname|filename)/.exec(text);
      if (other) throw new Error(`${relative(REPO, args.path)} uses ${other[0]}: use new URL(…, import.meta.url)`);
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      const fromChunk = relative(out, args.path).split(sep).join('/');
      const own = `new URL(${JSON.stringify(fromChunk)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', own), loader: 'js' };
    });
  },
});

/**
 * esbuild plugin: the server SDK's `_shims` (Node's `process` and ajv as the default JSON Schema validator) becomes
 * dist/serve/sdk-shims.js, and the client SDK's (ajv and CORS_IS_POSSIBLE) dist/core/connect/client-shims.js: their
 * validators load ajv on first use — ajv is then no part of the start path nor of connecting to a server.
 */
const lazySdkShims = {
  name: 'lazy-sdk-shims',
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({
      path: join(DIST, 'serve', 'sdk-shims.js'),
    }));
    b.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => ({
      path: join(DIST, 'core', 'connect', 'client-shims.js'),
    }));
  },
};

/** Writes dist/bundle/ from dist/ (tsc's output); `sourcemap` maps the bundle back through tsc's maps when dist/ has them. */
export async function bundle({ sourcemap = true, out = BUNDLE, cjs = true } = {}) {
  rmSync(out, { recursive: true, force: true });
  const result = await build(
    options(sourcemap, out, {
      entryPoints: {
        cli: join(DIST, 'cli.js'),
        paths: join(DIST, 'core', 'paths.js'),
        'code-cache': join(DIST, 'process', 'code-cache.js'),
      },
      splitting: true,
    }),
  );
  for (const w of WORKERS) {
    const r = await build(
      options(sourcemap, out, { entryPoints: { [w.name]: join(DIST, w.entry) }, splitting: false }),
    );
    Object.assign(result.metafile.outputs, r.metafile.outputs);
  }
  if (cjs) {
    const r = await build(cjsOptions(out));
    Object.assign(result.metafile.outputs, r.metafile.outputs);
    // A script run by vm has no import() on Node 20 (without --experimental-vm-modules): each import( left in it
    // (packages kept outside, built-ins, the ONNX runtime) calls __mImp, the ES module loader bin/ passes. The same
    // length, so the source map's columns hold.
    const file = join(out, 'cli.cjs');
    const text = readFileSync(file, 'utf8');
    if (text.includes('__mImp')) throw new Error('cli.cjs already names __mImp');
    // Only ASCII (esbuild leaves a few regular expressions' CJK punctuation as is): V8 then holds the 1.6 MB as a
    // one-byte string, read as latin1, and scans it faster. \uXXXX means the same character in a regex or a string.
    const ascii = text
      .replace(/(?<![\w$.])import\(/g, '__mImp(')
      .replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    // Its first line names its content (bin/ keys the code cache by it): no hash of 1.6 MB at each start.
    const key = createHash('sha256').update(ascii).digest('hex').slice(0, 32);
    writeFileSync(file, `// ${key}\n${ascii}`);
  }
  return result;
}

/** esbuild plugin (the CommonJS script): import.meta.url in a dist/ module is its dist/ URL, from the script's own (__mcpSmartUrl). */
const externalImports = (out) => ({
  name: 'cjs-external-imports',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(DIST + sep) || args.path.startsWith(out + sep)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      const other = /import\.meta\.(dirname|filename)/.exec(text);
      if (other) throw new Error(`${relative(REPO, args.path)} uses ${other[0]}: use new URL(…, import.meta.url)`);
      const isStarter = WORKERS.some((w) => args.path === join(DIST, w.starter));
      const fromChunk = relative(out, args.path).split(sep).join('/');
      const own = isStarter ? '__mcpSmartUrl' : `new URL(${JSON.stringify(fromChunk)}, __mcpSmartUrl).href`;
      return { contents: text.replaceAll('import.meta.url', own), loader: 'js' };
    });
  },
});

/**
 * The start path as ONE CommonJS script, dist/bundle/cli.cjs, for V8's code cache on Node < 22.1
 * (src/process/code-cache.ts). No source map: Node 20 maps no vm script's stack, so --debug runs the ES modules.
 */
function cjsOptions(out) {
  const o = options(false, out, { entryPoints: { cli: join(DIST, 'cli.js') }, splitting: false });
  return {
    ...o,
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    banner: undefined,
    define: { 'import.meta.url': '__mcpSmartUrl' },
    plugins: [externalImports(out), lazySdkShims],
  };
}

function options(sourcemap, out, { entryPoints, splitting }) {
  return {
    absWorkingDir: REPO,
    // paths: the cache folder bin/mcp-smart.js gives V8's compile cache (Node ≥ 22.1) before it loads cli; code-cache:
    // its code cache of cli.cjs on Node < 22.1.
    entryPoints,
    outdir: out,
    bundle: true,
    splitting,
    format: 'esm',
    platform: 'node',
    // jsonc-parser's `main` is a UMD build whose require() calls esbuild cannot follow; its `module` build is plain ESM.
    mainFields: ['module', 'main'],
    // Paths as seen, not resolved through symlinks (scripts/pack.mjs links node_modules into its copy): the maps'
    // sources and the chunk names then do not depend on where the build ran.
    preserveSymlinks: true,
    target: 'node20',
    outExtension: { '.js': '.js' },
    chunkNames: 'chunk-[hash]',
    // Minified: less to parse at each start. Stack traces go through the source map (bin/mcp-smart.js turns maps
    // on for --debug). esbuild's keepNames would keep function names without it, at ~6 % of a start (a call for
    // each function and class made).
    minify: true,
    sourcemap: sourcemap ? 'linked' : false,
    sourcesContent: false,
    legalComments: 'eof',
    external: EXTERNAL,
    plugins: [distMetaUrl(out), lazySdkShims],
    // CommonJS packages in the bundle (commander, …) require Node's built-ins; ES module output has no `require`.
    banner: {
      js: "import{createRequire as __mcpSmartRequire}from'node:module';const require=__mcpSmartRequire(import.meta.url);",
    },
    logLevel: 'warning',
    metafile: true,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await bundle({ sourcemap: !process.argv.includes('--no-sourcemap') });
  const outputs = Object.entries(r.metafile.outputs).filter(([f]) => f.endsWith('.js'));
  const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0);
  console.log(`bundle: ${outputs.length} files, ${(bytes / 1024).toFixed(0)} KB in ${relative(REPO, BUNDLE)}/`);
}
