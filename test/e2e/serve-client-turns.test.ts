// serve as the real client CLIs meet it, judged by what each client sends its model: Claude Code, Gemini CLI and
// Codex (pinned devDependencies, offline, each with its own temporary HOME; approvals not asked, as on CI) are
// driven through whole turns by a stand-in for their model API (test/helpers/model-apis.ts) that calls the tools it
// is offered, in front of fixtures/servers/misbehaving/client-facing.mjs:
// - tool names the model APIs reject (60+ characters, a dot, a space, non-ASCII, a leading digit) and names that meet
//   across two servers: every name offered fits the client's model API, all distinct, each reaching its own tool;
// - a server that exits between calls and inside one: the model reads an error result naming it, the other server
//   keeps answering, serve's stderr names it, and the next call after serve's restart is answered;
// - a 1 MB text, an image, structuredContent with an outputSchema and an isError result: the model request carries
//   them as it does when the client is connected to the same server directly;
// - tools/list_changed during a call: the new tool reaches the model no later than with the server directly.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientTurn, modelToolName, type McpEntry, type TurnRun } from '../helpers/client-turn.js';
import type { SeenRequest, Step } from '../helpers/model-apis.js';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import type { ClientKind } from '../helpers/real-clients.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(requireBuild);

const TIMEOUT_MS = 300_000;
const FIXTURE = fixture('servers', 'misbehaving', 'client-facing.mjs');
const upstream = (...args: string[]): McpEntry => ({ command: process.execPath, args: [FIXTURE, ...args] });
const names = (list: string[]): string[] => ['--names', JSON.stringify(list)];

/** Function names each model API accepts (Gemini also takes dots and colons; the others only these). */
const ACCEPTED: Record<ClientKind, RegExp> = {
  claude: /^[a-zA-Z0-9_-]{1,64}$/,
  gemini: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
  codex: /^[a-zA-Z0-9_-]{1,64}$/,
};

/** serve in front of `servers` (tools mode), its stderr kept in `log`: the entry the client is given. */
function serveEntry(servers: Record<string, McpEntry>): { entry: McpEntry; log: string } {
  const dir = tempDir('mcp-smart-turns-');
  const config = join(dir, 'servers.json');
  const log = join(dir, 'serve.log');
  writeFileSync(config, JSON.stringify({ servers }));
  const line = 'exec "$0" "$1" --config "$2" serve --mode tools --no-learn 2>>"$3"';
  return { entry: { command: '/bin/sh', args: ['-c', line, process.execPath, BIN, config, log] }, log };
}

/** The served tools offered in a request, as `server`'s tools (the client's own prefix removed). */
function offered(kind: ClientKind, req: SeenRequest | undefined, server: string): string[] {
  const prefix = modelToolName(kind, server, '');
  return (req?.tools ?? []).filter((t) => t.startsWith(prefix)).map((t) => t.slice(prefix.length));
}

/** A script that calls `server`'s tools named by `pick` (given what is offered and how many calls came before). */
function calling(
  kind: ClientKind,
  server: string,
  delayMs: number,
  pick: (offered: string[], done: number) => string | undefined,
): (req: SeenRequest) => Step {
  let done = 0;
  return (req) => {
    const tool = pick(offered(kind, req, server), done);
    if (tool === undefined) return { text: 'done', delayMs };
    done++;
    return { call: modelToolName(kind, server, tool), args: { text: 'hi' }, delayMs };
  };
}

/** The text a tool result carried, however the client wrapped it (its own framing stays). */
const resultText = (run: TurnRun): string[] => (run.requests.at(-1)?.results ?? []).map((r) => JSON.stringify(r.value));

function expectRan(run: TurnRun): void {
  expect(run.run.code, run.run.stderr.slice(-2000)).toBe(0);
}

/** A result's value with what differs between two runs of a client (ids, timings, temp paths, the server key) made equal. */
function comparable(value: unknown, keys: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => comparable(v, keys));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        ['id', 'call_id', 'tool_use_id', 'cache_control'].includes(k) ? '<id>' : comparable(v, keys),
      ]),
    );
  if (typeof value !== 'string') return value;
  let s = value;
  for (const key of keys) s = s.split(key).join('<server>');
  return s
    .replace(/\/tmp\/\S+?\.(txt|png|json)\b/g, '<file>')
    .replace(/Wall time: [0-9.]+ seconds/g, 'Wall time: <t>')
    .replace(/_\d{10,}_\d+\b/g, '_<n>');
}

