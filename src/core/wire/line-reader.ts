/**
 * Splits a byte stream into lines in linear time, with a bound on a line's size. The chunks of a line are kept
 * as they come and joined once, when its newline arrives (the SDK's ReadBuffer joins the whole buffer again on
 * every chunk, so a 60 MB message took quadratic time). A line over `maxBytes` is not kept: its first bytes are
 * handed to `onOversize` (a JSON-RPC message's id is near its start) and the rest is skipped up to its newline,
 * so one huge line costs no memory and the lines after it are read as usual.
 */

/** How much of an oversized line's start and end is kept for `onOversize` (where a JSON-RPC message's id is). */
export const OVERSIZE_KEEP_BYTES = 1024;

export interface LineReaderOptions {
  maxBytes: number;
  onLine: (line: string) => void;
  /** Called once per oversized line when its newline arrives, with its first and last bytes and its size. */
  onOversize: (line: { head: string; tail: string; bytes: number }) => void;
}

export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while an oversized line is skipped: its first bytes, its latest bytes, its size so far. */
  private skipped: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  constructor(private readonly opts: LineReaderOptions) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl), true);
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start), false);
  }

  /** Drops what is buffered (the stream ended or was closed). */
  clear(): void {
    this.parts = [];
    this.size = 0;
    this.skipped = undefined;
  }

  private take(part: Buffer, ends: boolean): void {
    if (!this.skipped && this.size + part.length > this.opts.maxBytes) {
      // Only the first bytes are kept: a total length copies that much, not everything buffered so far.
      const head = Buffer.concat([...this.parts, part], Math.min(OVERSIZE_KEEP_BYTES, this.size + part.length));
      this.skipped = { head: head.subarray(0, OVERSIZE_KEEP_BYTES), tail: Buffer.alloc(0), bytes: this.size };
      this.parts = [];
      this.size = 0;
    }
    const skipped = this.skipped;
    if (skipped) {
      skipped.bytes += part.length;
      const tail = Buffer.concat([skipped.tail, part.subarray(-OVERSIZE_KEEP_BYTES)]);
      skipped.tail = tail.subarray(-OVERSIZE_KEEP_BYTES);
      if (!ends) return;
      this.skipped = undefined;
      const tailText = skipped.tail.toString('utf8');
      this.opts.onOversize({
        head: skipped.head.toString('utf8'),
        tail: tailText.endsWith('\r') ? tailText.slice(0, -1) : tailText,
        bytes: skipped.bytes,
      });
      return;
    }
    this.parts.push(part);
    this.size += part.length;
    if (!ends) return;
    const line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    const text = line.toString('utf8');
    this.opts.onLine(text.endsWith('\r') ? text.slice(0, -1) : text);
  }
}

const ID_VALUE = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;

/**
 * The id of a JSON-RPC message known only by its first and last bytes: a top-level `"id"` key in the head (nested
 * ones, inside params, are passed over), or an `"id"` that ends the message. Undefined when neither shows it.
 */
export function messageIdOf(head: string, tail: string): string | number | undefined {
  const inHead = topLevelIdInHead(head);
  if (inHead !== undefined) return inHead;
  const m = new RegExp(String.raw`"id"\s*:\s*${ID_VALUE}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?}\s*$`).exec(tail);
  return m ? parseId(m[1]!) : undefined;
}

function topLevelIdInHead(head: string): string | number | undefined {
  const at = topLevelValueAt(head, 'id');
  const m = at === -1 ? null : new RegExp(String.raw`^${ID_VALUE}`).exec(head.slice(at));
  return m ? parseId(m[1]!) : undefined;
}

/**
 * Where the value of a top-level `"key"` starts in the first bytes of a JSON object (keys nested in its values, and
 * strings that only contain the key, are passed over), or -1 when the head does not show one.
 */
export function topLevelValueAt(head: string, key: string): number {
  let depth = 0;
  const name = new RegExp(String.raw`^${JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\s*:\s*`);
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      if (depth === 1) {
        const m = name.exec(head.slice(i));
        if (m) return i + m[0].length;
      }
      // Skip the string (a key or a value), escapes included.
      for (i++; i < head.length && head[i] !== '"'; i++) if (head[i] === '\\') i++;
    }
  }
  return -1;
}

function parseId(raw: string): string | number | undefined {
  try {
    return JSON.parse(raw) as string | number;
  } catch {
    return undefined;
  }
}
