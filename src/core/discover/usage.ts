/** Task context of an intent and the usage prior (usage-learning note): success rate, category match, recency. */
import type { ToolUsage } from '../types.js';
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

/** The category's priority words, then the intent's own, the first 10 (it stops there: a pasted page is long). */
function extractKeywords(message: string, priority: string[]): string[] {
  const keywords = priority.slice(0, KEYWORDS);
  for (const word of message.split(/\s+/)) {
    if (keywords.length >= KEYWORDS) break;
    if (word.length > 3 && !COMMON.has(word) && !keywords.includes(word)) keywords.push(word);
  }
  return keywords;
}

const KEYWORDS = 10;

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
  return usagePriorOf(usageParts(usage, type, now), weights);
}

/** The weight-independent parts of a usage prior (the tuner caches them): success, category, age in days. */
export interface UsageParts {
  success: number;
  category: number;
  /** Days since last use; Infinity when unknown. */
  ageDays: number;
}

/** The prior from its parts and the weights: usagePrior's formula, shared with the tuner's fast path. */
export function usagePriorOf(parts: UsageParts, weights: HybridWeights['usage']): UsagePrior {
  const recency = recencyOf(parts.ageDays, weights);
  return { success: parts.success, category: parts.category, recency, total: priorTotal(parts, recency, weights) };
}

/** usagePriorOf's total alone, without allocating (the tuner's fast path calls it per tool and weight set). */
export function usagePriorTotal(parts: UsageParts, weights: HybridWeights['usage']): number {
  return priorTotal(parts, recencyOf(parts.ageDays, weights), weights);
}

function recencyOf(ageDays: number, weights: HybridWeights['usage']): number {
  return Number.isFinite(ageDays) && weights.halfLifeDays > 0 ? 0.5 ** (ageDays / weights.halfLifeDays) : 0;
}

function priorTotal(parts: UsageParts, recency: number, weights: HybridWeights['usage']): number {
  const sum = weights.success + weights.category + weights.recency;
  return sum > 0
    ? (weights.success * parts.success + weights.category * parts.category + weights.recency * recency) / sum
    : 0;
}

/** The weight-independent parts of a tool's prior, as usagePrior computes them. */
export function usageParts(usage: ToolUsage, type: TaskType, now?: number): UsageParts {
  const n = usage.success + usage.failure;
  const cats = Object.values(usage.categories ?? {}).reduce((a, b) => a + b, 0);
  return {
    // Laplace-smoothed success rate, discounted while there are few observations.
    success: ((usage.success + 1) / (n + 2)) * (n / (n + 3)),
    category: cats > 0 ? (usage.categories[type] ?? 0) / cats : 0,
    ageDays: now !== undefined && usage.lastUsed > 0 ? Math.max(0, now - usage.lastUsed) / DAY_MS : Infinity,
  };
}
