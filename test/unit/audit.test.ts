// The audit result and its findings, from fixture snapshots (pure: counter in, data out).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { atOrAbove, auditFindings, buildAudit, nestingDepth, topTools } from '../../src/core/audit/index.js';
import { createTokenCounter } from '../../src/core/tokens/index.js';
import type { ServerSnapshot, Snapshot } from '../../src/core/types.js';
import { fixture } from '../helpers/paths.js';

const servers = (name: string): ServerSnapshot[] =>
  (JSON.parse(readFileSync(fixture('snapshots', `${name}.json`), 'utf8')) as Snapshot).servers;
const counter = await createTokenCounter('o200k_base');

describe('buildAudit', () => {
  it('audit-findings: per-server figures are the sums of their tools; levels shrink in order', () => {
    const r = buildAudit(servers('audit-findings'), counter, { style: 'json', window: 200_000 });
    for (const s of r.servers) {
      for (const level of ['full', 'lossless', 'compact', 'minimal'] as const) {
        expect(s.tokens[level]).toBe(s.tools.reduce((n, t) => n + t.tokens[level], 0));
      }
    }
    const t = r.totals.tokens;
    expect([t.full, t.lossless, t.compact, t.minimal, t.meta]).toEqual([859, 792, 747, 290, 442]);
    expect(r.servers[0]!.instructionsTokens).toBe(12);
    expect(r.servers[0]!.tools.map((x) => x.id)).toContain('notes.list notes');
  });

  it('cline rendering adds the per-server heading to each server', () => {
    const r = buildAudit(servers('audit-findings'), counter, { style: 'cline' });
    const notes = r.servers[0]!;
    expect(notes.tokens.full - notes.tools.reduce((n, t) => n + t.tokens.full, 0)).toBe(8);
    expect(r.totals.tokens.meta).toBe(636);
  });

  it('topTools: most expensive first, ties by id', () => {
    const r = buildAudit(servers('audit-findings'), counter);
    expect(topTools(r, 3).map((t) => [t.id, t.tokens.full])).toEqual([
      ['notes.pick_country', 231],
      ['notes.search_notes', 209],
      ['notes.configure_deep', 133],
    ]);
  });

  it('audit-failed: the failed server is listed with zero tokens and an error finding', () => {
    const r = buildAudit(servers('audit-failed'), counter);
    expect(r.servers.map((s) => [s.name, s.status, s.toolCount])).toEqual([
      ['clock', 'ok', 2],
      ['broken', 'error', 0],
    ]);
    expect(r.findings).toEqual([
      {
        code: 'SERVER_FAILED',
        severity: 'error',
        server: 'broken',
        message: 'Server failed: Server exited with code 1 before initialize',
      },
    ]);
  });
});

describe('findings', () => {
  it('audit-findings: every expected code, sorted by severity then code', () => {
    const f = auditFindings({
      servers: servers('audit-findings'),
      descriptionTokens: (t) => counter.count(t.description ?? ''),
    });
    expect(f.map((x) => `${x.severity} ${x.code} ${x.server}.${x.tool ?? ''}`)).toEqual([
      'error TOOL_NAME_INVALID notes.list notes',
      'warning DESCRIPTION_MISSING notes.list notes',
      'warning DESCRIPTION_MISSING notes.no_description_tool',
      'warning DUPLICATE_TOOL_NAME notes.search_notes',
      'warning ENUM_HUGE notes.pick_country',
      'warning SCHEMA_DEEP_NESTING notes.configure_deep',
      'warning TOOL_NAME_PREFIXED_TOO_LONG a-server-with-a-rather-long-descriptive-name.summarize_everything_in_the_workspace',
      'info PARAM_DESCRIPTION_MISSING notes.create_shape',
      'info PARAM_DESCRIPTION_MISSING notes.no_description_tool',
      'info PARAM_DESCRIPTION_MISSING notes.open_note',
      'info PARAM_DESCRIPTION_MISSING notes.search_notes',
      'info SCHEMA_REF notes.create_shape',
    ]);
  });

  it('DESCRIPTION_TOO_LONG uses the description token count against the limit', () => {
    const s: ServerSnapshot = {
      name: 'x',
      transport: 'stdio',
      status: 'ok',
      tools: [{ name: 'long', description: 'word '.repeat(500), inputSchema: { type: 'object' } }],
    };
    const f = auditFindings({ servers: [s], descriptionTokens: (t) => counter.count(t.description ?? '') });
    expect(f).toEqual([
      expect.objectContaining({ code: 'DESCRIPTION_TOO_LONG', severity: 'warning', value: 501, limit: 400 }),
    ]);
  });

  it('INPUT_SCHEMA_MISSING when a tool has no inputSchema', () => {
    const s: ServerSnapshot = {
      name: 'x',
      transport: 'stdio',
      status: 'ok',
      tools: [{ name: 'bare', description: 'A tool.' }],
    };
    expect(auditFindings({ servers: [s], descriptionTokens: () => 2 }).map((x) => x.code)).toEqual([
      'INPUT_SCHEMA_MISSING',
    ]);
  });

  it('DUPLICATE_TOOL_NAME when one server lists a name twice (each copy is sent and counted), per client too', () => {
    const tool = { name: 'echo', description: 'Echoes the text back.', inputSchema: { type: 'object' } };
    const s: ServerSnapshot = {
      name: 'x',
      transport: 'stdio',
      status: 'ok',
      tools: [tool, tool, { ...tool, name: 'b' }],
    };
    for (const perClient of [false, true]) {
      const dup = auditFindings({ servers: [s], descriptionTokens: () => 2, perClient }).filter(
        (f) => f.code === 'DUPLICATE_TOOL_NAME',
      );
      expect(dup).toEqual([expect.objectContaining({ server: 'x', tool: 'echo', value: 2, severity: 'warning' })]);
    }
  });

  it('nestingDepth counts properties/items levels, not combinators', () => {
    expect(nestingDepth({ type: 'object' })).toBe(0);
    expect(
      nestingDepth({
        type: 'object',
        properties: {
          a: { type: 'array', items: { anyOf: [{ type: 'object', properties: { b: { type: 'string' } } }] } },
        },
      }),
    ).toBe(3);
  });

  it('atOrAbove orders error > warning > info', () => {
    expect(atOrAbove('error', 'warning')).toBe(true);
    expect(atOrAbove('info', 'warning')).toBe(false);
    expect(atOrAbove('warning', 'warning')).toBe(true);
  });
});
