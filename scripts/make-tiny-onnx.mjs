// Writes fixtures/models/tiny-onnx/: a tiny but real sentence-transformers style ONNX export that the tests load
// through onnxruntime-web, exactly as `discover --model <dir>` loads a user's model.
//
//   node scripts/make-tiny-onnx.mjs [out-dir] [--pooled]
//
// (--pooled: a variant whose graph also outputs `sentence_embedding`, pooled in the graph; the tests make it in a
// temporary folder.)
//
// - model.onnx: input_ids, attention_mask, token_type_ids (int64 [batch, sequence]) → last_hidden_state
//   (float [batch, sequence, 128]) = Gather(embeddings, input_ids) + Gather(token_types, token_type_ids) +
//   Gather(mask_rows, attention_mask). Like a real transformer's, the vectors at padded positions are not zero
//   (mask_rows[0] is a fixed non-zero row), so a pooling that ignored the mask would be visibly wrong. The graph
//   has no pooling: mcp-smart mean-pools last_hidden_state over the mask and L2-normalises, as it does for a real
//   export without a `sentence_embedding` output.
// - tokenizer.json: a BERT WordPiece tokenizer (BertNormalizer lower case + accents, BertPreTokenizer,
//   [CLS] … [SEP] through TemplateProcessing) over the words of the fixture catalogues and intents, with `##`
//   pieces for inflections and for words the table lacks; tokenizer_config.json: model_max_length 32.
//
// The rows are the shipped word vectors (data/word-vectors.bin, dequantised) of each word, so the model carries
// real meaning ("sunny" is near "weather"), and [CLS]/[SEP]/[PAD]/[UNK] and the token types are zero rows.
// Deterministic: the same inputs give the same bytes. The ONNX protobuf is written by hand (field numbers from
// onnx.proto): ModelProto, GraphProto, NodeProto, TensorProto, ValueInfoProto.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const POOLED = process.argv.includes('--pooled');
const OUT = resolve(
  process.argv.slice(2).find((a) => !a.startsWith('--')) ?? join(REPO, 'fixtures', 'models', 'tiny-onnx'),
);
const SOURCES = ['discover-tools.json', 'discover-ok.json'].map((f) => join(REPO, 'fixtures', 'snapshots', f));
const INTENTS = join(REPO, 'fixtures', 'snapshots', 'discover-intents.jsonl');
/** Intents the tests ask, beyond the fixture file's. */
const EXTRA = [
  'will it be sunny in Paris tomorrow',
  'read a file',
  'reading the files',
  'show me what is in a document',
  'café',
];
const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const SUFFIXES = ['s', 'es', 'ed', 'ing'];
const MAX_LENGTH = 32;

// ---- the word vectors (scripts/build-vectors.mjs's layout) ----
function readVectors(file) {
  const buf = readFileSync(file);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const size = view.getUint32(8, true);
  const dims = view.getUint32(12, true);
  const wordBytes = view.getUint32(16, true);
  const words = buf
    .subarray(20, 20 + wordBytes)
    .toString('utf8')
    .split('\n');
  const off = (20 + wordBytes + 3) & ~3;
  const index = new Map(words.map((w, i) => [w, i]));
  const row = (w) => {
    const i = index.get(w);
    if (i === undefined) return undefined;
    const scale = view.getFloat32(off + i * 4, true);
    const at = off + size * 8 + i * dims;
    return Array.from({ length: dims }, (_, d) => view.getInt8(at + d) * scale);
  };
  return { dims, row };
}

// ---- the words: lower-cased, accents stripped, split as BertPreTokenizer would (and identifiers split) ----
const words = (text) =>
  text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);

function corpus() {
  const texts = [...EXTRA];
  for (const file of SOURCES) {
    for (const server of JSON.parse(readFileSync(file, 'utf8')).servers) {
      for (const tool of server.tools ?? []) {
        texts.push(tool.name, tool.description ?? '');
        for (const [name, p] of Object.entries(tool.inputSchema?.properties ?? {}))
          texts.push(name, p.description ?? '');
      }
    }
  }
  for (const line of readFileSync(INTENTS, 'utf8').split('\n').filter(Boolean)) texts.push(JSON.parse(line).intent);
  return [...new Set(texts.flatMap(words))].sort();
}

/** The vocabulary and its rows: whole words the table knows; `##` pieces for inflections and compounds. */
function vocabulary(vectors) {
  const entries = new Map(SPECIAL.map((t) => [t, undefined]));
  const all = corpus();
  const known = new Set(all.filter((w) => vectors.row(w)));
  for (const w of all) {
    // An inflected word whose base is in the vocabulary becomes base + ##suffix ("reading" → read ##ing).
    const base = SUFFIXES.map((s) => (w.endsWith(s) ? w.slice(0, -s.length) : '')).find((b) => known.has(b));
    if (base && base.length >= 3) {
      entries.set(base, vectors.row(base));
      entries.set(`##${w.slice(base.length)}`, undefined);
      continue;
    }
    if (known.has(w)) {
      entries.set(w, vectors.row(w));
      continue;
    }
    // A compound the table lacks: the longest known prefix, then `##` pieces of known words.
    const pieces = [];
    for (let at = 0; at < w.length;) {
      let end = w.length;
      while (end > at + 1 && !known.has(w.slice(at, end))) end--;
      if (!known.has(w.slice(at, end))) break;
      pieces.push(w.slice(at, end));
      at = end;
    }
    if (pieces.join('') === w && pieces.length > 1)
      pieces.forEach((p, i) => entries.set(i === 0 ? p : `##${p}`, vectors.row(p)));
    // Else the word stays out: it is [UNK] to the model.
  }
  return [...entries];
}

