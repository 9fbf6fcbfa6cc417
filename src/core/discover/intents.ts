/** Labelled intents (`.jsonl`, CONTRACT): one `{"intent": "...", "expected": ["server.tool", ...]}` per line. */
import { SmartError } from '../../process/errors.js';

export interface LabelledIntent {
  intent: string;
  expected: string[];
}

/** Parses the file's text; a bad line is a FILE_PARSE error naming the file and line. */
export function parseLabelledIntents(text: string, file: string): LabelledIntent[] {
  const out: LabelledIntent[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const fail = (reason: string): never => {
      throw new SmartError('FILE_PARSE', {
        file,
        kind: 'labelled intents (.jsonl)',
        reason: `line ${i + 1}: ${reason}`,
      });
    };
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      fail((e as Error).message);
    }
    const o = v as { intent?: unknown; expected?: unknown };
    if (!o || typeof o !== 'object' || typeof o.intent !== 'string')
      fail('expected {"intent": string, "expected": [ids]}');
    // An empty intent ranks nothing: it was scored as a miss of every engine, lowering the recall the gate reads.
    if ((o.intent as string).trim() === '') fail('"intent" is empty; write the request in plain words');
    if (!Array.isArray(o.expected) || !o.expected.every((x) => typeof x === 'string'))
      fail('"expected" must be an array of "server.tool" ids');
    // Nothing to find is nothing to score: the line was left out of the count without a word.
    if ((o.expected as string[]).length === 0) fail('"expected" is empty; name the tool(s) this intent should find');
    out.push({ intent: o.intent as string, expected: o.expected as string[] });
  });
  return out;
}
