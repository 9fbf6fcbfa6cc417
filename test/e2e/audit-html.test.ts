// audit --html opened in a real headless Chromium (Debian's chromium, driven by playwright-core): the page
// renders, has one treemap cell per tool, logs no error, fetches nothing, and its screenshot is not blank.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, fixture } from '../helpers/paths.js';
import { spawnCli } from '../helpers/spawn-cli.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface AuditDoc {
  totals: { toolCount: number; tokens: { full: number } };
  servers: { tools: { tokens: { full: number } }[] }[];
  findings: unknown[];
}

let dir = '';
let browser: BrowserContext | undefined;
let doc: AuditDoc;
const html = (): string => join(dir, 'report.html');

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does)`);
  dir = await mkdtemp(join(tmpdir(), 'mcp-smart-html-'));
  const snapshots = ['many-tools.json', 'audit-findings.json'].flatMap((f) => ['--snapshot', fixture('snapshots', f)]);
  const r = await spawnCli([...snapshots, 'audit', '--html', 'report.html', '--json'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', HOME: dir, XDG_CACHE_HOME: join(dir, '.cache') },
    timeoutMs: 60_000,
  });
  if (r.code !== 0) throw new Error(`audit --html failed (${r.code}): ${r.stderr}`);
  doc = JSON.parse(r.stdout) as AuditDoc;
  browser = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 1000 },
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('audit-html: the report in a headless Chromium', () => {
  it('is one file that loads nothing else and logs no error', async () => {
    const text = await readFile(html(), 'utf8');
    expect(text).not.toMatch(/<script|<link|https?:\/\/(?!www\.w3\.org)/);
    const page = await browser!.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (q) => requests.push(q.url()));
    await page.goto(pathToFileURL(html()).href, { waitUntil: 'load' });
    expect(await page.locator('h1').textContent()).toBe('MCP tool context audit');
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(html()).href]);
    await page.close();
  });

  it('draws one treemap cell per tool, each visible, and lists every finding', async () => {
    const tools = doc.servers.flatMap((s) => s.tools).filter((t) => t.tokens.full > 0).length;
    expect(tools).toBe(56);
    expect(doc.totals.toolCount).toBe(56);
    const page = await browser!.newPage();
    await page.goto(pathToFileURL(html()).href, { waitUntil: 'load' });
    const cells = page.locator('svg.treemap rect.cell');
    expect(await cells.count()).toBe(tools);
    const boxes = await cells.evaluateAll((els) =>
      els.map((e) => e.getBoundingClientRect().width * e.getBoundingClientRect().height),
    );
    expect(boxes.filter((a) => a > 1)).toHaveLength(tools);
    // Cell areas follow the tokens: the biggest cell is the most expensive tool.
    const titles = await cells.evaluateAll((els) => els.map((e) => e.querySelector('title')?.textContent ?? ''));
    const biggest = titles[boxes.indexOf(Math.max(...boxes))];
    const costliest = Math.max(...doc.servers.flatMap((s) => s.tools).map((t) => t.tokens.full));
    expect(biggest).toMatch(new RegExp(`: ${costliest.toLocaleString('en-US')} tokens$`));
    expect(await page.locator('table.findings tbody tr').count()).toBe(doc.findings.length);
    expect(await page.locator('table.levels tbody tr').count()).toBe(doc.servers.length + 1);
    await page.close();
  });

  it('renders to a screenshot that is not blank', async () => {
    const page = await browser!.newPage();
    await page.goto(pathToFileURL(html()).href, { waitUntil: 'load' });
    const png = await page.screenshot();
    // Read the pixels back in a blank page: the share that is not white, and how many colours there are.
    const blank = await browser!.newPage();
    const stats = await blank.evaluate(
      async (src) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const g = canvas.getContext('2d')!;
        g.drawImage(img, 0, 0);
        const data = g.getImageData(0, 0, img.width, img.height).data;
        let ink = 0;
        const colours = new Set<number>();
        for (let i = 0; i < data.length; i += 4) {
          if (data[i]! < 240 || data[i + 1]! < 240 || data[i + 2]! < 240) ink++;
          colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
        }
        return { width: img.width, height: img.height, ink: ink / (data.length / 4), colours: colours.size };
      },
      `data:image/png;base64,${png.toString('base64')}`,
    );
    expect(stats.width).toBe(1280);
    expect(stats.height).toBe(1000);
    expect(stats.ink).toBeGreaterThan(0.3);
    expect(stats.colours).toBeGreaterThan(50);
    await blank.close();
    await page.close();
  });
});