// ---- protobuf, by hand ----
const varint = (n) => {
  const out = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
};
const key = (field, wire) => varint((field << 3) | wire);
const int = (field, n) => Buffer.concat([key(field, 0), varint(n)]);
const bytes = (field, b) => Buffer.concat([key(field, 2), varint(b.length), b]);
const str = (field, s) => bytes(field, Buffer.from(s, 'utf8'));
const msg = (field, ...parts) => bytes(field, Buffer.concat(parts));

const FLOAT = 1;
const INT64 = 7;
/** TensorProto: dims 1, data_type 2, name 8, raw_data 9 (little-endian). */
const tensor = (field, name, type, dims, raw) =>
  msg(field, ...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, raw));
/** ValueInfoProto: name 1, type 2 → TypeProto.tensor_type 1 → elem_type 1, shape 2 → dim 1 (dim_value 1, dim_param 2). */
const valueInfo = (field, name, type, dims) =>
  msg(
    field,
    str(1, name),
    msg(
      2,
      msg(1, int(1, type), msg(2, ...dims.map((d) => (typeof d === 'number' ? msg(1, int(1, d)) : msg(1, str(2, d)))))),
    ),
  );
/** NodeProto: input 1, output 2, name 3, op_type 4, attribute 5 (AttributeProto: name 1, i 3, type 20; INT = 2). */
const node = (op, inputs, outputs, attrs = {}) =>
  msg(
    1,
    ...inputs.map((i) => str(1, i)),
    ...outputs.map((o) => str(2, o)),
    str(3, `${op}_${outputs[0]}`),
    str(4, op),
    ...Object.entries(attrs).map(([name, i]) => msg(5, str(1, name), int(3, i), int(20, 2))),
  );
const floats = (values) => {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((x, i) => b.writeFloatLE(Math.fround(x), i * 4));
  return b;
};

/**
 * With `pooled`, the export of a model that pools in its graph: `sentence_embedding` = the sum of the token rows over
 * the mask ([batch, dims]), and a `last_hidden_state` (listed first) biased by "weather" at every position, so a
 * loader that pooled it instead of taking `sentence_embedding` would get other vectors.
 */
function model(rows, dims, weather, pooled) {
  const table = Buffer.alloc(rows.length * dims * 4);
  rows.forEach(([, v], r) => {
    for (let d = 0; d < dims; d++) table.writeFloatLE(Math.fround(v?.[d] ?? 0), (r * dims + d) * 4);
  });
  // Row 0 (a padded position): the vector of "weather", a real direction the padding would pull towards.
  const padRow = Buffer.alloc(2 * dims * 4);
  weather.forEach((x, d) => padRow.writeFloatLE(Math.fround(x), d * 4));
  const seq = ['batch', 'sequence'];
  const graph = [
    node('Gather', ['embeddings', 'input_ids'], ['words']),
    node('Gather', ['token_types', 'token_type_ids'], ['types']),
    node('Add', ['words', 'types'], ['summed']),
    node('Gather', ['mask_rows', 'attention_mask'], ['masked']),
    node('Add', ['summed', 'masked'], ['last_hidden_state']),
    ...(pooled
      ? [
          node('Gather', ['mask_column', 'attention_mask'], ['mask3']),
          node('Mul', ['summed', 'mask3'], ['kept']),
          node('ReduceSum', ['kept', 'sequence_axis'], ['sentence_embedding'], { keepdims: 0 }),
        ]
      : []),
    str(2, 'tiny-sentence-model'),
    tensor(5, 'embeddings', FLOAT, [rows.length, dims], table),
    tensor(5, 'token_types', FLOAT, [2, dims], Buffer.alloc(2 * dims * 4)),
    tensor(
      5,
      'mask_rows',
      FLOAT,
      [2, dims],
      pooled ? Buffer.concat([padRow.subarray(0, dims * 4), padRow.subarray(0, dims * 4)]) : padRow,
    ),
    ...(pooled
      ? [
          tensor(5, 'mask_column', FLOAT, [2, 1], floats([0, 1])),
          tensor(5, 'sequence_axis', INT64, [1], Buffer.from(new BigInt64Array([1n]).buffer)),
        ]
      : []),
    valueInfo(11, 'input_ids', INT64, seq),
    valueInfo(11, 'attention_mask', INT64, seq),
    valueInfo(11, 'token_type_ids', INT64, seq),
    valueInfo(12, 'last_hidden_state', FLOAT, [...seq, dims]),
    ...(pooled ? [valueInfo(12, 'sentence_embedding', FLOAT, ['batch', dims])] : []),
  ];
  // ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8 (OperatorSetIdProto: domain 1, version 2).
  return Buffer.concat([int(1, 8), str(2, 'mcp-smart make-tiny-onnx'), msg(7, ...graph), msg(8, int(2, 17))]);
}

function tokenizer(rows) {
  const vocab = Object.fromEntries(rows.map(([t], i) => [t, i]));
  const special = (t) => ({ id: t, type_id: 0 });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((t) => ({
      id: vocab[t],
      content: t,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
      ],
      pair: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [vocab[t]], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

const vectors = readVectors(join(REPO, 'data', 'word-vectors.bin'));
const rows = vocabulary(vectors);
mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'model.onnx'), model(rows, vectors.dims, vectors.row('weather'), POOLED));
writeFileSync(join(OUT, 'tokenizer.json'), `${JSON.stringify(tokenizer(rows), null, 2)}\n`);
writeFileSync(
  join(OUT, 'tokenizer_config.json'),
  `${JSON.stringify({ do_lower_case: true, model_max_length: MAX_LENGTH, tokenizer_class: 'BertTokenizer' }, null, 2)}\n`,
);
console.log(`${OUT}: ${rows.length} tokens × ${vectors.dims} dimensions`);
