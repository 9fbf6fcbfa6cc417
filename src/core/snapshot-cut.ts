/**
 * The structural cut of snapshot-split.ts made on a file read in chunks: the bytes come in pieces of any size, and each
 * element of the top-level "servers" array is handed over as soon as its last byte has come, while it is still in
 * the cache, so the whole file is never held (a read of 175 MB costs more in fresh pages than in work on this VM).
 *
 * The bytes live in one buffer: what is still needed (the server being cut, or the document before its "servers"
 * array) is moved to its front before the next read, and the buffer grows only when that does not leave room. What
 * the cut has learnt carries across reads: where it is in the document, the nesting depth, whether it is inside a
 * string and whether the last byte read was an unpaired backslash there (so the next byte is escaped).
 *
 * It accepts what splitSnapshot accepts and cuts it at the same places; anything else fails the cut (the caller then
 * reads the file whole, so every error is the whole parse's).
 */

import {
  backslashesBefore,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  isSpace,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from './snapshot-split.js';

/** Where the cut is in the document. */
const BOM = 0; // the first bytes, maybe a byte-order mark
const OPEN = 1; // before the top-level `{`
const FIRST_KEY = 2; // after it
const NEXT_KEY = 3; // after a `,` of the top-level object
const KEY_TEXT = 4; // inside a key
const KEY_COLON = 5; // after a key
const MEMBER_START = 6; // after the colon
const MEMBER_VALUE = 7; // inside a member's value (not "servers")
const AFTER_MEMBER = 8; // `,` or `}` next
const TRAIL = 9; // after the top-level `}`: spaces only
const FIRST_ITEM = 10; // after the `[` of "servers"
const NEXT_ITEM = 11; // after a `,` of that array
const ITEM_VALUE = 12; // inside an element
const AFTER_ITEM = 13; // `,` or `]` next
const FAILED = 14;

/** What kind of value is being stepped over. */
const STRING = 0;
const SCALAR = 1;
const NESTED = 2;

/**
 * Bytes read at a time (and the buffer's first size). Each page of a new buffer costs a page fault on its first
 * write (~13–15 µs on the virtualised machine this was measured on): 1 MB, reused from read to read, is 768 pages
 * fewer than 4 MB was, for a few more reads (bench/RESULTS.md, "Issue 40, session 24").
 */
export const CUT_CHUNK_BYTES = 1 << 20;

export class ChunkedCut {
  private buf: Buffer;
  /** Bytes held; `view` is buf's first `len` bytes. */
  private len = 0;
  private view: Buffer;
  /** The next byte to look at. */
  private at = 0;
  /** The first byte still needed: the bytes before it go at the next read. */
  private keep = 0;
  private state = BOM;
  private kind = STRING;
  private depth = 0;
  /** The deepest nesting met in the element being stepped over (1: the element itself). */
  private deepest = 0;
  private inString = false;
  private escaped = false;
  /** Where the value or key being stepped over starts, where the document starts (after a BOM) and resumes. */
  private from = 0;
  private docStart = 0;
  private suffixFrom = 0;
  private key: unknown;
  private prefix: string | undefined;

  /**
   * `server` gets each element's bytes, valid only during the call, and its nesting depth (an object holding only
   * scalars: 1); what it throws fails the read.
   */
  constructor(
    private readonly server: (bytes: Buffer, from: number, to: number, depth: number) => void,
    chunkBytes = CUT_CHUNK_BYTES,
  ) {
    this.buf = Buffer.allocUnsafe(Math.max(1, chunkBytes));
    this.view = this.buf.subarray(0, 0);
  }

  /** Where to read the next bytes into (then call `add` with their count). */
  room(): Buffer {
    const drop = this.keep;
    if (drop > 0) {
      this.buf.copy(this.buf, 0, drop, this.len);
      this.len -= drop;
      this.at -= drop;
      this.from -= drop;
      this.docStart -= drop;
      this.suffixFrom -= drop;
      this.keep = 0;
    }
    if (this.len === this.buf.length) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.len);
      this.buf = bigger;
    }
    return this.buf.subarray(this.len);
  }

  /** `n` bytes were read into `room()`; false when the document is not cut cleanly (stop reading). */
  add(n: number): boolean {
    this.len += n;
    this.view = this.buf.subarray(0, this.len);
    this.run(false);
    return this.state !== FAILED;
  }

  /** The end of the file: the document with "servers" emptied (`[]`), or undefined when it is not cut cleanly. */
  end(): string | undefined {
    this.run(true);
    if (this.state !== TRAIL || this.prefix === undefined) return undefined;
    return `${this.prefix}[]${this.view.toString('utf8', this.suffixFrom, this.len)}`;
  }

  private run(final: boolean): void {
    const b = this.view;
    const n = this.len;
    for (;;) {
      const state = this.state;
      if (state === FAILED) return;
      if (state === KEY_TEXT || state === MEMBER_VALUE || state === ITEM_VALUE) {
        if (!this.value(b, n, final)) {
          if (final) this.state = FAILED;
          return;
        }
        this.valueEnded(b);
        continue;
      }
      if (state === BOM) {
        if (n < 3 && !final) return;
        this.at = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
        this.docStart = this.at;
        this.state = OPEN;
        continue;
      }
      let at = this.at;
      while (at < n && isSpace(b[at])) at++;
      this.at = at;
      if (at >= n) {
        if (final && state !== TRAIL) this.state = FAILED;
        return;
      }
      this.token(b, b[at]!);
    }
  }

  /** The byte `c` at `at` where a token is expected (spaces skipped). */
  private token(b: Buffer, c: number): void {
    switch (this.state) {
      case OPEN:
        if (c !== OPEN_OBJECT) break;
        this.at++;
        this.state = FIRST_KEY;
        return;
      case FIRST_KEY:
      case NEXT_KEY:
        if (c !== QUOTE) break;
        this.start(c, KEY_TEXT);
        return;
      case KEY_COLON:
        if (c !== COLON) break;
        this.at++;
        this.state = MEMBER_START;
        return;
      case MEMBER_START:
        if (this.key !== 'servers') {
          this.start(c, MEMBER_VALUE);
          return;
        }
        if (this.prefix !== undefined || c !== OPEN_ARRAY) break;
        this.prefix = b.toString('utf8', this.docStart, this.at);
        this.keep = ++this.at;
        this.state = FIRST_ITEM;
        return;
      case AFTER_MEMBER:
        if (c === COMMA) this.state = NEXT_KEY;
        else if (c === CLOSE_OBJECT) this.state = TRAIL;
        else break;
        this.at++;
        return;
      case FIRST_ITEM:
        if (c === CLOSE_ARRAY) {
          this.endArray();
          return;
        }
        this.keep = this.at;
        this.start(c, ITEM_VALUE);
        return;
      case NEXT_ITEM:
        this.keep = this.at;
        this.start(c, ITEM_VALUE);
        return;
      case AFTER_ITEM:
        if (c === COMMA) {
          this.at++;
          this.state = NEXT_ITEM;
        } else if (c === CLOSE_ARRAY) this.endArray();
        else break;
        return;
    }
    this.state = FAILED; // TRAIL with more than spaces, or an unexpected byte
  }

  private endArray(): void {
    this.keep = this.suffixFrom = ++this.at;
    this.state = AFTER_MEMBER;
  }

  /** A value (or key) starts with `c` at `at`. */
  private start(c: number, state: number): void {
    this.from = this.at;
    this.state = state;
    this.deepest = 0;
    if (c === QUOTE) {
      this.kind = STRING;
      this.escaped = false;
      this.at++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      this.kind = NESTED;
      this.depth = 0;
      this.inString = false;
    } else this.kind = SCALAR;
  }

  private valueEnded(b: Buffer): void {
    const state = this.state;
    if (state === KEY_TEXT) {
      try {
        this.key = JSON.parse(b.toString('utf8', this.from, this.at));
        this.state = KEY_COLON;
      } catch {
        this.state = FAILED;
      }
    } else if (state === MEMBER_VALUE) this.state = AFTER_MEMBER;
    else if (this.at === this.from)
      this.state = FAILED; // an empty element: `[,` or `,]`
    else {
      this.server(b, this.from, this.at, this.deepest);
      this.keep = this.at;
      this.state = AFTER_ITEM;
    }
  }

  /** Steps over the value being read; true when it ended (`at` just after it), false when more bytes are needed. */
  private value(b: Buffer, n: number, final: boolean): boolean {
    if (this.kind === SCALAR) {
      let at = this.at;
      for (; at < n; at++) {
        const c = b[at];
        if (isSpace(c) || c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY) break;
      }
      this.at = at;
      return at < n || final;
    }
    if (this.kind === STRING) return this.string(b, n);
    if (this.inString) {
      if (!this.string(b, n)) return false;
      this.inString = false;
    }
    let at = this.at;
    let depth = this.depth;
    let deepest = this.deepest;
    while (at < n) {
      const c = b[at]!;
      if (c === QUOTE) {
        this.at = at + 1;
        this.escaped = false;
        if (!this.string(b, n)) {
          this.inString = true;
          this.depth = depth;
          this.deepest = deepest;
          return false;
        }
        at = this.at;
        continue;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (++depth > deepest) deepest = depth;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (--depth === 0) {
          this.at = at + 1;
          this.deepest = deepest;
          return true;
        }
      }
      at++;
    }
    this.at = at;
    this.depth = depth;
    this.deepest = deepest;
    return false;
  }

  /**
   * Steps over the rest of a string (from `at`, its opening quote behind); true when its closing quote was found.
   * A backslash escapes the next byte, so a quote closes the string after an even run of backslashes, counted back to
   * where this step started (the byte before it, if a backslash, was either escaped or carried in `escaped`).
   */
  private string(b: Buffer, n: number): boolean {
    let i = this.at;
    if (this.escaped) {
      if (i >= n) return false;
      i++;
      this.escaped = false;
    }
    const base = i;
    for (;;) {
      const q = b.indexOf(QUOTE, i);
      if (q < 0) {
        this.escaped = backslashesBefore(b, n, base) % 2 === 1;
        this.at = n;
        return false;
      }
      if (backslashesBefore(b, q, base) % 2 === 0) {
        this.at = q + 1;
        return true;
      }
      i = q + 1;
    }
  }
}
