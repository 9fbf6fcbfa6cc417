// Issue 39.4: the README, CONTRIBUTING.md and the docs/ pages link to each other by file and heading; every relative
// link and image must resolve — the file exists and, for an anchor, a heading of that file makes it — so a moved
// section or a renamed heading fails here instead of in a reader's browser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, brokenLink, docPages, relativeLinks, slug } from '../helpers/doc-links.js';
import { REPO } from '../helpers/paths.js';

const pages = docPages();
const links = pages.flatMap((p) => relativeLinks(p, readFileSync(join(REPO, p), 'utf8')));

describe('docs links', () => {
  it('the pages are the README, CONTRIBUTING.md and the topic pages of docs/', () => {
    for (const p of ['docs/commands.md', 'docs/serve-and-adopt.md', 'docs/discover.md', 'docs/ci.md', 'docs/team.md'])
      expect(pages).toContain(p);
    for (const p of ['docs/oauth.md', 'docs/protocol-eras.md', 'docs/config.md', 'docs/files-and-caches.md'])
      expect(pages).toContain(p);
    expect(pages).toContain('docs/security.md');
  });

  it("anchors are GitHub's: punctuation dropped, spaces to hyphens, repeats numbered", () => {
    expect(slug("How the bridge attributes a 2025 server's questions")).toBe(
      'how-the-bridge-attributes-a-2025-servers-questions',
    );
    expect(slug('`mcp-smart.config.json`')).toBe('mcp-smartconfigjson');
    expect(slug('Ad-hoc servers and `--demo`')).toBe('ad-hoc-servers-and---demo');
    expect([...anchors('# A\n```\n# not a heading\n```\n## A\n### B')]).toEqual(['a', 'a-1', 'b']);
  });

  it('finds a broken file, a broken anchor and a link out of the repository', () => {
    const read = (p: string): string | undefined => ({ 'docs/x.md': '# Title\n## Part' })[p];
    const at = (target: string): string | undefined => brokenLink({ page: 'README.md', line: 1, target }, read);
    expect(at('docs/x.md#part')).toBeUndefined();
    expect(at('docs/x.md')).toBeUndefined();
    expect(at('docs/x.md#gone')).toBe('docs/x.md has no heading #gone');
    expect(at('docs/y.md')).toBe('docs/y.md does not exist');
    expect(at('../outside.md')).toMatch(/leaves the repository/);
    // Links in code are not links.
    expect(relativeLinks('README.md', '`[a](nowhere.md)`\n```\n[b](nowhere.md)\n```\n[c](docs/x.md)')).toEqual([
      { page: 'README.md', line: 5, target: 'docs/x.md' },
    ]);
  });

  it('there are links to check: the README links every topic page', () => {
    const fromReadme = new Set(links.filter((l) => l.page === 'README.md').map((l) => l.target.split('#')[0]));
    for (const p of pages.filter((p) => p.startsWith('docs/'))) expect(fromReadme, p).toContain(p);
  });

  it('every relative link and anchor in README.md, CONTRIBUTING.md and docs/*.md resolves', () => {
    const broken = links.flatMap((l) => {
      const why = brokenLink(l);
      return why ? [`${l.page}:${l.line}: ${l.target}: ${why}`] : [];
    });
    expect(broken).toEqual([]);
    expect(links.length).toBeGreaterThan(50);
  });

  it('the anchors src/ names still resolve: #commands and #exit-codes in the README, docs/oauth.md', () => {
    const readme = anchors(readFileSync(join(REPO, 'README.md'), 'utf8'));
    expect(readme.has('commands')).toBe(true);
    expect(readme.has('exit-codes')).toBe(true);
    expect(anchors(readFileSync(join(REPO, 'docs', 'oauth.md'), 'utf8')).has('servers-behind-oauth')).toBe(true);
    expect(readFileSync(join(REPO, 'src', 'process', 'error-catalog.ts'), 'utf8')).toContain(
      'docs/oauth.md: "Servers behind OAuth"',
    );
  });
});
