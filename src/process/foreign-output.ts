/**
 * What our dependencies print (issue 41, class 0): the MCP SDK's console warnings, the pg driver's deprecation
 * warnings, any `console.*` call, `process.emitWarning` and direct writes to stderr. None of it is ours, so none of it
 * is trusted: every piece goes to stderr (never stdout, which carries our results and serve's protocol) through the
 * same redaction as a server's text (known secret values, URL credentials, bearer tokens, `refresh_token=…` pairs),
 * an HTML page reduced to its title, each piece cut at MAX_PIECE characters and the run's total at MAX_TOTAL.
 * Deprecation warnings are shown only with --debug. Installed by the CLI entry for one run, then taken off.
 */
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { format } from 'node:util';
import { scrubServerText } from './secrets.js';

/** The longest piece of a dependency's output shown (characters). */
export const MAX_PIECE = 2_000;
/** The most a run shows of its dependencies' output (characters); then one line says how much was left out. */
export const MAX_TOTAL = 64_000;

const HTML_DOC = /<(!doctype html|html)\b[\s\S]*?(<\/html>|$)/gi;

function htmlSummary(page: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(page)?.[1]?.trim();
  return `[an HTML page of ${page.length} characters${title ? ` titled "${title.slice(0, 80)}"` : ''}]`;
}

/** One piece of a dependency's output as it may be shown: redacted, HTML reduced, cut. Pure. */
export function foreignText(text: string): string {
  let out = scrubServerText(text.replace(HTML_DOC, htmlSummary));
  if (out.length > MAX_PIECE) {
    out = `${out.slice(0, MAX_PIECE)}… (${out.length} characters from a dependency; cut by mcp-smart)`;
    // The cut may split a value the rules above would have recognised whole: scrub the result again.
    out = scrubServerText(out);
  }
  return out.endsWith('\n') ? out : `${out}\n`;
}

export interface ForeignOutput {
  /** Our own stderr text (already scrubbed by the caller): written as is. */
  ownStderr(text: string): void;
  /** Restores console, the warning listeners and stderr's write. */
  uninstall(): void;
}

/** Routes every dependency's output through foreignText until uninstall(). */
export function installForeignOutput(proc: NodeJS.Process, opts: { debug: boolean }): ForeignOutput {
  const stderr = proc.stderr;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be put back as it was, and called on stderr
  const rawWrite = stderr.write;
  const raw = (text: string): boolean => rawWrite.call(stderr, text);
  let shown = 0;
  let dropped = 0;
  const emit = (text: string): boolean => {
    if (text === '') return true;
    const safe = foreignText(text);
    if (shown + safe.length > MAX_TOTAL) {
      if (dropped === 0)
        raw(`mcp-smart: further output from dependencies is not shown (over ${MAX_TOTAL} characters)\n`);
      dropped += safe.length;
      return true;
    }
    shown += safe.length;
    return raw(safe);
  };

  // Direct writes to stderr (a dependency holding process.stderr); the callback contract of write() is kept.
  const patched = function (this: unknown, chunk: unknown, enc?: unknown, cb?: unknown): boolean {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const ok = emit(text);
    const done = typeof enc === 'function' ? enc : cb;
    if (typeof done === 'function') process.nextTick(done);
    return ok;
  };
  stderr.write = patched;
  // A reader of stderr that went away (`2>&1 | head`) left an unhandled error event: the run ended with exit 1 after
  // its work, whatever its outcome. There is nowhere left to say anything, so the run's own exit code stands.
  const readerGone = (): void => {};
  stderr.on('error', readerGone);

  // console.* (log and info too) to stderr: stdout is for results and serve's protocol.
  const sink = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      emit(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      cb();
    },
  });
  const previousConsole = globalThis.console;
  const ours = new Console({ stdout: sink, stderr: sink, colorMode: false });
  Object.defineProperty(globalThis, 'console', { value: ours, configurable: true, writable: true });

  // process.emitWarning and util.deprecate: Node's own printer is replaced by one that redacts and cuts.
  const previousWarning = proc.listeners('warning');
  proc.removeAllListeners('warning');
  const onWarning = (w: Error): void => {
    if (w.name === 'DeprecationWarning' && !opts.debug) return;
    emit(`(dependency) ${w.name}: ${format('%s', w.message)}`);
  };
  proc.on('warning', onWarning);

  return {
    ownStderr: (text) => void raw(text),
    uninstall() {
      stderr.write = rawWrite;
      stderr.removeListener('error', readerGone);
      Object.defineProperty(globalThis, 'console', { value: previousConsole, configurable: true, writable: true });
      proc.removeListener('warning', onWarning);
      for (const l of previousWarning) proc.on('warning', l);
    },
  };
}
