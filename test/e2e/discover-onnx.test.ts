// `discover --model <dir>` as a user runs it: the built CLI, a sentence-transformers style ONNX folder (the tiny
// model scripts/make-tiny-onnx.mjs writes, made of the shipped word vectors), onnxruntime-web resolved beside
// mcp-smart. The model's part shows in the ranking, its vectors are cached, and a bad folder is exit 2 naming the file.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, REPO, requireBuild } from '../helpers/paths.js';
import { sandboxEnv, spawnCli, type SpawnRun } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const TINY = join('fixtures', 'models', 'tiny-onnx');
const SNAP = ['--snapshot', fixture('snapshots', 'discover-ok.json')];
/** No word in common with read_file's text ("Read the complete contents of a file…"): only meaning finds it. */
const INTENT = 'show me what is in a document';

beforeAll(() => requireBuild());

const run = (args: string[], home: string, extra: Record<string, string> = {}): Promise<SpawnRun> =>
  spawnCli(args, {
    cwd: REPO,
    env: sandboxEnv(home, { MCP_SMART_CACHE_DIR: join(home, 'cache'), ...extra }),
    timeoutMs: 60_000,
  });

type Result = { id: string; reasons: Record<string, number> };

/** Preloaded into the CLI: any fetch, socket or DNS look-up says NETWORK on stderr and throws. */
const NO_NETWORK = `
import net from 'node:net';
import dns from 'node:dns';
const refuse = (what) => () => { process.stderr.write('NETWORK ' + what + '\\n'); throw new Error('network refused: ' + what); };
globalThis.fetch = refuse('fetch');
net.Socket.prototype.connect = refuse('connect');
dns.lookup = refuse('dns');
`;
const results = (r: SpawnRun): Result[] => (JSON.parse(r.stdout) as { results: Result[] }).results;