for (const kind of ['claude', 'gemini', 'codex'] as const) {
  describe(`${kind} (the real CLI, offline) through serve, as its model sees it`, () => {
    it(
      'names the model APIs reject: each offered name fits, all distinct, each reaches its own upstream tool',
      async () => {
        const awkward = [
          'fetch_the_complete_quarterly_financial_report_for_the_selected_region',
          'fetch_the_complete_quarterly_financial_report_for_the_selected_regions',
          'files.read',
          'files read',
          'café_menu',
          '2fa.verify',
          'get',
        ];
        // b's tools meet a's after serve's renaming (files.read → files_read) or its prefixing (get → a_get).
        const other = ['files_read', 'get', 'a_get'];
        const { entry } = serveEntry({
          a: upstream(...names(awkward), '--label', 'a'),
          b: upstream(...names(other), '--label', 'b'),
        });
        const run = await clientTurn(
          kind,
          { smart: entry },
          calling(kind, 'smart', 0, (tools, done) => tools[done]),
        );
        expectRan(run);
        const first = run.requests[0];
        const served = offered(kind, first, 'smart');
        expect(served).toHaveLength(awkward.length + other.length);
        expect(new Set(served).size).toBe(served.length);
        // Codex offers a server's tools in a namespace (mcp__<server>): the namespace and each name must both fit.
        for (const name of served)
          for (const part of modelToolName(kind, 'smart', name).split('/')) expect(part).toMatch(ACCEPTED[kind]);
        // Each call reached a distinct upstream tool: every (server, tool) pair answered exactly once.
        const ran = resultText(run).map((t) => /ran (.+?) on ([ab])\b/.exec(t)?.slice(1, 3).reverse().join('.'));
        expect(ran.sort()).toEqual([...awkward.map((n) => `a.${n}`), ...other.map((n) => `b.${n}`)].sort());
      },
      TIMEOUT_MS,
    );

    it(
      'a server that exits between calls and inside one: an error result naming it, the other keeps answering, ' +
        "serve's stderr names it, and after the restart its next call is answered",
      async () => {
        const { entry, log } = serveEntry({
          a: upstream(
            ...names(['first', 'again', 'dies']),
            '--exit-after',
            'first',
            '--exit-in',
            'dies',
            '--label',
            'a',
          ),
          b: upstream(...names(['other']), '--label', 'b'),
        });
        // a exits right after answering `first`; b answers meanwhile (the model taking a moment, so a has gone by
        // then); a is called again (serve starts it anew), then `dies` ends it inside the call; b still answers.
        const order = ['first', 'other', 'again', 'dies', 'other'];
        const run = await clientTurn(kind, { smart: entry }, (req, turn) => {
          const tool = order[turn];
          if (!tool) return { text: 'done' };
          expect(offered(kind, req, 'smart')).toContain(tool);
          return { call: modelToolName(kind, 'smart', tool), delayMs: turn === 1 ? 500 : 0 };
        });
        expectRan(run);
        const results = resultText(run);
        expect(results).toHaveLength(order.length);
        const [first, other, again, dies, stillOther] = results;
        expect(first).toContain('ran first on a');
        expect(other).toContain('ran other on b');
        expect(again).toContain('ran again on a');
        // Gemini CLI quotes the result inside its own error text (its quotes escaped once more).
        expect(dies).toMatch(/mcp-smart: server \\*"a\\*" is unavailable: exited with code 70/);
        expect(dies).toContain('fatal: client-facing fixture exits inside dies');
        expect(stillOther).toContain('ran other on b');
        const said = readFileSync(log, 'utf8');
        expect(said).toMatch(/server "a" stopped: exited with code 70/);
      },
      TIMEOUT_MS,
    );

    it(
      'a 1 MB text, an image, structuredContent with an outputSchema, an isError result: the model request carries ' +
        'each as with the server connected directly',
      async () => {
        const tools = ['big_text', 'image', 'structured', 'fails'];
        const script = (server: string): ((req: SeenRequest) => Step) =>
          calling(kind, server, 0, (_offered, done) => tools[done]);
        const direct = await clientTurn(kind, { r: upstream('--results') }, script('r'));
        const { entry } = serveEntry({ r: upstream('--results') });
        const viaServe = await clientTurn(kind, { smart: entry }, script('smart'));
        expectRan(direct);
        expectRan(viaServe);
        const keys = ['r', 'smart'].flatMap((s) => [modelToolName(kind, s, ''), `mcp-${s}-`]);
        const sent = (run: TurnRun): unknown =>
          comparable(
            run.requests.at(-1)?.results.map((r) => r.value),
            keys,
          );
        expect(direct.requests.at(-1)?.results).toHaveLength(tools.length);
        expect(sent(viaServe)).toEqual(sent(direct));
        // The premise: the image reached the model as an image (base64 PNG), not as text about one.
        const image = resultText(viaServe)[1] ?? '';
        expect(image).toContain('iVBORw0KGgo');
      },
      TIMEOUT_MS,
    );

    it(
      'tools/list_changed during a call: the new tool reaches the model no later than with the server directly',
      async () => {
        // `first` adds grown_tool and sends list_changed before it answers; the model calls `first` up to three
        // times, and grown_tool once it is offered. Each answer takes the model 300 ms, as a real one takes longer.
        const script = (server: string): ((req: SeenRequest) => Step) => {
          let grown = false;
          return calling(kind, server, 300, (tools, done) => {
            if (tools.includes('grown_tool') && !grown) {
              grown = true;
              return 'grown_tool';
            }
            return !grown && done < 3 ? 'first' : undefined;
          });
        };
        const fixtureArgs = [...names(['first']), '--grow-after-call'];
        const direct = await clientTurn(kind, { g: upstream(...fixtureArgs) }, script('g'));
        const { entry } = serveEntry({ g: upstream(...fixtureArgs) });
        const viaServe = await clientTurn(kind, { smart: entry }, script('smart'));
        expectRan(direct);
        expectRan(viaServe);
        const firstOffer = (run: TurnRun, server: string): number =>
          run.requests.findIndex((r) => offered(kind, r, server).includes('grown_tool'));
        const [d, s] = [firstOffer(direct, 'g'), firstOffer(viaServe, 'smart')];
        console.info(
          `${kind}: grown_tool first offered in model request ${d} directly, ${s} through serve (-1: never; ` +
            `request 0 is before the call that adds it)`,
        );
        if (d >= 0) {
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(d);
          expect(resultText(viaServe).at(-1)).toContain('ran grown_tool');
        }
      },
      TIMEOUT_MS,
    );
  });
}
