/** The committed baseline (mcp-smart.lock.json): build, serialise, parse, and compare a run against it. */
import { dict, toDict, isObject } from '../dict.js';
import { uniqueKeys } from '../unique-keys.js';
import { ENCODINGS, type Encoding } from '../types.js';
import type { MeasuredServer } from './measure.js';
import { allowedGrowth, formatGrowthLimit, parseGrowthLimit, type GrowthLimit } from './threshold.js';

export const BASELINE_FORMAT = 'mcp-smart/baseline@1';

export interface BaselineTool {
  tokens: number;
  hash: string;
}

export interface BaselineServer {
  tokens: number;
  tools: Record<string, BaselineTool>;
}

export interface BaselineThresholds {
  maxGrowth?: string;
  max?: number;
  minRecall?: number;
}

export interface Baseline {
  format: typeof BASELINE_FORMAT;
  encoding: Encoding;
  servers: Record<string, BaselineServer>;
  thresholds: BaselineThresholds;
}

/** The baseline document for measured servers. No timestamps, so rewriting an unchanged setup is a no-op.
 * Tool names are keys; a name listed twice gets `#2`, `#3` (uniqueKeys) so nothing is lost. */
export function buildBaseline(
  servers: readonly MeasuredServer[],
  encoding: Encoding,
  thresholds: BaselineThresholds,
): Baseline {
  const out = dict<BaselineServer>();
  for (const s of servers) {
    const keys = uniqueKeys(s.tools.map((t) => t.name));
    const tools = dict<BaselineTool>();
    s.tools.forEach((t, i) => {
      tools[keys[i] ?? t.name] = { tokens: t.tokens, hash: t.hash };
    });
    out[s.name] = { tokens: s.tokens, tools };
  }
  const th: BaselineThresholds = {};
  if (thresholds.maxGrowth !== undefined) th.maxGrowth = thresholds.maxGrowth;
  if (thresholds.max !== undefined) th.max = thresholds.max;
  if (thresholds.minRecall !== undefined) th.minRecall = thresholds.minRecall;
  return { format: BASELINE_FORMAT, encoding, servers: out, thresholds: th };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted = dict<unknown>();
  for (const k of Object.keys(value).sort()) sorted[k] = sortKeys((value as Record<string, unknown>)[k]);
  return sorted;
}

/** Pretty JSON with sorted keys and a final newline: byte-identical for identical content. */
export function serializeBaseline(baseline: Baseline): string {
  return JSON.stringify(sortKeys(baseline), null, 2) + '\n';
}

const TOKEN_COUNT =
  'expected a whole number of tokens (0 or more); was the file edited by hand? Rewrite it with `check --update`';

/** A token count as mcp-smart writes it: a whole number from 0 up to 2^53 − 1. */
const isTokenCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; path: string; reason: string };

/** Validates a parsed baseline document; on failure names the key path. */
export function parseBaseline(doc: unknown): ParseResult<Baseline> {
  const fail = (path: string, reason: string): ParseResult<Baseline> => ({ ok: false, path, reason });
  if (!isObject(doc)) return fail('(top level)', 'expected an object');
  if (doc.format !== BASELINE_FORMAT)
    return fail('format', `expected "${BASELINE_FORMAT}", found ${JSON.stringify(doc.format)}`);
  if (typeof doc.encoding !== 'string' || !(ENCODINGS as readonly string[]).includes(doc.encoding)) {
    return fail('encoding', `expected one of ${ENCODINGS.join(', ')}`);
  }
  if (!isObject(doc.servers)) return fail('servers', 'expected an object');
  for (const [name, s] of Object.entries(doc.servers)) {
    if (!isObject(s)) return fail(`servers.${name}`, 'expected an object');
    if (!isTokenCount(s.tokens)) return fail(`servers.${name}.tokens`, TOKEN_COUNT);
    if (!isObject(s.tools)) return fail(`servers.${name}.tools`, 'expected an object');
    for (const [tool, t] of Object.entries(s.tools)) {
      if (!isObject(t) || typeof t.tokens !== 'number' || typeof t.hash !== 'string') {
        return fail(`servers.${name}.tools.${tool}`, 'expected {tokens: number, hash: string}');
      }
      if (!isTokenCount(t.tokens)) return fail(`servers.${name}.tools.${tool}.tokens`, TOKEN_COUNT);
    }
  }
  const thresholds = doc.thresholds === undefined ? {} : doc.thresholds;
  if (!isObject(thresholds)) return fail('thresholds', 'expected an object');
  if (
    thresholds.maxGrowth !== undefined &&
    ((typeof thresholds.maxGrowth !== 'string' && typeof thresholds.maxGrowth !== 'number') ||
      parseGrowthLimit(thresholds.maxGrowth) === undefined)
  ) {
    return fail('thresholds.maxGrowth', 'expected "5%" or a whole number of tokens, not negative');
  }
  if (thresholds.max !== undefined && !(isTokenCount(thresholds.max) && thresholds.max > 0))
    return fail('thresholds.max', 'expected a whole number of tokens above 0');
  if (
    thresholds.minRecall !== undefined &&
    !(typeof thresholds.minRecall === 'number' && thresholds.minRecall >= 0 && thresholds.minRecall <= 1)
  )
    return fail('thresholds.minRecall', 'expected a number from 0 to 1');
  const th: BaselineThresholds = {};
  if (thresholds.maxGrowth !== undefined) th.maxGrowth = String(thresholds.maxGrowth);
  if (typeof thresholds.max === 'number') th.max = thresholds.max;
  if (typeof thresholds.minRecall === 'number') th.minRecall = thresholds.minRecall;
  // Server and tool names are keys: null-prototype maps keep `__proto__` and never answer `constructor`.
  const servers = dict<BaselineServer>();
  for (const [name, s] of Object.entries(doc.servers as Record<string, BaselineServer>))
    servers[name] = { ...s, tools: toDict<BaselineTool>(s.tools) };
  return { ok: true, value: { ...(doc as unknown as Baseline), servers, thresholds: th } };
}

