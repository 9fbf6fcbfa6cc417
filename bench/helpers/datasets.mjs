// Loads the benchmark datasets of ../shared/data as ToolRefs and labelled cases (see each folder's README).
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolRefsFromSnapshots } from '../../dist/core/discover/index.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DATA = process.env.MCP_SMART_BENCH_DATA ?? join(REPO, '..', 'shared', 'data');

/** LiveMCPBench: 527 tools on 70 servers; labels are tool names without a server. */
export function loadLiveMcpBench() {
  const servers = JSON.parse(readFileSync(join(DATA, 'livemcpbench', 'tools.json'), 'utf8'));
  const tools = [];
  for (const s of servers) {
    for (const [key, entry] of Object.entries(s.tools ?? {})) {
      for (const tool of entry.tools ?? []) {
        // The catalogue's server description stands in for MCP server instructions.
        tools.push({ id: `${key}.${tool.name}`, server: key, tool, serverInstructions: s.description });
      }
    }
  }
  const names = new Set(tools.map((t) => t.tool.name));
  const tasks = JSON.parse(readFileSync(join(DATA, 'livemcpbench', 'all_annotations.json'), 'utf8'));
  const cases = [];
  for (const t of tasks) {
    const labels = String(t['Annotator Metadata']?.Tools ?? '')
      .split('\n')
      .map((l) => l.replace(/^\s*\d+\.\s*/, '').trim())
      .filter((l) => l !== '');
    // A label names a tool without its server: any tool of that name counts (README, "Caveats").
    const expected = [...new Set(labels.filter((l) => names.has(l)))];
    if (expected.length > 0) cases.push({ intent: t.Question, expected });
  }
  return { tools, cases, tasks: tasks.length };
}

/** MetaTool: 199 plugin tools; single-tool queries split by a hash of the query; the two-tool golden set. */
export function loadMetaTool() {
  const des = JSON.parse(readFileSync(join(DATA, 'metatool', 'plugin_des.json'), 'utf8'));
  const tools = Object.entries(des)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, description]) => ({ id: `metatool.${name}`, server: 'metatool', tool: { name, description } }));
  const csv = readFileSync(join(DATA, 'metatool', 'all_clean_data.csv'), 'utf8');
  const tune = [];
  const test = [];
  for (const row of parseCsv(csv).slice(1)) {
    const [query, tool] = row;
    if (!query || !tool || !(tool in des)) continue;
    const c = { intent: query, expected: [tool] };
    // Fixed split: 30% of queries (by SHA-1 of the text) tune, the rest report.
    const h = createHash('sha1').update(query).digest()[0];
    (h < 77 ? tune : test).push(c);
  }
  const golden = JSON.parse(readFileSync(join(DATA, 'metatool', 'multi_tool_query_golden.json'), 'utf8')).map((q) => ({
    intent: q.query,
    expected: q.tool,
  }));
  return { tools, tune, test, golden };
}

function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') (row.push(cell), (cell = ''));
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      (row.push(cell), rows.push(row), (row = []), (cell = ''));
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) (row.push(cell), rows.push(row));
  return rows;
}

/**
 * BFCL v3 multi-turn (bench/data/bfcl-multi-turn, Apache-2.0): 152 tools on 9 servers (API classes), 200 tasks
 * of 2–6 turns. A development set with server structure, which MetaTool lacks: `turns` has one case per turn
 * with gold tools, `tasks` one case per task (its turns as one instruction, gold = every turn's tools).
 */
export function loadBfcl() {
  const dir = join(REPO, 'bench', 'data', 'bfcl-multi-turn');
  const servers = JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8'));
  const tools = servers.flatMap((s) =>
    s.tools.map((tool) => ({ id: `${s.server}.${tool.name}`, server: s.server, tool })),
  );
  const tasks = JSON.parse(readFileSync(join(dir, 'tasks.json'), 'utf8'));
  const turns = [];
  const whole = [];
  for (const t of tasks) {
    for (const turn of t.turns)
      if (turn.gold.length > 0) turns.push({ intent: turn.query, expected: [...new Set(turn.gold)] });
    const gold = [...new Set(t.turns.flatMap((turn) => turn.gold))];
    if (gold.length > 0) whole.push({ intent: t.turns.map((turn) => turn.query).join(' '), expected: gold });
  }
  return { tools, turns, tasks: whole };
}

/**
 * The real tools of 111 published MCP servers (../shared/data/servers-111, 2,781 tools, ids `<server>.<tool>`,
 * built as discover builds them from a snapshot) and the 150 intents written for development over them
 * (bench/data/servers-111-intents.jsonl; labels are ids; `class` names the kind of intent, see its .md).
 */
export function loadServers111(file = 'servers-111-intents.jsonl') {
  const snapshot = JSON.parse(readFileSync(join(DATA, 'servers-111', 'catalog.snapshot.json'), 'utf8'));
  const tools = toolRefsFromSnapshots(snapshot.servers);
  const cases = readFileSync(join(REPO, 'bench', 'data', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  return { tools, cases };
}
