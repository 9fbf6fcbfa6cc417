/**
 * Live learning: every forwarded call updates the usage store (under its lock, beside `replay --learn` and
 * other serve processes); a call to a tool that a recent find_tool returned makes "intent → tool" a labelled
 * case, appended to `--record <file>` when asked. Only ids, outcomes, times and redacted intents are kept:
 * arguments and results are never recorded or logged.
 */
import { detectTaskContext } from '../core/discover/index.js';
import { updateUsageStore } from '../core/session/usage-store.js';
import { recordCalls } from '../core/session/usage.js';
import { errorText } from '../errors.js';
import { appendFileSafe } from '../safe-write.js';
import type { UsageStats } from '../types.js';

/** How long a find_tool result counts as the reason for a later call. */
const FIND_MEMORY_MS = 15 * 60_000;
const FINDS_KEPT = 20;

/** Token-like text: provider keys, bearer tokens, long hex or base64 runs, URL credentials. */
const SECRET_PATTERNS = [
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}/g,
  /\b(ghp|gho|ghu|ghs|github_pat|xox[abpr]|glpat)[-_][A-Za-z0-9_-]{10,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b[A-Fa-f0-9]{32,}\b/g,
  /\b[A-Za-z0-9+/_-]{40,}={0,2}/g,
  /\/\/[^/\s:@]+:[^/\s@]+@/g,
];

/** The intent with known secret values and token-like text replaced by `***`. */
export function redactIntent(intent: string, secrets: readonly string[]): string {
  let out = intent;
  for (const s of secrets) out = out.split(s).join('***');
  for (const p of SECRET_PATTERNS) out = out.replace(p, '***');
  return out;
}

export interface LabelledCase {
  intent: string;
  expected: string[];
}

interface Find {
  intent: string;
  ids: string[];
  at: number;
}

export interface LearnerOptions {
  /** Usage store file; undefined: do not learn. */
  store?: string;
  /** --record file for labelled cases. */
  record?: string;
  /** Env and header values of every server, never written. */
  secrets: readonly string[];
  now: () => number;
  log: (text: string) => void;
  /** In-memory usage the ranking reads (updated as calls happen). */
  usage: UsageStats;
}

export class Learner {
  private readonly finds: Find[] = [];
  private queue: Promise<void> = Promise.resolve();
  readonly cases: LabelledCase[] = [];

  constructor(private readonly opts: LearnerOptions) {}

  /** Remembers what find_tool returned for an intent. */
  found(intent: string, ids: string[]): void {
    this.finds.push({ intent, ids, at: this.opts.now() });
    if (this.finds.length > FINDS_KEPT) this.finds.shift();
  }

  /** The most recent find whose results held `id`, if recent enough. */
  private reason(id: string): Find | undefined {
    const now = this.opts.now();
    for (let i = this.finds.length - 1; i >= 0; i--) {
      const f = this.finds[i]!;
      if (now - f.at > FIND_MEMORY_MS) break;
      if (f.ids.includes(id)) return f;
    }
    return undefined;
  }

  /** Records one forwarded call. Writes happen in order, in the background; `flush` waits for them. */
  called(id: string, ok: boolean, latencyMs: number): void {
    const time = this.opts.now();
    const find = this.reason(id);
    const category = find ? detectTaskContext(find.intent).type : 'other';
    const call = [{ id, ok, known: true, latencyMs }];
    const labelled = ok && find ? { intent: redactIntent(find.intent, this.opts.secrets), expected: [id] } : undefined;
    // The intent find_tool was asked for is remembered for the tool called after it (remembered intents).
    recordCalls(this.opts.usage, call, category, time, labelled?.intent);
    if (labelled) this.cases.push(labelled);
    const { store, record } = this.opts;
    this.queue = this.queue.then(async () => {
      try {
        if (store) {
          await updateUsageStore(
            store,
            (doc) => {
              const stats = { tools: doc.tools, intents: doc.intents ?? {} };
              recordCalls(stats, call, category, time, labelled?.intent);
              return { ...doc, tools: stats.tools, intents: stats.intents };
            },
            { now: time },
          );
        }
        if (record && labelled) {
          await appendFileSafe(record, JSON.stringify(labelled) + '\n');
        }
      } catch (e) {
        this.opts.log(`could not record usage: ${errorText(e)}`);
      }
    });
  }

  flush(): Promise<void> {
    return this.queue;
  }
}
