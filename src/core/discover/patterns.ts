/** Pattern rules (dynamic-discovery note): regex on tool ids with boost, pin, exclude, and an allow-list mode. */
import { createRequire } from 'node:module';
import type { RE2JS as Re2Class } from 're2js';
import { SmartError } from '../../process/errors.js';
import type { PatternRule, SmartConfig } from '../types.js';

export interface PatternEffect {
  /** The tool may be offered at all. */
  allowed: boolean;
  pinned: boolean;
  boost: number;
}

/**
 * A rule's `match` compiled by RE2 (re2js): matching takes time linear in the id whatever the pattern, so a
 * catastrophic pattern like `(a+)+$` from a config file cannot freeze `discover` or `serve`. RE2 has no
 * backreferences or lookaround; such a pattern is a config error. Throws the engine's syntax message.
 */
export function compilePattern(match: string): { test(id: string): boolean } {
  const RE2JS = re2();
  const re = RE2JS.compile(match, RE2JS.CASE_INSENSITIVE);
  return { test: (id) => re.matcher(id).find() };
}

type Re2 = typeof Re2Class;
let loaded: Re2 | undefined;
/** re2js (260 KB) is loaded when a config has rules, not on every start of discover and serve. */
const re2 = (): Re2 => (loaded ??= (createRequire(import.meta.url)('re2js') as { RE2JS: Re2 }).RE2JS);

/** Effect of the rules on each id (case-insensitive regex search, like the note's re.IGNORECASE). */
export function applyPatterns(ids: string[], rules: PatternRule[], allowList = false): PatternEffect[] {
  const compiled = rules.map((rule, i) => {
    try {
      return { rule, re: compilePattern(rule.match) };
    } catch (e) {
      throw new SmartError(
        'CONFIG_INVALID',
        { file: 'config', key: `patterns.rules[${i}].match`, reason: (e as Error).message },
        { cause: e },
      );
    }
  });
  return ids.map((id) => {
    let matched = false;
    let excluded = false;
    let pinned = false;
    let boost = 0;
    for (const { rule, re } of compiled) {
      if (!re.test(id)) continue;
      if (rule.exclude) {
        excluded = true;
        continue;
      }
      matched = true;
      if (rule.pin) pinned = true;
      boost += rule.boost ?? 0;
    }
    return { allowed: !excluded && (!allowList || matched), pinned: pinned && !excluded, boost };
  });
}

/** The `patterns` key of mcp-smart.config.json as rank options; undefined when it changes nothing. */
export function patternsFromConfig(config: SmartConfig): { rules: PatternRule[]; allowList?: boolean } | undefined {
  const p = config.patterns;
  if (!p || ((p.rules ?? []).length === 0 && !p.allowList)) return undefined;
  return { rules: p.rules ?? [], allowList: p.allowList };
}

/** The pattern stage of a ranking: which tools may be offered, their boosts and the pinned ones; null without rules. */
export function patternStage(
  tools: readonly { id: string }[],
  patterns: { rules: PatternRule[]; allowList?: boolean } | undefined,
): {
  effects: PatternEffect[];
  allowed: (i: number) => boolean;
  boost: (i: number) => number;
  pinned: number[];
} | null {
  if (!patterns?.rules.length && !patterns?.allowList) return null;
  // The ids are listed only when there are rules: without them this runs on every query for nothing.
  const effects = applyPatterns(
    tools.map((t) => t.id),
    patterns.rules,
    patterns.allowList,
  );
  return {
    effects,
    allowed: (i) => effects[i]!.allowed,
    boost: (i) => effects[i]!.boost,
    pinned: effects.flatMap((e, i) => (e.pinned && e.allowed ? [i] : [])),
  };
}
