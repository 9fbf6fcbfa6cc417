// What is declared to servers: a client's roots/elicitation/sampling as declared, merged across clients, keyed
// stably, and part of the tool-list cache key (one list per declaration; nothing declared keeps the old key).
import { describe, expect, it } from 'vitest';
import { toolCacheKey } from '../../src/core/connect/cache.js';
import {
  CLIENT_DECLARATIONS,
  capabilitiesKey,
  declaredCapabilities,
  relayedCapabilities,
} from '../../src/core/declared-capabilities.js';
import { Declaration, mergeCapabilities } from '../../src/serve/declared.js';
import type { ServerDefinition } from '../../src/core/types.js';

const def: ServerDefinition = {
  name: 'everything',
  transport: 'stdio',
  command: 'node',
  args: ['index.js'],
  enabled: true,
  source: '/p/.mcp.json',
  scope: 'project',
};

describe('declared capabilities', () => {
  it('--client declares the measured client’s capabilities; nothing for mcp-smart itself or unmeasured clients', () => {
    expect(declaredCapabilities('claude-code')).toEqual({
      roots: { listChanged: true },
      elicitation: { form: {}, url: {} },
    });
    expect(declaredCapabilities('gemini')).toEqual({ roots: { listChanged: true } });
    expect(declaredCapabilities('codex')).toEqual({ elicitation: { form: {}, url: {} } });
    expect(declaredCapabilities('cursor')).toEqual({});
    expect(declaredCapabilities(undefined)).toEqual({});
    for (const d of Object.values(CLIENT_DECLARATIONS)) expect(d.source).toContain(d.version);
  });

  it('relays roots, elicitation and sampling as declared; drops tasks, extensions and non-objects', () => {
    expect(
      relayedCapabilities({
        roots: { listChanged: true },
        elicitation: { form: { applyDefaults: true }, url: {} },
        sampling: { tools: {} },
        tasks: { requests: {} },
        extensions: { x: {} },
      }),
    ).toEqual({
      roots: { listChanged: true },
      elicitation: { form: { applyDefaults: true }, url: {} },
      sampling: { tools: {} },
    });
    expect(relayedCapabilities({ roots: true, elicitation: [] })).toEqual({});
    expect(relayedCapabilities(undefined)).toEqual({});
  });

  it('cuts what is relayed to the fields MCP defines, flags only when true: a varying declaration has few forms', () => {
    expect(
      relayedCapabilities({
        roots: { listChanged: false, extra: 1 },
        elicitation: { form: { applyDefaults: 'yes', n: 7 }, url: { x: {} }, other: {} },
        sampling: { context: { deep: 1 }, tools: {}, seed: {} },
      }),
    ).toEqual({ roots: {}, elicitation: { form: {}, url: {} }, sampling: { context: {}, tools: {} } });
    // 1,000 different declarations (a counter in every field) relay as at most the 2 x 4 x 2 x 2 x 2 forms there are.
    const keys = new Set<string>();
    for (let i = 0; i < 1000; i++)
      keys.add(
        capabilitiesKey(
          relayedCapabilities({
            roots: { listChanged: i % 2 === 0, [`k${i}`]: i },
            elicitation: { form: { applyDefaults: i % 3 === 0, [`f${i}`]: {} }, ...(i % 5 ? { url: { i } } : {}) },
            sampling: { [`s${i}`]: {}, ...(i % 7 ? { tools: { i } } : {}) },
          }),
        ),
      );
    expect(keys.size).toBeLessThanOrEqual(2 * 4 * 2 * 2 * 2);
    expect(keys.size).toBeGreaterThan(1);
  });

  it('keys do not depend on key order; the cache key changes with the declaration, and not without one', () => {
    const a = { roots: { listChanged: true }, elicitation: { url: {}, form: {} } };
    const b = { elicitation: { form: {}, url: {} }, roots: { listChanged: true } };
    expect(capabilitiesKey(a)).toBe(capabilitiesKey(b));
    expect(toolCacheKey(def, '', a)).toBe(toolCacheKey(def, '', b));
    expect(toolCacheKey(def, '', {})).toBe(toolCacheKey(def));
    expect(toolCacheKey(def, '', a)).not.toBe(toolCacheKey(def));
    expect(toolCacheKey(def, '', { roots: { listChanged: true } })).not.toBe(toolCacheKey(def, '', a));
  });

  it('serve’s declaration is the union of its clients’; it reports a change only when it grows', () => {
    expect(mergeCapabilities({ elicitation: { form: {} } }, { elicitation: { url: {} }, roots: {} })).toEqual({
      elicitation: { form: {}, url: {} },
      roots: {},
    });
    const d = new Declaration();
    expect(d.add({ roots: { listChanged: true } })).toBe(true);
    expect(d.add({ roots: { listChanged: true } })).toBe(false);
    expect(d.add({})).toBe(false);
    expect(d.add({ elicitation: {} })).toBe(true);
    expect(d.current()).toEqual({ roots: { listChanged: true }, elicitation: {} });
    // A 2026-07-28 client declares on every request: what is held already changes nothing, nor does a flag turned
    // off again (the union only grows, so a flip-flopping client cannot restart the servers each time); a new
    // sub-capability does.
    expect(d.add({ roots: {}, elicitation: {} })).toBe(false);
    expect(d.add({ roots: { listChanged: false } })).toBe(false);
    expect(d.add({ elicitation: { form: {} } })).toBe(true);
    expect(d.add({ elicitation: { form: { applyDefaults: true } } })).toBe(true);
    expect(d.add({ elicitation: { form: {} } })).toBe(false);
    expect(d.add({ elicitation: { form: {} }, sampling: { tools: {} } })).toBe(true);
    expect(d.add({ sampling: { tools: {} }, tools: { ignored: true } })).toBe(false);
    expect(d.current()).toEqual({
      roots: { listChanged: true },
      elicitation: { form: { applyDefaults: true } },
      sampling: { tools: {} },
    });
    expect(d.key()).toBe(capabilitiesKey(d.current()));
  });
});
