import { describe, expect, it } from 'vitest';
import { buildDiscoverIndex, loadWordVectors, rankTools } from '../../src/core/discover/index.js';
import { analyze } from '../../src/core/discover/tokenize.js';
import type { JsonObject, ToolRef } from '../../src/types.js';

const ref = (server: string, name: string, description: string, annotations?: JsonObject): ToolRef => ({
  id: `${server}.${name}`,
  server,
  tool: { name, description, inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) },
});
const vectors = await loadWordVectors();

describe('discover lexicon: abbreviations read as their full form on both sides', () => {
  const tools: ToolRef[] = [
    ref('docs', 'search_documentation', 'Search the product documentation for a topic'),
    ref('git', 'list_repos', 'List the repos of a user'),
    ref('git', 'open_pull_request', 'Open a pull request from a branch'),
    ref('notes', 'search_notes', 'Search the notes of a topic'),
  ];
  const index = buildDiscoverIndex(tools, { vectors });
  const top = (intent: string): string | undefined =>
    rankTools(index, intent, { engine: 'bm25', k: 3 }).results[0]?.tool;

  it('analyses an abbreviation as the terms of its full form', () => {
    expect(analyze('docs')).toEqual(analyze('documentation'));
    expect(analyze('k8s env')).toEqual(analyze('kubernetes environment'));
    expect(analyze('PR')).toEqual(analyze('pull request'));
  });

  it('finds a tool that spells out what the intent abbreviates, and the other way round', () => {
    expect(top('read the docs')).toBe('search_documentation');
    expect(top('which repositories does this user have')).toBe('list_repos');
    expect(top('make a PR')).toBe('open_pull_request');
  });
});