export type ChangeKind = 'added' | 'removed' | 'changed';

export interface ToolChange {
  id: string;
  kind: ChangeKind;
  before: number;
  after: number;
  delta: number;
  server: string;
  tool: string;
  /** The definition changed (its hash differs), whether or not the token count did. */
  hashChanged: boolean;
}

export interface ServerComparison {
  name: string;
  status: 'ok' | 'added' | 'removed' | 'unavailable';
  before: number;
  after: number;
  delta: number;
}

export type CheckFailure =
  | { code: 'TOTAL_GROWTH'; before: number; after: number; delta: number; allowed: number; limit: string }
  | { code: 'OVER_MAX'; after: number; max: number };

export interface CheckThresholds {
  maxGrowth: GrowthLimit;
  max?: number;
}

export interface BaselineComparison {
  passed: boolean;
  totals: { before: number; after: number; delta: number };
  changes: ToolChange[];
  servers: ServerComparison[];
  failures: CheckFailure[];
  /** Tools that grew, largest growth first (warnings; the totals decide pass/fail). */
  grown: ToolChange[];
  allowedGrowth: number;
}

export interface CompareOptions {
  thresholds: CheckThresholds;
  /** Servers that could not be reached: left out of both sides, so they count as neither removed nor changed. */
  unavailable?: readonly string[];
  /** When set, baseline servers outside this list are ignored (a --server selection). */
  only?: readonly string[];
}

const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Compares a run with the baseline: per-tool changes, totals, and the threshold verdict. */
export function compareBaseline(
  baseline: Baseline,
  current: readonly MeasuredServer[],
  opts: CompareOptions,
): BaselineComparison {
  const unavailable = new Set(opts.unavailable ?? []);
  const only = opts.only && opts.only.length > 0 ? new Set(opts.only) : undefined;
  const inScope = (name: string): boolean => !unavailable.has(name) && (only === undefined || only.has(name));
  const changes: ToolChange[] = [];
  const servers: ServerComparison[] = [];
  let before = 0;
  let after = 0;
  const currentByName = new Map(current.map((s) => [s.name, s]));

  const names = new Set([...Object.keys(baseline.servers), ...current.map((s) => s.name)]);
  for (const name of [...names].sort()) {
    const base = baseline.servers[name];
    const cur = currentByName.get(name);
    if (unavailable.has(name)) {
      if (base) servers.push({ name, status: 'unavailable', before: base.tokens, after: base.tokens, delta: 0 });
      continue;
    }
    if (!inScope(name)) continue;
    const baseTools = base?.tools ?? dict<BaselineTool>();
    const curTools = dict<{ tokens: number; hash: string }>();
    if (cur) {
      const keys = uniqueKeys(cur.tools.map((t) => t.name));
      cur.tools.forEach((t, i) => (curTools[keys[i] ?? t.name] = t));
    }
    const sBefore = Object.values(baseTools).reduce((n, t) => n + t.tokens, 0);
    const sAfter = Object.values(curTools).reduce((n, t) => n + t.tokens, 0);
    before += sBefore;
    after += sAfter;
    servers.push({
      name,
      status: !base ? 'added' : !cur ? 'removed' : 'ok',
      before: sBefore,
      after: sAfter,
      delta: sAfter - sBefore,
    });
    for (const tool of new Set([...Object.keys(baseTools), ...Object.keys(curTools)])) {
      const b = baseTools[tool];
      const c = curTools[tool];
      const id = `${name}.${tool}`;
      if (b && !c)
        changes.push({
          id,
          kind: 'removed',
          before: b.tokens,
          after: 0,
          delta: -b.tokens,
          server: name,
          tool,
          hashChanged: true,
        });
      else if (!b && c)
        changes.push({
          id,
          kind: 'added',
          before: 0,
          after: c.tokens,
          delta: c.tokens,
          server: name,
          tool,
          hashChanged: true,
        });
      else if (b && c && (b.hash !== c.hash || b.tokens !== c.tokens)) {
        changes.push({
          id,
          kind: 'changed',
          before: b.tokens,
          after: c.tokens,
          delta: c.tokens - b.tokens,
          server: name,
          tool,
          hashChanged: b.hash !== c.hash,
        });
      }
    }
  }
  changes.sort(byId);

  const delta = after - before;
  const allowed = allowedGrowth(opts.thresholds.maxGrowth, before);
  const failures: CheckFailure[] = [];
  if (delta > allowed) {
    failures.push({
      code: 'TOTAL_GROWTH',
      before,
      after,
      delta,
      allowed,
      limit: formatGrowthLimit(opts.thresholds.maxGrowth),
    });
  }
  if (opts.thresholds.max !== undefined && after > opts.thresholds.max)
    failures.push({ code: 'OVER_MAX', after, max: opts.thresholds.max });
  const grown = changes.filter((c) => c.delta > 0).sort((a, b) => b.delta - a.delta || byId(a, b));
  return {
    passed: failures.length === 0,
    totals: { before, after, delta },
    changes,
    servers,
    failures,
    grown,
    allowedGrowth: allowed,
  };
}
