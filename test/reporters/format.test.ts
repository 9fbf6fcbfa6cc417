import { describe, expect, it } from 'vitest';
import { countOf, formatDelta, formatShare, formatTokens } from '../../src/reporters/format.js';
import { renderMarkdownTable } from '../../src/reporters/markdown.js';

describe('format', () => {
  it('groups thousands and rounds', () => {
    expect([0, 999, 1000, 12345, 85502.4, 1234567, -1234567].map(formatTokens)).toEqual([
      '0',
      '999',
      '1,000',
      '12,345',
      '85,502',
      '1,234,567',
      '-1,234,567',
    ]);
  });

  it('signs deltas and gives the percentage of the before value', () => {
    expect(formatDelta(120, 3000)).toBe('+120 (+4.0%)');
    expect(formatDelta(-31, 807)).toBe('-31 (-3.8%)');
    expect(formatDelta(0, 807)).toBe('0 (0.0%)');
    expect(formatDelta(1500, 0)).toBe('+1,500 (new)');
    expect(formatDelta(0, 0)).toBe('0 (0.0%)');
  });

  it('never rounds a partial cut to 100% or a real change to 0%', () => {
    expect(formatDelta(-932_363, 932_666)).toBe('-932,363 (-99.97%)');
    expect(formatDelta(-932_666, 932_666)).toBe('-932,666 (-100.0%)');
    expect(formatDelta(4, 10_000)).toBe('+4 (+0.04%)');
    expect(formatDelta(1, 10_000_000)).toBe('+1 (+<0.001%)');
  });

  it('counts with a noun in the right number', () => {
    expect([countOf(1, 'tool'), countOf(2781, 'tool'), countOf(0, 'server'), countOf(1, 'entry', 'entries')]).toEqual([
      '1 tool',
      '2,781 tools',
      '0 servers',
      '1 entry',
    ]);
  });

  it('shows shares as percentages with one decimal', () => {
    expect(formatShare(0.02255)).toBe('2.3%');
  });

  it('right-aligns number columns and escapes pipes in markdown', () => {
    expect(renderMarkdownTable({ head: ['tool', 'tokens'], rows: [['a|b', '1,000']], right: [1] })).toBe(
      '| tool | tokens |\n| --- | ---: |\n| a\\|b | 1,000 |',
    );
  });
});
