/**
 * The switch adopt prints and `--apply` makes: the client's files read (bytes kept for the compare-and-swap and the
 * backup), the edits planned (core/adopt/switch-plan.ts), and the values the mcp-smart entry must carry — the secrets adopt
 * turned into variables, taken from the client's own entries (written only into the client's own file, never shown).
 */
import type { JSONPath } from 'jsonc-parser';
import { type AdoptInput, type AdoptVariable } from '../../core/adopt/config-entries.js';
import { argumentSecret } from '../../process/secret-args.js';
import { claudeCodeUserFile, codexUserFile, geminiSystemFiles } from '../../core/config/locate.js';
import { parseConfigDocument } from '../../core/config/parse.js';
import { duplicateOnPath, tomlSwitchProblem } from '../../core/adopt/switch-check.js';
import { switchPlan, type FilePlan } from '../../core/adopt/switch-plan.js';
import { valueAt } from '../../core/adopt/switch-edit.js';
import { describeType, formatKeyPath, isPlainObject } from '../../core/config/key-path.js';
import { SmartError } from '../../process/errors.js';
import { READ_AS, readFileBytes } from '../../process/read-file.js';
import type { Launch } from '../services/launcher.js';
import type { ClientId } from '../../core/types.js';
import { join } from 'node:path';
import { launchThis } from '../services/launcher.js';
import { shellQuote } from '../services/print-config.js';
import type { AppContext } from '../services/context.js';
import { resolvePaths } from '../services/paths.js';

/** `mcp-smart [-s name …] adopt <client> <flag>` as this copy is started, for a user to paste. */
export function adoptLine(client: ClientId, flag: string | string[], servers: readonly string[] = []): string {
  const l = launchThis([...servers.flatMap((s) => ['-s', s]), 'adopt', client, ...[flag].flat()]);
  return [l.command, ...l.args].map(shellQuote).join(' ');
}

/** The switch as printed: what it changes per file, and the commands that make and undo it. */
export interface SwitchOutline {
  files: { file: string; says: string[] }[];
  /** The one command that makes the switch (keeps a copy of each file). */
  apply: string;
  /** The one command that takes it back. */
  undo: string;
  /** True when this run made it (--apply). */
  applied: boolean;
}

/** The value of a variable adopt made, from the client's entry it came from. */
function madeValue(v: AdoptVariable, inputs: readonly AdoptInput[]): string | undefined {
  const raw = inputs.find((i) => i.def.name === v.server)?.raw;
  if (!raw) return undefined;
  const arg = /^args\[(\d+)\]$/.exec(v.key);
  if (arg) {
    const written = raw.args?.[Number(arg[1])];
    return written === undefined ? undefined : argumentSecret(written);
  }
  const [section, ...rest] = v.key.split('.');
  const key = rest.join('.');
  if (section === 'env') return raw.env?.[key];
  if (section === 'headers') return raw.headers?.[key];
  if (section === 'url') return raw.url;
  if (section === 'oauth') return raw.oauth?.clientSecret;
  return undefined;
}

