// bench/peers.mjs's setup: where the peer proxies are installed (the bench's own cache folder, never the project's
// node_modules), what is missing and how to install it, and each peer's config for the same upstream servers:
// slop-mcp's `.slop-mcp.kdl` (KDL, the format `slop-mcp mcp add` writes), mcp-hub's JSON (`mcpServers`), and
// mcp-smart's own JSON. Pure except `findPeers` (reads the cache folder) and `writeConfigs` (writes into a folder).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The pinned peers: npm package, version, and the file that proves it is installed. mcp-proxy fronts one stdio server
 * only (HTTP calls are measured through it when it is installed; the bench runs without it).
 */
export const PEERS = [
  { key: 'slop', pkg: '@standardbeagle/slop-mcp', version: '0.15.0', entry: 'index.js' },
  { key: 'hub', pkg: 'mcp-hub', version: '4.2.1', entry: 'dist/cli.js' },
  { key: 'proxy', pkg: 'mcp-proxy', version: '6.7.19', entry: 'dist/bin/mcp-proxy.mjs', optional: true },
];

/** The folder the peers are installed into: `<MCP_SMART_CACHE_DIR or ~/.cache/mcp-smart-bench>/peers`. */
export function peersDir(env = process.env, home = homedir()) {
  const base = env.MCP_SMART_CACHE_DIR || join(home, '.cache', 'mcp-smart-bench');
  return join(base, 'peers');
}

/** The npm command that installs every pinned peer into `dir` (argv, for execFileSync; also printed to the user). */
export function installArgs(dir) {
  return ['install', '--prefix', dir, '--no-audit', '--no-fund', ...PEERS.map((p) => `${p.pkg}@${p.version}`)];
}

/**
 * Which peers are installed in `dir` at the pinned version: `{found: {key: {root, version}}, missing: [pkg@v]}`;
 * a missing optional peer is listed in `skipped` instead of `missing`.
 */
export function findPeers(dir) {
  const found = {};
  const missing = [];
  const skipped = [];
  for (const p of PEERS) {
    const root = join(dir, 'node_modules', ...p.pkg.split('/'));
    let version;
    try {
      version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    } catch {
      version = undefined;
    }
    if (version === p.version && existsSync(join(root, p.entry))) found[p.key] = { root, version };
    else (p.optional ? skipped : missing).push(`${p.pkg}@${p.version}${version ? ` (found ${version})` : ''}`);
  }
  return { found, missing, skipped };
}

/** A KDL (v1) string literal: quotes and backslashes escaped; control characters are refused, not guessed. */
export function kdlString(s) {
  if (/[\u0000-\u001f\u007f]/.test(s)) throw new Error(`KDL string with a control character: ${JSON.stringify(s)}`);
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * slop-mcp's project config (`.slop-mcp.kdl`) for stdio servers `[{name, command, args, env?}]`, node for node as
 * `slop-mcp mcp add <name> <command> [args…] -e K=V` writes it.
 */
export function slopKdl(servers) {
  return servers
    .map((s) => {
      const lines = [`mcp ${kdlString(s.name)} {`, `    type "stdio"`, `    command ${kdlString(s.command)}`];
      if (s.args.length > 0) lines.push(`    args ${s.args.map(kdlString).join(' ')}`);
      const env = Object.entries(s.env ?? {});
      if (env.length > 0) {
        lines.push('    env {');
        for (const [k, v] of env) lines.push(`        ${kdlString(k)} ${kdlString(v)}`);
        lines.push('    }');
      }
      lines.push('}');
      return lines.join('\n') + '\n';
    })
    .join('');
}

/**
 * mcp-hub's config (`mcp-hub --config FILE`). mcp-hub resolves `${…}` placeholders in every field, so a `$` in a
 * value is refused rather than silently changed.
 */
export function hubConfig(servers) {
  const check = (v) => {
    if (v.includes('${')) throw new Error(`mcp-hub would resolve the placeholder in ${JSON.stringify(v)}`);
    return v;
  };
  const mcpServers = {};
  for (const s of servers)
    mcpServers[s.name] = {
      command: check(s.command),
      args: s.args.map(check),
      ...(s.env ? { env: Object.fromEntries(Object.entries(s.env).map(([k, v]) => [k, check(v)])) } : {}),
    };
  return { mcpServers };
}

/** mcp-smart's config for the same servers. */
export function smartConfig(servers) {
  const out = {};
  for (const s of servers) out[s.name] = { command: s.command, args: s.args, ...(s.env ? { env: s.env } : {}) };
  return { mcpServers: out };
}

/** An mcp-hub marketplace cache that is fresh for an hour, so that mcp-hub does not fetch its registry online. */
export function hubMarketplaceCache(now = Date.now()) {
  return {
    registry: { version: 'bench', generatedAt: now, totalServers: 1, servers: [{ id: 'bench', name: 'bench' }] },
    lastFetchedAt: now,
    serverDocumentation: {},
  };
}

/** `n` copies of the tiny fixture server of `repo`, named s0…s(n-1), started with `node`. */
export function tinyServers(repo, n, node = process.execPath) {
  const args = [
    join(repo, 'fixtures', 'servers', 'catalog-server.mjs'),
    join(repo, 'fixtures', 'servers', 'catalogs', 'tiny.json'),
  ];
  return Array.from({ length: n }, (_, i) => ({ name: `s${i}`, command: node, args }));
}

/** Writes the three configs for `servers` into `dir`: `.slop-mcp.kdl`, `hub.json`, `smart.json`; returns their paths. */
export function writeConfigs(dir, servers) {
  const paths = { slop: join(dir, '.slop-mcp.kdl'), hub: join(dir, 'hub.json'), smart: join(dir, 'smart.json') };
  writeFileSync(paths.slop, slopKdl(servers));
  writeFileSync(paths.hub, JSON.stringify(hubConfig(servers)));
  writeFileSync(paths.smart, JSON.stringify(smartConfig(servers)));
  return paths;
}