describe('discover --model <dir> (ONNX)', () => {
  it('ranks with the folder’s model: the intended tool first, by the model’s semantic score, in another order than without it', async () => {
    const home = tempDir('mcp-smart-onnx-');
    const semantic = ['--json', 'discover', INTENT, '--engine', 'semantic'];
    const plain = results(await run([...SNAP, ...semantic], home));
    const withModel = await run([...SNAP, ...semantic, '--model', TINY], home);
    expect(withModel.code).toBe(0);
    // The shipped word vectors put searchFiles first; the sentence model reads "document" as a file's contents.
    expect(plain[0]!.id).toBe('files.searchFiles');
    expect(results(withModel)[0]!.id).toBe('files.read_file');

    // The default engine (hybrid) with --explain: read_file first, and its semantic part is now the best (1).
    const hybrid = ['--json', 'discover', INTENT, '--explain'];
    const before = results(await run([...SNAP, ...hybrid], home));
    const after = results(await run([...SNAP, ...hybrid, '--model', TINY], home));
    expect(after[0]).toMatchObject({ id: 'files.read_file', reasons: { semantic: 1 } });
    expect(before[0]!.reasons.semantic).toBeLessThan(1);
    expect(after.map((r) => r.id)).not.toEqual(before.map((r) => r.id));
  });

  it('embeds the catalogue once: the vectors are cached and a second run neither embeds nor loads the model', async () => {
    const home = tempDir('mcp-smart-onnx-');
    const argv = [...SNAP, '--json', 'discover', INTENT, '--model', TINY, '--debug'];
    // Nothing is fetched: the first run (the runtime loaded, its WebAssembly read) with every way out refused.
    const guard = join(home, 'no-network.mjs');
    writeFileSync(guard, NO_NETWORK);
    const first = await run(argv, home, { NODE_OPTIONS: `--import=${guard}` });
    expect(first.stderr).not.toContain('NETWORK');
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`${TINY}: index built, model loaded`);
    const vectors = join(home, 'cache', 'discover-vectors');
    const files = readdirSync(vectors).sort();
    // The index of this model and catalogue, the vectors by text, the intent's vector.
    expect(files).toHaveLength(3);
    const mtimes = files.map((f) => statSync(join(vectors, f)).mtimeMs);

    const progress = await run([...SNAP, 'discover', INTENT, '--model', TINY], home, { MCP_SMART_PROGRESS: '1' });
    expect(progress.stderr).not.toContain('Embedding');
    const second = await run(argv, home);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toContain(`${TINY}: index read from the cache, model not loaded (every vector cached)`);
    expect(readdirSync(vectors).sort()).toEqual(files);
    expect(files.map((f) => statSync(join(vectors, f)).mtimeMs)).toEqual(mtimes);

    // A fresh cache: the tools are embedded with a progress line (forced on: stderr is no terminal here).
    const fresh = tempDir('mcp-smart-onnx-');
    const drawn = await run([...SNAP, 'discover', INTENT, '--model', TINY], fresh, { MCP_SMART_PROGRESS: '1' });
    expect(drawn.stderr).toContain(`Embedding the tools with ${TINY} 0/11 (0%) — loading the model`);
    expect(drawn.stderr).toContain(`Embedding the tools with ${TINY} 11/11 (100%)`);
    expect(drawn.stdout).toContain('files.read_file');
  });

  describe('a folder it cannot use is exit 2, naming the file, with no stack', () => {
    const cases: [string, (dir: string) => void, string, RegExp][] = [
      [
        'no model file',
        (d) => copy(d, 'tokenizer.json'),
        'MODEL_UNAVAILABLE',
        /has no model\.onnx or onnx\/model\.onnx/,
      ],
      [
        'no tokenizer.json',
        (d) => copy(d, 'model.onnx'),
        'MODEL_UNAVAILABLE',
        /Cannot read \S+\/tokenizer\.json: ENOENT/,
      ],
      [
        'a tokenizer of another kind',
        (d) => {
          copy(d, 'model.onnx');
          writeFileSync(join(d, 'tokenizer.json'), JSON.stringify({ model: { type: 'BPE', vocab: {} } }));
        },
        'MODEL_UNAVAILABLE',
        /\/tokenizer\.json: model\.type: is "BPE"; only WordPiece \(BERT\) is supported/,
      ],
      [
        'tokenizer.json that is not JSON',
        (d) => {
          copy(d, 'model.onnx');
          writeFileSync(join(d, 'tokenizer.json'), '{"model": ');
        },
        'MODEL_UNAVAILABLE',
        /\/tokenizer\.json is not valid JSON: /,
      ],
      [
        'a model file the runtime rejects',
        (d) => {
          copy(d, 'tokenizer.json');
          writeFileSync(join(d, 'model.onnx'), 'not a protobuf');
        },
        'MODEL_UNAVAILABLE',
        /Cannot load the model \S+\/model\.onnx: .*protobuf parsing failed/,
      ],
      [
        'a graph that is not a sentence model (another input)',
        (d) => {
          copy(d, 'tokenizer.json');
          // The same bytes with token_type_ids renamed in place (a name of the same length keeps the protobuf whole).
          const graph = readFileSync(join(REPO, TINY, 'model.onnx'));
          writeFileSync(
            join(d, 'model.onnx'),
            graph.toString('latin1').replaceAll('token_type_ids', 'pixel_value_id'),
            'latin1',
          );
        },
        'MODEL_UNAVAILABLE',
        /\/model\.onnx is not a sentence model: its inputs are input_ids, attention_mask, pixel_value_id; a sentence model takes input_ids, attention_mask, token_type_ids/,
      ],
      [
        'a tokenizer from another model (ids past the model’s table)',
        (d) => {
          copy(d, 'model.onnx');
          const doc = JSON.parse(readFileSync(join(REPO, TINY, 'tokenizer.json'), 'utf8')) as {
            model: { vocab: Record<string, number> };
          };
          doc.model.vocab.file = 30521;
          writeFileSync(join(d, 'tokenizer.json'), JSON.stringify(doc));
        },
        'MODEL_UNAVAILABLE',
        /The model \S+\/model\.onnx failed on the texts: .*Gather/,
      ],
    ];
    for (const [name, make, code, message] of cases) {
      it(name, async () => {
        const home = tempDir('mcp-smart-onnx-');
        const dir = join(home, 'model');
        mkdirSync(dir);
        make(dir);
        const r = await run([...SNAP, '--json', 'discover', INTENT, '--model', dir], home);
        expect(r.code).toBe(2);
        const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
        expect(error.code).toBe(code);
        expect(error.message).toMatch(message);
        expect(error.message).toContain(dir);
        expect(r.stderr).not.toMatch(/\n\s+at /);
        // The runtime's own log stays quiet: the error is said once.
        expect(r.stderr).not.toContain('onnxruntime');
        // Nothing is cached for a model that never ran.
        expect(() => readdirSync(join(home, 'cache', 'discover-vectors'))).toThrow();
      });
    }
  });
});

function copy(dir: string, name: string): void {
  copyFileSync(join(REPO, TINY, name), join(dir, name));
}
