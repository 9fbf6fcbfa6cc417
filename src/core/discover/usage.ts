/** Task context of an intent and the usage prior (usage-learning note): success rate, category match, recency. */
import type { ToolUsage } from '../../types.js';
import type { HybridWeights } from './weights.js';

export type TaskType = 'file_operation' | 'web_request' | 'data_processing' | 'automation' | 'other';

export interface TaskContext {
  type: TaskType;
  keywords: string[];
}

const RULES: { type: TaskType; triggers: string[]; priority: string[] }[] = [
  {
    type: 'file_operation',
    triggers: ['file', 'read', 'write', 'directory', 'folder'],
    priority: ['file', 'read', 'write', 'directory', 'create', 'delete'],
  },
  {
    type: 'web_request',
    triggers: ['api', 'request', 'fetch', 'http', 'curl', 'download'],
    priority: ['api', 'request', 'fetch', 'get', 'post', 'download'],
  },
  {
    type: 'data_processing',
    triggers: ['data', 'parse', 'convert', 'json', 'csv', 'xml'],
    priority: ['data', 'parse', 'convert', 'format', 'process'],
  },
  {
    type: 'automation',
    triggers: ['automate', 'script', 'batch', 'workflow', 'schedule'],
    priority: ['automate', 'script', 'workflow', 'schedule'],
  },
];
const COMMON = new Set(['that', 'this', 'with', 'from', 'they', 'have', 'were', 'been', 'their']);

/** Category and keywords of an intent, by the note's substring rules (first matching category wins). */
export function detectTaskContext(intent: string): TaskContext {
  const message = intent.toLowerCase();
  const rule = RULES.find((r) => r.triggers.some((t) => message.includes(t)));
  return { type: rule?.type ?? 'other', keywords: extractKeywords(message, rule?.priority ?? []) };
}

function extractKeywords(message: string, priority: string[]): string[] {
  const keywords = [...priority];
  for (const word of message.split(/\s+/)) {
    if (word.length > 3 && !COMMON.has(word) && !keywords.includes(word)) keywords.push(word);
  }
  return keywords.slice(0, 10);
}

export interface UsagePrior {
  success: number;
  category: number;
  recency: number;
  /** Weighted mean of the three, in [0, 1]. */
  total: number;
}

const DAY_MS = 86_400_000;

/** Prior relevance of a tool from its recorded use; zero for a tool never used. */
export function usagePrior(
  usage: ToolUsage | undefined,
  type: TaskType,
  weights: HybridWeights['usage'],
  now?: number,
): UsagePrior {
  if (!usage) return { success: 0, category: 0, recency: 0, total: 0 };
  const n = usage.success + usage.failure;
  // Laplace-smoothed success rate, discounted while there are few observations.
  const success = ((usage.success + 1) / (n + 2)) * (n / (n + 3));
  const cats = Object.values(usage.categories ?? {}).reduce((a, b) => a + b, 0);
  const category = cats > 0 ? (usage.categories[type] ?? 0) / cats : 0;
  const ageDays = now !== undefined && usage.lastUsed > 0 ? Math.max(0, now - usage.lastUsed) / DAY_MS : Infinity;
  const recency = Number.isFinite(ageDays) && weights.halfLifeDays > 0 ? 0.5 ** (ageDays / weights.halfLifeDays) : 0;
  const sum = weights.success + weights.category + weights.recency;
  const total =
    sum > 0 ? (weights.success * success + weights.category * category + weights.recency * recency) / sum : 0;
  return { success, category, recency, total };
}
