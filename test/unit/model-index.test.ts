// `discover --model`'s cache (src/app/services/model-index.ts), with a small model made here: a hashed bag of words, so that
// every call and every batch it is asked for can be counted.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelIndex } from '../../src/app/services/model-index.js';
import { MODEL_BATCH, type Embed } from '../../src/core/discover/model.js';
import { rankTools } from '../../src/core/discover/index.js';
import type { WorkProgress } from '../../src/app/services/progress.js';
import type { ToolRef } from '../../src/core/types.js';
import { tempDir } from '../helpers/temp.js';

const DIMS = 256;
function bagOfWords(): { load: () => Promise<Embed>; loads: number; batches: number[] } {
  const made = { loads: 0, batches: [] as number[], load: async (): Promise<Embed> => embed };
  const embed: Embed = async (texts) => {
    made.batches.push(texts.length);
    return texts.map((t) => {
      const v = new Float32Array(DIMS);
      for (const w of t.toLowerCase().split(/\W+/).filter(Boolean))
        v[[...w].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % DIMS, 7)]! += 1;
      return v;
    });
  };
  made.load = async () => (made.loads++, embed);
  return made;
}

function tool(server: string, name: string, description: string): ToolRef {
  return { id: `${server}.${name}`, server, tool: { name, description, inputSchema: { type: 'object' } } };
}
const catalogue = Array.from({ length: 150 }, (_, i) =>
  tool(`s${i % 7}`, `tool_${i}`, `Does task number ${i} with widgets of kind ${i % 11}`),
);
catalogue.push(tool('weather', 'get_forecast', 'Forecast of rain, sun and temperature for a city'));

function steps(): WorkProgress & { seen: [number, number][]; cleared: number } {
  const p = { seen: [] as [number, number][], cleared: 0 } as WorkProgress & {
    seen: [number, number][];
    cleared: number;
  };
  p.step = (done, total) => void p.seen.push([done, total]);
  p.done = () => void p.cleared++;
  return p;
}

describe('--model: vectors computed once per model and catalogue', () => {
  it('embeds the tools in batches with progress, then reads the index back without loading the model', async () => {
    const dir = tempDir('mcp-smart-model-');
    const model = bagOfWords();
    const progress = steps();
    const opts = { model: 'use-lite', cwd: dir, cacheDir: dir, build: {}, load: model.load };
    const cold = await modelIndex(catalogue, { ...opts, progress });
    expect(cold.fromCache).toBe(false);
    const n = catalogue.length;
    expect(model.batches).toEqual([MODEL_BATCH, MODEL_BATCH, n - 2 * MODEL_BATCH]);
    expect(progress.seen).toEqual([
      [0, n],
      [MODEL_BATCH, n],
      [2 * MODEL_BATCH, n],
      [n, n],
    ]);
    expect(progress.cleared).toBe(1);
    const [q] = await cold.embedIntents(['rain and temperature for a city'], true);
    const top = (ix: typeof cold.index, v: Float32Array) =>
      rankTools(ix, 'rain and temperature for a city', { engine: 'semantic', k: 3, queryVector: v }).results;
    expect(top(cold.index, q!)[0]!.id).toBe('weather.get_forecast');

    const warmModel = bagOfWords();
    const warm = await modelIndex(catalogue, { ...opts, load: warmModel.load, progress: steps() });
    expect(warm.fromCache).toBe(true);
    const [again] = await warm.embedIntents(['rain and temperature for a city'], true);
    expect(Array.from(again!)).toEqual(Array.from(q!));
    expect(top(warm.index, again!)).toEqual(top(cold.index, q!));
    expect(warmModel.loads).toBe(0);
    expect(warm.loaded()).toBe(false);
    // An intent not asked before loads the model, once.
    await warm.embedIntents(['widgets of kind 3'], true);
    await warm.embedIntents(['widgets of kind 4'], false);
    expect(warmModel.loads).toBe(1);
    expect(warmModel.batches).toEqual([1, 1]);
    const intents = readdirSync(join(dir, 'discover-vectors')).find((f) => f.endsWith('-intents.json'))!;
    // Kept: the two intents asked with keep, not the one without.
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'discover-vectors', intents), 'utf8')))).toHaveLength(2);
  });

  it('a changed catalogue embeds only its new tools; another model, or no cache, embeds everything', async () => {
    const dir = tempDir('mcp-smart-model-');
    const opts = { model: 'use-lite', cwd: dir, cacheDir: dir, build: {}, progress: steps() };
    await modelIndex(catalogue, { ...opts, load: bagOfWords().load });
    const changed = [...catalogue.slice(1), tool('mail', 'send_mail', 'Send an email to someone')];
    const model = bagOfWords();
    const r = await modelIndex(changed, { ...opts, load: model.load });
    expect(r.fromCache).toBe(false);
    expect(model.batches).toEqual([1]);
    expect(r.index.tools.length).toBe(changed.length);
    // Another model: a folder of its own (keyed by its path and files), nothing shared.
    const other = bagOfWords();
    await modelIndex(changed, { ...opts, model: dir, load: other.load });
    expect(other.batches.reduce((a, b) => a + b, 0)).toBe(changed.length);
    const none = bagOfWords();
    const fresh = await modelIndex(changed, { ...opts, cacheDir: undefined, load: none.load });
    expect(fresh.fromCache).toBe(false);
    expect(none.batches.reduce((a, b) => a + b, 0)).toBe(changed.length);
  });
});
