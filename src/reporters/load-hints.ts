/** The one line `budget` and `audit` print about serve's load hints. */
import type { LoadHintSummary } from '../core/hints/summary.js';
import { formatShare, formatTokens } from './format.js';

/** What serve's load hints cost: the always-loaded tools (in every request) and the search hints' size. */
export function loadHintsLine(h: LoadHintSummary): string {
  const tools = h.alwaysLoad.map((t) => `${t.id} (${formatTokens(t.tokens)})`).join(', ');
  const always =
    h.alwaysLoad.length === 0
      ? 'no tool always loaded'
      : `always loaded: ${tools} — ${formatTokens(h.alwaysLoadTokens)} tokens in every request, ${formatShare(h.coverage)} of recorded calls`;
  return `Load hints (serve, tools mode): ${always}; search hints on ${h.searchHints} tool${h.searchHints === 1 ? '' : 's'} (${formatTokens(h.searchHintTokens)} tokens).`;
}
