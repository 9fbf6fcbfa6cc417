/** `serve --record <file>`: labelled cases appended as JSON lines, one append at a time, lines gathered meanwhile. */
import { errorText } from '../process/errors.js';
import { appendFileSafe, type OwnedKind } from '../process/safe-write.js';

/** The --record file holds labelled intents, one JSON object a line: an existing file is appended to only then. */
export const RECORD_KIND: OwnedKind = {
  mark: /^\s*\{[^\n]*"intent"\s*:/,
  what: 'labelled intents (JSON lines with "intent")',
};

export class CaseRecorder {
  /** Lines wait here while an append is in flight; the next append writes them all at once. */
  private lines: string[] = [];
  private appending: Promise<void> | undefined;

  constructor(private readonly log: (text: string) => void) {}

  /** Queues `line` for `file`; resolves when the append that holds it is over. */
  add(file: string, line: string): Promise<void> {
    this.lines.push(line);
    return (this.appending ??= this.append(file));
  }

  private async append(file: string): Promise<void> {
    try {
      while (this.lines.length > 0) {
        const lines = this.lines.join('');
        const n = this.lines.length;
        this.lines = [];
        try {
          await appendFileSafe(file, lines);
        } catch (e) {
          this.log(`could not record ${n} labelled case(s): ${errorText(e)}`);
        }
      }
    } finally {
      this.appending = undefined;
    }
  }
}
