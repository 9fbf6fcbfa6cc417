import { describe, expect, it } from 'vitest';
import { buildCases } from '../../src/core/session/cases.js';
import { learnFromCases } from '../../src/core/session/usage.js';
import type { RecordedSession } from '../../src/core/session/model.js';

const known = [
  { id: 'my.server.read', server: 'my.server', tool: 'read' },
  { id: 'fs.write', server: 'fs', tool: 'write' },
];

describe('buildCases', () => {
  it('matches normalised server names, lists unknown tools, orders by time', () => {
    const sessions: RecordedSession[] = [
      {
        id: 'b',
        file: 'b',
        format: 'claude-code',
        turns: [
          {
            intent: 'late',
            time: 20,
            line: 1,
            calls: [
              { server: 'fs', tool: 'write', ok: false },
              { server: 'fs', tool: 'write', ok: true },
            ],
          },
        ],
      },
      {
        id: 'a',
        file: 'a',
        format: 'claude-code',
        turns: [
          {
            intent: 'early',
            time: 10,
            line: 1,
            calls: [
              { server: 'my_server', tool: 'read' },
              { server: 'gh', tool: 'issue', ok: true },
            ],
          },
          { intent: 'chat', time: 11, line: 5, calls: [] },
        ],
      },
    ];
    const set = buildCases(sessions, known);
    expect(set.cases.map((c) => c.id)).toEqual(['a#1', 'b#1']);
    expect(set.cases[0]!.expected).toEqual(['my.server.read', 'gh.issue']);
    expect(set.cases[1]!.expected).toEqual(['fs.write']);
    expect(set.cases[1]!.success).toBe(false);
    expect(set.unknownTools).toEqual(['gh.issue']);
    expect(set.unknownCalls).toBe(1);
    expect(set.turnsWithoutCalls).toBe(1);
  });

  it('a call to a loaded tool the visibility rules hide is listed apart from unknown ones, unresolved', () => {
    const session: RecordedSession = {
      id: 's',
      file: 's',
      format: 'claude-code',
      turns: [
        {
          intent: 'remove it',
          time: 1,
          line: 1,
          calls: [
            { server: 'my_server', tool: 'delete', ok: true },
            { server: 'fs', tool: 'write', ok: true },
            { server: 'gh', tool: 'issue', ok: true },
          ],
        },
      ],
    };
    const set = buildCases([session], known, [{ id: 'my.server.delete', server: 'my.server', tool: 'delete' }]);
    expect(set).toMatchObject({ hiddenTools: ['my.server.delete'], hiddenCalls: 1, unknownTools: ['gh.issue'] });
    expect(set.cases[0]!.expected).toEqual(['my.server.delete', 'fs.write', 'gh.issue']);
    expect(set.cases[0]!.calls.map((c) => c.unresolved === true)).toEqual([true, false, true]);
  });

  it('a name that matches two loaded tools, or none, is scored as a miss and never learned', () => {
    const tools = [
      { id: 'a.b__c', server: 'a', tool: 'b__c' },
      { id: 'a__b.c', server: 'a__b', tool: 'c' },
      { id: 'fs.write', server: 'fs', tool: 'write' },
    ];
    const session: RecordedSession = {
      id: 's',
      file: 's',
      format: 'claude-code',
      turns: [
        {
          intent: 'do it',
          time: 10,
          line: 1,
          calls: [
            {
              server: 'a',
              tool: 'b__c',
              alternatives: [{ server: 'a__b', tool: 'c' }],
              rawName: 'mcp__a__b__c',
              ok: true,
            },
            { server: 'gh', tool: 'ghost', ok: true },
            { server: 'fs', tool: 'write', ok: true },
          ],
        },
      ],
    };
    const set = buildCases([session], tools);
    expect(set.ambiguous).toEqual([{ name: 'mcp__a__b__c', ids: ['a.b__c', 'a__b.c'] }]);
    expect(set.unknownTools).toEqual(['gh.ghost']);
    expect(set.cases[0]!.calls.map((c) => [c.id, c.unresolved ?? false])).toEqual([
      ['a.b__c', true],
      ['gh.ghost', true],
      ['fs.write', false],
    ]);
    const learned = learnFromCases({ tools: {} }, set.cases, () => 'other', 0);
    expect(Object.keys(learned.tools)).toEqual(['fs.write']);
  });
});
