/** Definitions for the bundled demo servers, run from the installed packages with node (no npx). */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SmartError } from '../../process/errors.js';
import type { ServerDefinition } from '../types.js';

export const DEMO_PACKAGES = [
  { name: 'everything', pkg: '@modelcontextprotocol/server-everything' },
  { name: 'filesystem', pkg: '@modelcontextprotocol/server-filesystem' },
  { name: 'memory', pkg: '@modelcontextprotocol/server-memory' },
  { name: 'sequential-thinking', pkg: '@modelcontextprotocol/server-sequential-thinking' },
] as const;

export interface DemoOptions {
  nodePath: string;
  /** Folder the filesystem server may see and the memory server writes to. */
  scratchDir?: string;
  /** Absolute path of a package's package.json; throws when it is not installed. */
  resolvePackageJson?: (pkg: string) => string;
}

const require = createRequire(import.meta.url);
const defaultResolve = (pkg: string): string => require.resolve(`${pkg}/package.json`);

export function defaultScratchDir(): string {
  return join(tmpdir(), 'mcp-smart-demo');
}

const README = `# mcp-smart demo folder

The demo filesystem server (@modelcontextprotocol/server-filesystem) may only see this folder,
and the demo memory server keeps its knowledge graph here. Safe to delete.
`;

/** Creates the scratch folder with a README in it (IO edge). */
async function prepareScratch(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(join(dir, 'README.md'), README, { flag: 'wx' });
  } catch (e) {
    // An earlier run already wrote it.
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

async function binOf(pkg: string, resolvePackageJson: (pkg: string) => string): Promise<string> {
  let manifestPath: string;
  try {
    manifestPath = resolvePackageJson(pkg);
  } catch (e) {
    throw new SmartError('DEMO_NOT_INSTALLED', { pkg }, { cause: e });
  }
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new SmartError('DEMO_NOT_INSTALLED', { pkg });
  return join(dirname(manifestPath), bin);
}

/** The four demo servers, in a fixed order. Missing package → DEMO_NOT_INSTALLED. */
export async function demoServerDefinitions(opts: DemoOptions): Promise<ServerDefinition[]> {
  const resolve = opts.resolvePackageJson ?? defaultResolve;
  const scratch = opts.scratchDir ?? defaultScratchDir();
  const bins = await Promise.all(DEMO_PACKAGES.map((p) => binOf(p.pkg, resolve)));
  await prepareScratch(scratch);
  const base = {
    transport: 'stdio' as const,
    command: opts.nodePath,
    enabled: true,
    source: 'demo',
    scope: 'demo' as const,
    cwd: scratch,
  };
  const [everything, filesystem, memory, thinking] = bins as [string, string, string, string];
  return [
    // The everything server picks its transport from argv[2]; "stdio" is also its default.
    { ...base, name: 'everything', args: [everything, 'stdio'] },
    { ...base, name: 'filesystem', args: [filesystem, scratch] },
    { ...base, name: 'memory', args: [memory], env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') } },
    { ...base, name: 'sequential-thinking', args: [thinking] },
  ];
}
