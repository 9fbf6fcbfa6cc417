import { describe, expect, it } from 'vitest';
import { buildDiscoverIndex, rankTools } from '../../src/core/discover/index.js';
import { opensWithRead } from '../../src/core/discover/checks/described-object.js';
import { nounForm, notActions } from '../../src/core/discover/forms.js';
import { PRODUCT_SHARE } from '../../src/core/discover/checks/named-product.js';
import { namesFile } from '../../src/core/discover/checks/file-path.js';
import { stem } from '../../src/core/discover/tokenize.js';
import { catalogueEntry as ref } from '../helpers/catalogue-entry.js';

describe('the words of a tool name that cannot be its verb (issue 29)', () => {
  it('a noun form the stemmer joins to a verb is no verb; the verb as written is', () => {
    // "news" stems to new (a create verb), "collection" to collect, "testing" to test.
    expect(nounForm('news')).toBe(true);
    expect(nounForm('collection')).toBe(true);
    expect(nounForm('testing')).toBe(true);
    expect(nounForm('new')).toBe(false);
    expect(nounForm('list')).toBe(false);
    expect(nounForm('create')).toBe(false);
    expect(nounForm('send')).toBe(false);
    // A word whose stem reads as no verb at all is not judged.
    expect(nounForm('schema')).toBe(false);
  });

  it("a server's name leading the tool's is a namespace; the same word later in the name is not", () => {
    expect([...notActions('brave_news_search', 'brave-search')].sort()).toEqual(['brave', stem('news')].sort());
    expect([...notActions('collection-schema', 'mongodb')]).toEqual([stem('collection')]);
    expect(notActions('list_files_search', 'search').size).toBe(1); // "files" only: "search" does not lead
    // A stem the name also writes as a verb stays a verb.
    expect(notActions('new_news', 'x').size).toBe(0);
  });

  it('a read question no longer penalises a search tool for its server and object words', () => {
    const index = buildDiscoverIndex([
      ref('brave-search', 'brave_news_search', 'Searches for news articles about a topic'),
      ref('web', 'web_search', 'Searches the web for a topic'),
    ]);
    const r = rankTools(index, 'what news is there about the Mars mission today?', { engine: 'hybrid', k: 2 }).results;
    const news = r.find((t) => t.id === 'brave-search.brave_news_search')!;
    expect(news.reasons?.question).toBeUndefined();
    expect(news.reasons?.action).toBeUndefined();
    expect(r[0]!.id).toBe('brave-search.brave_news_search');
  });
});

describe('the product an intent names with a capital (issue 29)', () => {
  it('lowers the candidates of servers whose name does not hold the named product, by a share of the best score', () => {
    const index = buildDiscoverIndex([
      ref('codacy', 'codacy_list_pull_requests', 'List the pull requests of a repository on GitHub'),
      ref('github-archived', 'list_pull_requests', 'List the pull requests of a repository'),
      ref('github-archived', 'create_issue', 'Create an issue'),
    ]);
    const rank = (intent: string) => rankTools(index, intent, { engine: 'hybrid', k: 3 }).results;
    const named = rank('list the pull requests of the GitHub repository');
    const codacy = named.find((t) => t.id === 'codacy.codacy_list_pull_requests')!;
    const top = named[0]!.score - (named[0]!.reasons?.product ?? 0);
    expect(codacy.reasons?.product).toBeCloseTo(-PRODUCT_SHARE * top, 3);
    expect(named.find((t) => t.id === 'github-archived.list_pull_requests')?.reasons?.product).toBeUndefined();
    // Written in lower case the word may name a thing as well as the product: no check.
    expect(rank('list the pull requests of the github repository').every((t) => !t.reasons?.product)).toBe(true);
    // A capitalised word no candidate's server holds changes nothing.
    expect(rank('list the pull requests of the Acme repository').every((t) => !t.reasons?.product)).toBe(true);
  });
});

describe('a command that opens with a read verb', () => {
  it('is told from one whose read verb comes later', () => {
    expect(opensWithRead('list my Cloudflare KV namespaces')).toBe(true);
    expect(opensWithRead('get the reviews of GitHub PR 17')).toBe(true);
    expect(opensWithRead('run our Postman collection and show which tests failed')).toBe(false);
    expect(opensWithRead('delete the old flag')).toBe(false);
  });
});

describe('a file the intent names by its file name', () => {
  it('is a name with an extension, not a host name, a URL or a path', () => {
    expect(namesFile('what does the config.yaml file say?')).toBe(true);
    expect(namesFile('read Sheet1 of budget.xlsx')).toBe(true);
    expect(namesFile('show me the DNS records for mysite.com')).toBe(false);
    expect(namesFile('find the contact for jane@acme.com')).toBe(false);
    expect(namesFile('fetch https://example.com/pricing.html')).toBe(false);
    expect(namesFile('list my files')).toBe(false);
  });

  it('raises the tools taking a path over those taking a cloud id, in a one-step request', () => {
    const withParams = (server: string, name: string, description: string, params: string[]) => ({
      ...ref(server, name, description),
      tool: {
        name,
        description,
        inputSchema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])) },
      },
    });
    const index = buildDiscoverIndex([
      withParams('excel', 'excel_read_sheet', 'Read values from an Excel sheet', ['fileAbsolutePath', 'sheetName']),
      withParams('gsheets', 'gsheets_read', 'Read values from a Google Sheet', ['spreadsheetId', 'ranges']),
    ]);
    const r = rankTools(index, 'read Sheet1 of budget.xlsx', { engine: 'hybrid', k: 2 }).results;
    expect(r.find((t) => t.id === 'excel.excel_read_sheet')?.reasons?.file).toBeGreaterThan(0);
    expect(r.find((t) => t.id === 'gsheets.gsheets_read')?.reasons?.file).toBeUndefined();
    expect(
      rankTools(index, 'read Sheet1 of the budget sheet', { engine: 'hybrid', k: 2 }).results.every(
        (t) => t.reasons?.file === undefined,
      ),
    ).toBe(true);
  });
});
