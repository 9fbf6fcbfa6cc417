/** Strict validation of our own mcp-smart.config.json keys (servers are checked by server-entry.ts). Pure. */
import { compilePattern } from '../discover/patterns.js';
import { foreignStoreUrl } from '../store/url.js';
import type { PatternRule, SmartConfig } from '../types.js';
import { describeType, formatKeyPath, isPlainObject, unknownKeyReason, type KeyPart } from './key-path.js';
import { validateServeAuth } from './validate-auth.js';

export interface ConfigIssue {
  /** Dotted key path, e.g. `budget.share`. */
  key: string;
  reason: string;
}

export interface SmartConfigValidation {
  config: SmartConfig;
  issues: ConfigIssue[];
}

/** Every top-level key of mcp-smart.config.json (own-config.ts tells our files by them). */
export const TOP_KEYS = [
  '$schema',
  'servers',
  'mcpServers',
  'cache',
  'budget',
  'thresholds',
  'baseline',
  'patterns',
  'weights',
  'keywords',
  'serve',
  'store',
  'user',
];

const SERVE_MODES = ['auto', 'tools', 'meta'];
const SERVE_LEVELS = ['full', 'lossless', 'compact', 'minimal', 'names'];
const LOADS = ['eager', 'defer', 'off'];

type Check = (v: unknown) => string | undefined;

const oneOf =
  (choices: string[]): Check =>
  (v) =>
    typeof v === 'string' && choices.includes(v)
      ? undefined
      : `expected one of ${choices.map((c) => `"${c}"`).join(', ')}, got ${typeof v === 'string' ? JSON.stringify(v) : describeType(v)}.`;
const stringList: Check = (v) =>
  Array.isArray(v) && v.every((x) => typeof x === 'string' && x !== '')
    ? undefined
    : `expected an array of tool names (strings), got ${describeType(v)}.`;
const namePart: Check = (v) =>
  typeof v === 'string' && /^[A-Za-z0-9_-]{1,20}$/.test(v)
    ? undefined
    : 'expected 1 to 20 characters from A-Z, a-z, 0-9, "_" and "-".';

const isNumber: Check = (v) =>
  typeof v === 'number' && Number.isFinite(v) ? undefined : `expected a number, got ${describeType(v)}.`;
/** The smallest find_tool answer budget (src/serve/find-budget.ts keeps the same floor for a call's maxTokens). */
export const MIN_FIND_MAX_TOKENS = 100;
const positiveInt: Check = (v) =>
  typeof v === 'number' && Number.isInteger(v) && v > 0
    ? undefined
    : `expected a whole number of tokens above 0, got ${show(v)}.`;
/** Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;
const milliseconds: Check = (v) =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_TIMER_MS
    ? undefined
    : `expected a whole number of milliseconds from 1 to ${MAX_TIMER_MS} (about 24.8 days), got ${show(v)}.`;
const idleSeconds: Check = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v * 1000 <= MAX_TIMER_MS
    ? undefined
    : `expected a number of seconds from 0 (never) to ${Math.floor(MAX_TIMER_MS / 1000)} (about 24.8 days), got ${show(v)}.`;
const nonNegative: Check = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : `expected a number of 0 or more, got ${show(v)}.`;
const fraction: Check = (v) =>
  typeof v === 'number' && v > 0 && v <= 1
    ? undefined
    : `expected a fraction above 0 and at most 1 (e.g. 0.1), got ${show(v)}.`;
const ratio: Check = (v) =>
  typeof v === 'number' && v >= 0 && v <= 1 ? undefined : `expected a number from 0 to 1, got ${show(v)}.`;
const isBoolean: Check = (v) =>
  typeof v === 'boolean' ? undefined : `expected true or false, got ${describeType(v)}.`;
const nonEmptyString: Check = (v) =>
  typeof v === 'string' && v !== '' ? undefined : `expected a file path as a string, got ${describeType(v)}.`;
const growth: Check = (v) => {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return undefined;
  if (typeof v === 'string' && /^\d+(\.\d+)?%?$/.test(v.trim())) return undefined;
  return `expected a percentage such as "5%" or a number of tokens such as 500, got ${show(v)}.`;
};

/** A URL store must be PostgreSQL's: another scheme would be read as a file path named after the URL. */
function storeUrlProblem(spec: string): string | undefined {
  const reason = foreignStoreUrl(spec);
  return reason === undefined ? undefined : `${reason}.`;
}

/** Numbers are config data, not secrets, so they may be shown; strings only by type. */
function show(v: unknown): string {
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : describeType(v);
}

class Validator {
  readonly issues: ConfigIssue[] = [];

