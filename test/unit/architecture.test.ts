// Import direction (STYLE §2): the layers below, arrows only downward; core/ never reaches the terminal, the
// process or presentation libraries, and only connect/ talks MCP. Checked on the source text so a violation
// fails the suite, not a review.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const CORE = join(REPO, 'src', 'core');
const FORBIDDEN_IN_CORE = [
  /from ['"]commander['"]/,
  /from ['"]chalk['"]/,
  /from ['"]cli-table3['"]/,
  /from ['"]@inquirer\//,
  /\bconsole\.(log|error|warn|info)\(/,
  /\bprocess\.(exit|stdout|stderr|argv|env)\b/,
  /\bDate\.now\(\)/,
  /\bMath\.random\(\)/,
  /from ['"]\.\.\/(\.\.\/)?(commands|reporters|cli)/,
];

/** The MCP SDK's packages: v2's client, server, node (HTTP) and core (schemas), and the v1 monolith. */
const SDK_PACKAGE = /^@modelcontextprotocol\/(sdk|client|server|node|core)(\/|$)/;

describe('architecture', () => {
  const files = sourceFiles(CORE);

  it('finds the core sources', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it('core/ imports no presentation library and touches no process state', () => {
    const violations: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of FORBIDDEN_IN_CORE) {
        if (pattern.test(text)) violations.push(`${relative(REPO, file)}: ${pattern.source}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('only core/connect imports the MCP SDK client', () => {
    // src/serve/ (the proxy server) is the one other module that talks MCP, through the SDK's server API.
    const offenders = sourceFiles(SRC)
      .filter((f) => !f.startsWith(join(CORE, 'connect') + sep) && !servesMcp(f))
      .filter((f) => specifiers(f).some((s) => SDK_PACKAGE.test(s)))
      .map((f) => relative(REPO, f));
    expect(offenders).toEqual([]);
    const clientOutsideConnect = sourceFiles(SRC)
      .filter((f) => !f.startsWith(join(CORE, 'connect') + sep))
      .filter((f) =>
        specifiers(f).some(
          (s) => s === '@modelcontextprotocol/client' || s.startsWith('@modelcontextprotocol/client/'),
        ),
      )
      .map((f) => relative(REPO, f));
    expect(clientOutsideConnect).toEqual([]);
  });

  it('src/ runs on SDK v2 only: the v1 package is a test peer, never imported by the product', () => {
    const offenders = sourceFiles(SRC)
      .filter((f) => specifiers(f).some((s) => s.startsWith('@modelcontextprotocol/sdk')))
      .map((f) => relative(REPO, f));
    expect(offenders).toEqual([]);
  });

  it('only src/serve/ imports the MCP SDK server API', () => {
    const offenders = sourceFiles(SRC)
      .filter((f) => !servesMcp(f))
      .filter((f) => specifiers(f).some((s) => /^@modelcontextprotocol\/(server|node)(\/|$)/.test(s)))
      .map((f) => relative(REPO, f));
    expect(offenders).toEqual([]);
  });

  it("serve's command spawns its servers before loading the SDK, serving.ts, the snapshot reader, the index or the store", () => {
    // What src/commands/serve.ts loads statically runs before the first spawn (issue 40.1: a fresh tools-mode start);
    // the rest is imported once the servers are booting, or only with --snapshot.
    const graph = importGraph(sourceFiles(SRC), true);
    const reached = new Set<string>();
    const walk = (file: string): void => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of graph.get(file) ?? []) walk(next);
    };
    walk(join(SRC, 'commands', 'serve.ts'));
    const late = [
      /^serve\/serving\.ts$/,
      /^core\/snapshot\.ts$/,
      /^core\/discover\//,
      /^app\/services\/catalogue\//,
      /^core\/store\/file\.ts$/,
    ];
    const rel = [...reached].map((f) => relative(SRC, f).split(sep).join('/'));
    expect(rel.filter((f) => late.some((r) => r.test(f)))).toEqual([]);
    expect([...reached].flatMap((f) => specifiers(f, true).filter((s) => SDK_PACKAGE.test(s)))).toEqual([]);
  });

  it('src/ has no import cycles', () => {
    expect(findCycles(importGraph(sourceFiles(SRC)))).toEqual([]);
  });

  it('no import climbs three folders up (../../../), but to the two layers every folder may use: core/ and process/', () => {
    const offenders = sourceFiles(SRC).flatMap((f) =>
      specifiers(f)
        .filter((s) => s.startsWith('../../../') && !/^\.\.\/\.\.\/\.\.\/(core|process)\/[^.]/.test(s))
        .filter((s) => resolve(dirname(f), s).startsWith(SRC + sep) || s.startsWith('../../../../'))
        .map((s) => `${relative(REPO, f)}: ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('core/ never reads the current directory (process.cwd)', () => {
    const offenders = files
      .filter((f) => /\bprocess\.cwd\b/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(REPO, f));
    expect(offenders).toEqual([]);
  });

  it('reporters import neither commands/ nor app/', () => {
    const graph = importGraph(sourceFiles(SRC));
    const offenders = [...graph]
      .filter(([f]) => f.startsWith(join(SRC, 'reporters') + sep))
      .flatMap(([f, deps]) =>
        deps
          .filter((d) => d.startsWith(join(SRC, 'commands') + sep) || d.startsWith(join(SRC, 'app') + sep))
          .map((d) => `${relative(REPO, f)} → ${relative(REPO, d)}`),
      );
    expect(offenders).toEqual([]);
  });

  it('src/ root holds only the entry: cli.ts', () => {
    const loose = readdirSync(SRC)
      .filter((name) => statSync(join(SRC, name)).isFile())
      .sort();
    expect(loose).toEqual(['cli.ts']);
    expect(
      readdirSync(SRC)
        .filter((name) => statSync(join(SRC, name)).isDirectory())
        .sort(),
    ).toEqual([...new Set(LAYERS.filter((l) => !l.path.endsWith('.ts')).map((l) => l.path.split('/')[0]!))].sort());
  });

  it('every source file belongs to one layer of the map', () => {
    const unplaced = sourceFiles(SRC)
      .filter((f) => layerOf(f) === undefined)
      .map((f) => relative(REPO, f));
    expect(unplaced).toEqual([]);
  });

  it('imports run down the layer map: no arrow up, none between use cases and serve', () => {
    const upward = [...importGraph(sourceFiles(SRC))].flatMap(([f, deps]) =>
      deps
        .filter((d) => {
          const from = layerOf(f)!;
          const to = layerOf(d)!;
          return from !== to && to.rank <= from.rank;
        })
        .map((d) => `${relative(REPO, f)} (${layerOf(f)!.path}) → ${relative(REPO, d)} (${layerOf(d)!.path})`),
    );
    expect(upward).toEqual([]);
  });

  it('no arrow from app/ to serve/ (what both need lives in app/services/)', () => {
    const offenders = [...importGraph(sourceFiles(SRC))]
      .filter(([f]) => f.startsWith(join(SRC, 'app') + sep))
      .flatMap(([f, deps]) =>
        deps.filter((d) => d.startsWith(SERVE)).map((d) => `${relative(REPO, f)} → ${relative(REPO, d)}`),
      );
    expect(offenders).toEqual([]);
  });

  it('a use case imports no other use case, only its own parts (adopt → adopt-plan)', () => {
    const useCases = join(SRC, 'app', 'use-cases') + sep;
    const command = (f: string): string => relative(useCases, f).replace(/\.ts$/, '').split('-')[0]!;
    const offenders = [...importGraph(sourceFiles(SRC))]
      .filter(([f]) => f.startsWith(useCases))
      .flatMap(([f, deps]) =>
        deps
          .filter((d) => d.startsWith(useCases) && command(d) !== command(f))
          .map((d) => `${relative(REPO, f)} → ${relative(REPO, d)}`),
      );
    expect(offenders).toEqual([]);
  });

  it('a command never imports another command', () => {
    const graph = importGraph(sourceFiles(SRC));
    const isCommand = (f: string): boolean =>
      f.startsWith(join(SRC, 'commands') + sep) &&
      /export async function run\w+Command\b/.test(readFileSync(f, 'utf8'));
    const commands = [...graph.keys()].filter(isCommand);
    expect(commands.length).toBeGreaterThanOrEqual(9);
    const offenders = commands.flatMap((f) =>
      (graph.get(f) ?? []).filter(isCommand).map((d) => `${relative(REPO, f)} → ${relative(REPO, d)}`),
    );
    expect(offenders).toEqual([]);
  });
});

const SRC = join(REPO, 'src');
const SERVE = join(SRC, 'serve') + sep;
/** serve/ is the one folder that may use the SDK's server API (serve's command loads serve/serving.ts for it). */
const servesMcp = (f: string): boolean => f.startsWith(SERVE);

/**
 * The layer map, top to bottom (STYLE §2, §11): a file may import its own layer and any layer of a higher rank.
 * Use cases and serve share a rank: two front doors' work, neither importing the other. Reporters sit below the
 * services because progress and the check messages format counts with them.
 */
const LAYERS: readonly { path: string; rank: number }[] = [
  { path: 'cli.ts', rank: 0 },
  { path: 'commands', rank: 2 },
  { path: 'app/use-cases', rank: 3 },
  { path: 'serve', rank: 3 },
  { path: 'app/services', rank: 4 },
  { path: 'reporters', rank: 5 },
  { path: 'core', rank: 6 },
  { path: 'process', rank: 7 },
];

function layerOf(file: string): { path: string; rank: number } | undefined {
  const rel = relative(SRC, file).split(sep).join('/');
  return LAYERS.find((l) => rel === l.path || rel.startsWith(`${l.path}/`));
}

/**
 * Module specifiers of static imports, re-exports and dynamic imports (type-only ones included: they tie layers too).
 * `loaded`: only what loading the file loads — no dynamic import, no `import type` / `export type`.
 */
function specifiers(file: string, loaded = false): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b([^'"]*?)\bfrom\s*['"]([^'"]+)['"]/gms))
    if (!loaded || !/^\s*type\b/.test(m[1]!)) found.push(m[2]!);
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  if (!loaded) for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

/** File → the source files it imports (relative specifiers only, `.js` mapped back to `.ts`); `loaded`: see specifiers. */
function importGraph(sources: string[], loaded = false): Map<string, string[]> {
  const known = new Set(sources);
  const graph = new Map<string, string[]>();
  for (const file of sources) {
    const deps = specifiers(file, loaded)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')))
      .filter((d) => known.has(d));
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as the chain of files (relative to the repo) that closes it. */
function findCycles(graph: Map<string, string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const chain = stack.slice(stack.indexOf(next)).concat(next);
        cycles.push(chain.map((f) => relative(REPO, f)).join(' → '));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