export function switchOf(
  ctx: AppContext,
  client: ClientId,
  inputs: readonly AdoptInput[],
  made: readonly AdoptVariable[],
  referenced: readonly string[],
  launch: Launch,
  entry: string,
  /** `again`: flags the printed --apply repeats (--scope-from-use); `filter`: the added entry's tool filter. */
  scoped: { again: string[]; filter?: string[] } = { again: [] },
): {
  plans: FilePlan[];
  read: Map<string, Buffer | undefined>;
  /** Why --apply must not run (a value in the client's files it would lose), or undefined. */
  refusal: SmartError | undefined;
  outline: Omit<SwitchOutline, 'applied'>;
} {
  const home = resolvePaths(ctx.io, false).pathEnv.home;
  const userFiles = {
    claude: claudeCodeUserFile(home),
    gemini: join(home, '.gemini', 'settings.json'),
    codex: codexUserFile({ env: ctx.io.env, platform: ctx.io.platform, home }),
  };
  // A source may name a part of a file (`~/.claude.json#projects["…"]`): the file is what is read and changed.
  const fileOf = (source: string): string => source.replace(/#.*$/, '');
  const files = new Set<string>([...inputs.map((i) => fileOf(i.def.source))]);
  if (client === 'claude-code') files.add(userFiles.claude);
  if (client === 'gemini') {
    // Every settings file whose mcp.allowed Gemini reads: the entry added must pass each of them.
    const system = geminiSystemFiles({ env: ctx.io.env, platform: ctx.io.platform, home });
    for (const f of [system.settings, join(ctx.io.cwd, '.gemini', 'settings.json'), userFiles.gemini, system.defaults])
      files.add(f);
  }
  if (client === 'codex') files.add(userFiles.codex);
  const read = new Map<string, Buffer | undefined>();
  const docs = new Map<string, unknown>();
  const duplicates = new Map<string, string[]>();
  for (const f of files) {
    const bytes = readFileBytes(f, '/', READ_AS.config);
    read.set(f, bytes);
    const text = bytes?.toString('utf8') ?? '';
    if (text.trim() === '') continue;
    const parsed = parseConfigDocument(f, text);
    docs.set(f, parsed.value);
    duplicates.set(f, parsed.duplicateKeys);
  }
  const env: Record<string, string> = {};
  for (const v of made) {
    const value = madeValue(v, inputs);
    if (value !== undefined) env[v.variable] = value;
  }
  const plans = switchPlan({
    client,
    project: ctx.io.cwd,
    userFiles,
    adopted: inputs.map((i) => ({ name: i.def.name, source: fileOf(i.def.source) })),
    docs,
    entry,
    launch: { command: launch.command, args: launch.args },
    env,
    passOn: client === 'codex' || client === 'gemini' ? [...referenced] : [],
    ...(scoped.filter ? { filter: scoped.filter } : {}),
  });
  // Files the plan does not change were read only to plan.
  for (const f of [...read.keys()]) if (!plans.some((p) => p.file === f)) read.delete(f);
  return {
    plans,
    read,
    refusal: switchRefusal(plans, docs) ?? fileRefusal(plans, read, duplicates),
    outline: {
      files: plans.map((p) => ({ file: p.file, says: p.says })),
      apply: adoptLine(client, ['--apply', ...scoped.again], ctx.global.server),
      undo: adoptLine(client, '--undo'),
    },
  };
}

/**
 * Why the switch cannot be written into the client's files as they are: a key on an edit's path that holds something
 * other than an object (`"projects": []`, `"mcp": "x"`: the edit has nowhere to go), or a list the switch adds names
 * to (Claude Code disabledMcpServers, Gemini mcp.excluded) that holds something else (--apply would replace it and
 * --undo could not give it back). --apply is then refused (CONFIG_INVALID, exit 2) naming the file and key, before
 * anything is written.
 */
function switchRefusal(plans: readonly FilePlan[], docs: ReadonlyMap<string, unknown>): SmartError | undefined {
  const refuse = (file: string, path: JSONPath, reason: string): SmartError =>
    new SmartError('CONFIG_INVALID', {
      file,
      key: formatKeyPath(path),
      reason: `${reason}; --apply would have to replace it. Fix or remove it and run --apply again.`,
    });
  for (const p of plans) {
    if (p.syntax !== 'json') continue;
    const doc = docs.get(p.file);
    for (const e of p.edits) {
      if (e.kind !== 'set' && e.kind !== 'list-add') continue;
      for (let n = 0; n < e.path.length; n++) {
        const v = valueAt(doc, e.path.slice(0, n));
        if (v === undefined) break;
        if (!isPlainObject(v)) return refuse(p.file, e.path.slice(0, n), `expected an object, got ${describeType(v)}`);
      }
      if (e.kind !== 'list-add') continue;
      const v = valueAt(doc, e.path);
      if (v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'))) continue;
      const got = Array.isArray(v) ? 'a list with entries that are not names' : describeType(v);
      return refuse(p.file, e.path, `expected a list of server names, got ${got}`);
    }
  }
  return undefined;
}

/**
 * Why the switch would not do in a file what it says: an edit through a key the JSON file gives twice (it would land
 * in the earlier copy, which the client does not read), or a Codex server written in a form the switch cannot turn
 * off (core/adopt/switch-check.ts). Refused like switchRefusal, naming the file, key and what to do.
 */
function fileRefusal(
  plans: readonly FilePlan[],
  read: ReadonlyMap<string, Buffer | undefined>,
  duplicates: ReadonlyMap<string, string[]>,
): SmartError | undefined {
  for (const p of plans) {
    const problem =
      p.syntax === 'toml'
        ? tomlSwitchProblem(p.file, read.get(p.file)?.toString('utf8') ?? '', p.edits)
        : duplicateOnPath(p.edits, duplicates.get(p.file) ?? []);
    if (problem) return new SmartError('CONFIG_INVALID', { file: p.file, ...problem });
  }
  return undefined;
}