  add(at: readonly KeyPart[], reason: string): void {
    this.issues.push({ key: formatKeyPath(at), reason });
  }

  /** Checks an object's keys against `spec`; returns the accepted values. */
  section(value: unknown, at: KeyPart[], spec: Record<string, Check>): Record<string, unknown> | undefined {
    if (!isPlainObject(value)) {
      this.add(at, `expected an object, got ${describeType(value)}.`);
      return undefined;
    }
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const check = spec[key];
      if (!check) {
        this.add([...at, key], unknownKeyReason(key, Object.keys(spec)));
        continue;
      }
      const problem = check(v);
      if (problem) this.add([...at, key], problem);
      else out[key] = v;
    }
    return out;
  }

  patterns(value: unknown, at: KeyPart[]): SmartConfig['patterns'] {
    const out = this.section(value, at, { rules: () => undefined, allowList: isBoolean });
    if (!out) return undefined;
    const result: NonNullable<SmartConfig['patterns']> = {};
    if (typeof out.allowList === 'boolean') result.allowList = out.allowList;
    if (out.rules === undefined) return result;
    if (!Array.isArray(out.rules)) {
      this.add(
        [...at, 'rules'],
        `expected an array of rules like {"match": "^github\\\\.", "boost": 2}, got ${describeType(out.rules)}.`,
      );
      return result;
    }
    result.rules = [];
    out.rules.forEach((rule: unknown, i) => {
      const here = [...at, 'rules', i];
      const r = this.section(rule, here, {
        match: () => undefined,
        boost: isNumber,
        pin: isBoolean,
        exclude: isBoolean,
      });
      if (!r) return;
      if (typeof r.match !== 'string' || r.match === '') {
        this.add(
          [...here, 'match'],
          r.match === undefined
            ? 'missing: each rule needs a "match" regular expression.'
            : `expected a regular expression as a string, got ${describeType(r.match)}.`,
        );
        return;
      }
      try {
        compilePattern(r.match);
      } catch (e) {
        this.add(
          [...here, 'match'],
          `not a regular expression the linear-time engine (RE2) accepts (${(e as Error).message}); backreferences and lookaround are not supported.`,
        );
        return;
      }
      const parsed: PatternRule = { match: r.match };
      if (typeof r.boost === 'number') parsed.boost = r.boost;
      if (typeof r.pin === 'boolean') parsed.pin = r.pin;
      if (typeof r.exclude === 'boolean') parsed.exclude = r.exclude;
      result.rules?.push(parsed);
    });
    return result;
  }

  /** Weights mirror the shape of the defaults: objects recurse, leaves are numbers. */
  weights(value: unknown, defaults: unknown, at: KeyPart[]): Record<string, unknown> | undefined {
    if (!isPlainObject(value)) {
      this.add(at, `expected an object, got ${describeType(value)}.`);
      return undefined;
    }
    const known = isPlainObject(defaults) ? defaults : {};
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (!(key in known)) {
        this.add([...at, key], unknownKeyReason(key, Object.keys(known)));
        continue;
      }
      const def = known[key];
      if (isPlainObject(def)) {
        const nested = this.weights(v, def, [...at, key]);
        if (nested) out[key] = nested;
      } else {
        const problem = isNumber(v);
        if (problem) this.add([...at, key], problem);
        else out[key] = v;
      }
    }
    return out;
  }

  /** The `serve` section: what `mcp-smart serve` sends, per server and per tool. */
  serve(value: unknown, at: KeyPart[]): SmartConfig['serve'] {
    const out = this.section(value, at, {
      mode: oneOf(SERVE_MODES),
      level: oneOf(SERVE_LEVELS),
      budget: () => undefined,
      servers: () => undefined,
      prefix: namePart,
      key: () => undefined,
      activate: isBoolean,
      spawnTimeout: milliseconds,
      callTimeout: milliseconds,
      inputTimeout: milliseconds,
      firstListWait: milliseconds,
      loadHints: () => undefined,
      auth: () => undefined,
      findToolMaxTokens: (v) =>
        typeof v === 'number' && Number.isInteger(v) && v >= MIN_FIND_MAX_TOKENS
          ? undefined
          : `expected a whole number of tokens of at least ${MIN_FIND_MAX_TOKENS} (the default is 1500), got ${show(v)}.`,
    });
    if (!out) return undefined;
    const result = { ...out } as NonNullable<SmartConfig['serve']>;
    if (out.key !== undefined) {
      if (typeof out.key !== 'string' || out.key === '') {
        this.add([...at, 'key'], `expected the name your client gives this server, got ${describeType(out.key)}.`);
        delete result.key;
      }
    }
    if (out.auth !== undefined) {
      delete result.auth;
      const auth = validateServeAuth(out.auth, [...at, 'auth'], this);
      if (auth) result.auth = auth;
    }
    if (out.loadHints !== undefined) {
      delete result.loadHints;
      if (out.loadHints === false) result.loadHints = false;
      else {
        const h = this.section(out.loadHints, [...at, 'loadHints'], {
          maxTools: nonNegative,
          maxTokens: nonNegative,
          coverage: ratio,
          searchHint: isBoolean,
        });
        if (h) result.loadHints = h;
      }
    }
    if (out.budget !== undefined) {
      const b = this.section(out.budget, [...at, 'budget'], { max: positiveInt, share: fraction, limit: positiveInt });
      if (b) result.budget = b;
      else delete result.budget;
    }
    if (out.servers !== undefined) {
      delete result.servers;
      if (!isPlainObject(out.servers)) {
        this.add([...at, 'servers'], `expected an object keyed by server name, got ${describeType(out.servers)}.`);
      } else {
        const servers: NonNullable<NonNullable<SmartConfig['serve']>['servers']> = {};
        for (const [name, entry] of Object.entries(out.servers)) {
          const e = this.section(entry, [...at, 'servers', name], {
            load: oneOf(LOADS),
            idleTimeout: idleSeconds,
            disable: stringList,
            pin: stringList,
            loadHints: isBoolean,
            noHints: stringList,
          });
          if (e) servers[name] = e;
        }
        result.servers = servers;
      }
    }
    return result;
  }

  keywords(value: unknown, at: KeyPart[]): Record<string, string[]> | undefined {
    if (!isPlainObject(value)) {
      this.add(
        at,
        `expected an object mapping tool ids ("server.tool") to lists of words, got ${describeType(value)}.`,
      );
      return undefined;
    }
    const out: Record<string, string[]> = {};
    for (const [id, words] of Object.entries(value)) {
      if (!Array.isArray(words)) {
        this.add([...at, id], `expected an array of strings, got ${describeType(words)}.`);
        continue;
      }
      const bad = words.findIndex((w) => typeof w !== 'string');
      if (bad >= 0) this.add([...at, id, bad], `expected a string, got ${describeType(words[bad])}.`);
      else out[id] = words as string[];
    }
    return out;
  }
}

