/** Counts as every layer writes them (reports, notes, error messages): thousands separators, noun in number. */

/** 12345 → "12,345". Grouped by hand: building an Intl.NumberFormat costs ~20 ms of start-up. */
export function formatTokens(n: number): string {
  const rounded = Math.round(n);
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return rounded < 0 ? `-${digits}` : digits;
}

/** "1 tool", "2,781 tools": a count with its noun, singular or plural, thousands separated. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatTokens(n)} ${n === 1 ? singular : plural}`;
}

/** "the 1 well-formed tool was kept", "the 4 well-formed tools were kept": the tail of a malformed-tools note. */
export function keptText(kept: number): string {
  return `the ${countOf(kept, 'well-formed tool')} ${kept === 1 ? 'was' : 'were'} kept`;
}
