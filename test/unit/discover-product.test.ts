import { describe, expect, it } from 'vitest';
import { buildDiscoverIndex, rankTools } from '../../src/core/discover/index.js';
import { namedProducts, PRODUCT_SHARE } from '../../src/core/discover/checks/named-product.js';
import { catalogueEntry as tool } from '../helpers/catalogue-entry.js';

// Tool shapes as their servers publish them (the 111-server catalogue, ../shared/data/servers-111).
const TOOLS = [
  tool('line-bot', 'get_follower_ids', 'Get a list of user IDs of users who have added the LINE Official Account.'),
  tool('netlify', 'netlify-project-services-reader', 'Select and run one of the following Netlify read operations'),
  tool('hostinger', 'hosting_listWebsitesV1', 'List the websites and sites of your hosting account'),
  tool('git-cyanheads', 'git_blame', 'Show what revision and author last modified each line of a file'),
];

describe('a product the intent names (issue 29)', () => {
  it('reads a capitalised word past the first as the first word of server names', () => {
    const index = buildDiscoverIndex(TOOLS);
    expect([...namedProducts(index, 'who follows my LINE bot?')]).toEqual(['line-bot']);
    expect([...namedProducts(index, 'which Netlify sites do I have?')]).toEqual(['netlify']);
    // Lower case, or the intent's first word (every sentence starts with a capital), names nothing.
    expect(namedProducts(index, 'who wrote line 20 of app.ts in git?').size).toBe(0);
    expect(namedProducts(index, 'Netlify sites, which do I have?').size).toBe(0);
    expect(namedProducts(index, 'list the sites of my Hosting plan').size).toBe(0);
  });

  it("lowers the other servers' tools by a share of the best score, and --explain says so", () => {
    const index = buildDiscoverIndex(TOOLS);
    const r = rankTools(index, 'which Netlify sites do I have?', { engine: 'hybrid', k: 4 }).results;
    const other = r.find((t) => t.id === 'hostinger.hosting_listWebsitesV1')!;
    expect(other.reasons?.product).toBeLessThan(0);
    const best = Math.max(...r.map((t) => t.score - (t.reasons?.product ?? 0)));
    expect(other.reasons!.product).toBeCloseTo(-PRODUCT_SHARE * best, 1);
    expect(r.find((t) => t.id === 'netlify.netlify-project-services-reader')?.reasons?.product).toBeUndefined();
    expect(r[0]!.id).toBe('netlify.netlify-project-services-reader');
    // Naming no product moves nothing.
    const plain = rankTools(index, 'which sites do I have?', { engine: 'hybrid', k: 4 }).results;
    expect(plain.every((t) => t.reasons?.product === undefined)).toBe(true);
  });
});
