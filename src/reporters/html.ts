/** `audit --html`: one self-contained page (inline CSS, pre-rendered SVG, no script, nothing fetched). */
import { AUDIT_LEVELS, SEVERITY_RANK, type AuditResult, type Finding } from '../core/audit/index.js';
import { auditTree, layoutTreemap, type TreemapCell } from '../core/audit/treemap.js';
import { countingNote } from './audit.js';
import { renderClientsHtml } from './audit-clients.js';
import { countOf, formatShare, formatTokens } from './format.js';

export interface HtmlOptions {
  /** The config file (client) each server came from; the treemap's top level. */
  sourceOf: (server: string) => string;
  /** Shown in the footer; the command passes the time of the run. */
  generatedAt: string;
}

const WIDTH = 1200;
const HEIGHT = 660;

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const num = (n: number): string => String(Math.round(n * 10) / 10);

/** Cuts a label to the characters that fit `width` pixels at ~6.6 px each. */
function fit(text: string, width: number): string | undefined {
  const max = Math.floor((width - 8) / 6.6);
  if (max < 6) return undefined;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const CSS = `
:root{--fg:#1d2330;--muted:#5b6475;--line:#d9dde5;--bg:#fff;--soft:#f5f6f8}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1240px;margin:0 auto;padding:24px 20px 40px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 8px}
.lead{font-size:16px;margin:0 0 4px}.muted{color:var(--muted)}
.kpis{display:flex;gap:12px;flex-wrap:wrap;margin:16px 0}
.kpi{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:8px 14px;min-width:130px}
.kpi b{display:block;font-size:20px}.kpi span{color:var(--muted);font-size:12px}
svg.treemap{width:100%;height:auto;border:1px solid var(--line);border-radius:6px;background:#fafbfc}
svg text{font:11px system-ui,sans-serif;pointer-events:none}
svg .group{fill:#eef0f4;stroke:#8d95a5;stroke-width:1}
svg .server{stroke:#fff;stroke-width:1}
svg .cell{stroke:#fff;stroke-width:.6}
svg .cell:hover{stroke:#111;stroke-width:1.5}
svg .label{fill:#fff}svg .glabel{fill:#1d2330;font-weight:600}
table{border-collapse:collapse;width:100%;margin-top:6px}
th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.bar{display:flex;align-items:center;gap:6px}.bar i{display:block;height:10px;border-radius:2px;background:#4a7bd0;min-width:1px}
.bar.lossless i{background:#5b9f6a}.bar.compact i{background:#d19a3a}.bar.minimal i{background:#b0577d}
.sev{font-weight:700;font-size:12px;padding:1px 6px;border-radius:4px;color:#fff}
.sev.error{background:#c0392b}.sev.warning{background:#c77c0e}.sev.info{background:#2f7fb5}
table.finding-codes{width:auto;min-width:480px}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
footer{margin-top:32px;color:var(--muted);font-size:12px}
`;

function hueOf(index: number): number {
  return Math.round((index * 137.508 + 210) % 360);
}

function treemapSvg(cells: TreemapCell[], servers: string[]): string {
  const hue = new Map(servers.map((s, i) => [s, hueOf(i)]));
  const out: string[] = [];
  for (const c of cells) {
    const [source = '', server = '', tool = ''] = c.path;
    const box = `x="${num(c.x)}" y="${num(c.y)}" width="${num(c.w)}" height="${num(c.h)}"`;
    const h = hue.get(server) ?? 0;
    if (c.depth === 0) {
      out.push(`<rect class="group" ${box}><title>${esc(source)}: ${formatTokens(c.value)} tokens</title></rect>`);
      const label = c.header > 0 ? fit(`${source} · ${formatTokens(c.value)}`, c.w) : undefined;
      if (label) out.push(`<text class="glabel" x="${num(c.x + 4)}" y="${num(c.y + 12)}">${esc(label)}</text>`);
    } else if (!c.leaf) {
      out.push(
        `<rect class="server" ${box} fill="hsl(${h} 45% 86%)"><title>${esc(server)}: ${formatTokens(c.value)} tokens</title></rect>`,
      );
      const label = c.header > 0 ? fit(`${server} · ${formatTokens(c.value)}`, c.w) : undefined;
      if (label) out.push(`<text class="glabel" x="${num(c.x + 4)}" y="${num(c.y + 12)}">${esc(label)}</text>`);
    } else {
      const id = `${server}.${tool}`;
      out.push(
        `<rect class="cell" data-id="${esc(id)}" ${box} fill="hsl(${h} 52% 46%)"><title>${esc(id)}: ${formatTokens(c.value)} tokens</title></rect>`,
      );
      const label = c.h >= 16 ? fit(tool, c.w) : undefined;
      if (label) out.push(`<text class="label" x="${num(c.x + 4)}" y="${num(c.y + 13)}">${esc(label)}</text>`);
      if (label && c.h >= 30 && c.w >= 44)
        out.push(`<text class="label" x="${num(c.x + 4)}" y="${num(c.y + 26)}">${formatTokens(c.value)}</text>`);
    }
  }
  return `<svg class="treemap" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Treemap of tool tokens by source, server and tool">\n${out.join('\n')}\n</svg>`;
}

function levelsTable(r: AuditResult): string {
  const max = Math.max(1, ...r.servers.map((s) => s.tokens.full));
  const bar = (level: string, n: number): string =>
    `<td><div class="bar ${level}"><i style="width:${num((n / max) * 140)}px"></i><span>${formatTokens(n)}</span></div></td>`;
  const rows = r.servers.map(
    (s) =>
      `<tr><td>${esc(s.name)}${s.status === 'ok' ? '' : ' <span class="sev error">FAILED</span>'}</td><td class="n">${s.toolCount}</td>${AUDIT_LEVELS.map((l) => bar(l, s.tokens[l])).join('')}</tr>`,
  );
  const t = r.totals.tokens;
  const pct = (n: number): string =>
    t.full === 0 ? '' : ` (${n <= t.full ? '−' : '+'}${formatShare(Math.abs(t.full - n) / t.full)})`;
  rows.push(
    `<tr><th>total</th><th class="n">${r.totals.toolCount}</th>${AUDIT_LEVELS.map((l) => `<th>${formatTokens(t[l])}${l === 'full' ? '' : pct(t[l])}</th>`).join('')}</tr>`,
  );
  return `<table class="levels"><thead><tr><th>server</th><th class="n">tools</th>${AUDIT_LEVELS.map((l) => `<th>${l}</th>`).join('')}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>
<p class="muted">All tools behind the four meta-tools (<code>serve --mode meta</code>): ${formatTokens(t.meta)} tokens${pct(t.meta)}.</p>`;
}

function findingsSection(findings: readonly Finding[]): string {
  if (findings.length === 0) return '<p>No findings.</p>';
  const codes = new Map<string, { severity: string; n: number }>();
  for (const f of findings) codes.set(f.code, { severity: f.severity, n: (codes.get(f.code)?.n ?? 0) + 1 });
  const summary = [...codes]
    .sort(
      (a, b) =>
        SEVERITY_RANK[a[1].severity as Finding['severity']] - SEVERITY_RANK[b[1].severity as Finding['severity']] ||
        b[1].n - a[1].n,
    )
    .map(
      ([code, c]) =>
        `<tr><td><span class="sev ${c.severity}">${c.severity}</span></td><td><code>${code}</code></td><td class="n">${c.n}</td></tr>`,
    );
  const rows = findings.map(
    (f) =>
      `<tr><td><span class="sev ${f.severity}">${f.severity}</span></td><td><code>${f.code}</code></td><td>${esc(f.tool ? `${f.server}.${f.tool}` : f.server)}</td><td>${esc(f.message)}</td></tr>`,
  );
  return `<table class="finding-codes"><thead><tr><th>severity</th><th>code</th><th class="n">count</th></tr></thead><tbody>${summary.join('')}</tbody></table>
<h3>Every finding (${findings.length})</h3>
<table class="findings"><thead><tr><th>severity</th><th>code</th><th>where</th><th>message</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

/** The whole page for an audit result. */
export function renderAuditHtml(r: AuditResult, opts: HtmlOptions): string {
  const tree = auditTree(r, opts.sourceOf);
  const cells = layoutTreemap(tree, { x: 0, y: 0, w: WIDTH, h: HEIGHT }, { header: 16, padding: 3 });
  const servers = r.servers.map((s) => s.name);
  const failed = r.servers.filter((s) => s.status === 'error');
  const t = r.totals;
  const kpi = (value: string, label: string): string => `<div class="kpi"><b>${value}</b><span>${label}</span></div>`;
  const failedList =
    failed.length === 0
      ? ''
      : `<p><span class="sev error">FAILED</span> not counted: ${failed.map((s) => `${esc(s.name)} (${esc(s.error ?? 'unknown error')})`).join('; ')}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-smart audit: ${formatTokens(t.tokens.full)} tokens</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>MCP tool context audit</h1>
<p class="lead"><b>${formatTokens(t.tokens.full)} tokens</b> for ${countOf(t.toolCount, 'tool')} on ${countOf(r.servers.length, 'server')}: ${formatShare(t.tokens.full / r.window)} of a ${formatTokens(r.window)}-token window, on every request.</p>
<div class="kpis">${kpi(formatTokens(t.tokens.full), 'tokens as sent')}${kpi(formatTokens(t.tokens.compact), 'compact')}${kpi(formatTokens(t.tokens.minimal), 'minimal')}${kpi(formatTokens(t.tokens.meta), 'meta-tools only')}${kpi(String(r.findings.length), 'findings')}</div>
${failedList}
<h2>Where the tokens go</h2>
<p class="muted">Each box is a tool, sized by its tokens, inside its server, inside the config file it came from. Hover for figures.</p>
${treemapSvg(cells, servers)}
${renderClientsHtml(r)}<h2>Condense levels per server</h2>
${levelsTable(r)}
<h2>Findings</h2>
${findingsSection(r.findings)}
<footer>${esc(countingNote(r))}<br>Written by mcp-smart audit --html, ${esc(opts.generatedAt)}.</footer>
</main>
</body>
</html>
`;
}