/** Validates our config document. Unknown keys are issues with a "did you mean" suggestion. */
export function validateSmartConfig(doc: Record<string, unknown>, defaultWeights: object): SmartConfigValidation {
  const v = new Validator();
  const config: SmartConfig = {};
  for (const [key, value] of Object.entries(doc)) {
    switch (key) {
      case '$schema':
      case 'servers':
      case 'mcpServers':
        break;
      case 'cache': {
        const c = v.section(value, [key], { ttlSeconds: nonNegative });
        if (c) config.cache = c;
        break;
      }
      case 'budget': {
        const b = v.section(value, [key], { max: positiveInt, share: fraction, limit: positiveInt });
        if (b) config.budget = b;
        break;
      }
      case 'thresholds': {
        const t = v.section(value, [key], { maxGrowth: growth, max: positiveInt, minRecall: ratio });
        if (t) config.thresholds = t;
        break;
      }
      case 'baseline': {
        const problem = nonEmptyString(value);
        if (problem) v.add([key], problem);
        else config.baseline = value as string;
        break;
      }
      case 'patterns': {
        const p = v.patterns(value, [key]);
        if (p) config.patterns = p;
        break;
      }
      case 'weights': {
        const w = v.weights(value, defaultWeights, [key]);
        if (w) config.weights = w;
        break;
      }
      case 'keywords': {
        const k = v.keywords(value, [key]);
        if (k) config.keywords = k;
        break;
      }
      case 'user': {
        if (typeof value === 'string' && value !== '') config.user = value;
        else {
          const u = v.section(value, [key], { name: nonEmptyString, label: oneOf(['plain', 'hashed']) });
          if (u && typeof u.name === 'string') config.user = u as NonNullable<SmartConfig['user']>;
          else if (u) v.add([key, 'name'], 'expected the user name whose calls are attributed (a string).');
        }
        break;
      }
      case 'store': {
        const problem = nonEmptyString(value) ?? storeUrlProblem(value as string);
        if (problem) v.add([key], problem);
        else config.store = value as string;
        break;
      }
      case 'serve': {
        const sv = v.serve(value, [key]);
        if (sv) config.serve = sv;
        break;
      }
      default:
        v.add(
          [key],
          unknownKeyReason(
            key,
            TOP_KEYS.filter((k) => k !== '$schema'),
          ),
        );
    }
  }
  return { config, issues: v.issues };
}
