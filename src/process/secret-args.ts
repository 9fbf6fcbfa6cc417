/**
 * Secrets in a server's command line: the value after a flag named like a credential (`--password hunter2`,
 * `--api-key=sk-…`). One rule for adopt (which makes a variable of each), the secret values every exit hides, and
 * what prints a command line (`servers --debug`, `trust`). Pure.
 */
import { isSecretName, REDACTED_MARK } from './redact.js';

/** `--api-key`, `--token=…`: a flag and, after `=`, its value. */
const FLAG = /^(--?)([A-Za-z][A-Za-z0-9_.-]*)(?:=([\s\S]*))?$/;

/** A flag whose name says its value is a credential (`--api-key`, `--password`; not `--no-auth`, `--key-file`). */
const isSecretFlag = (name: string): boolean => !/^no[-_]/i.test(name) && isSecretName(name);

/** A reference in any client's syntax (`${PG_PASSWORD}`, `${input:pw}`, `$PG_PASSWORD`): a name, never a value. */
const REFERENCE = /\$\{[^{}]+\}|^\$[A-Za-z_][A-Za-z0-9_]*$/;

/** One secret flag's value in an argument list. */
export interface SecretArgument {
  /** Where the value stands: the flag's own index for `--token=X`, the next one for `--token X`. */
  index: number;
  dashes: string;
  flag: string;
  /** True for `--token=X` (the value shares the flag's argument). */
  inline: boolean;
  value: string;
}

/**
 * Each secret flag's value in `args`, in order. A value that is empty, another flag, or one `holdsReference` says
 * comes from a variable (by default any `${…}` or a bare `$NAME`) is no secret of the command line.
 */
export function secretArguments(
  args: readonly string[],
  holdsReference: (value: string) => boolean = (v) => REFERENCE.test(v),
): SecretArgument[] {
  const found: SecretArgument[] = [];
  for (let i = 0; i < args.length; i++) {
    const m = FLAG.exec(args[i]!);
    if (!m || !isSecretFlag(m[2]!)) continue;
    const [, dashes, flag, inline] = m as unknown as [string, string, string, string | undefined];
    if (inline !== undefined) {
      if (inline !== '' && !holdsReference(inline)) found.push({ index: i, dashes, flag, inline: true, value: inline });
      continue;
    }
    const value = args[i + 1];
    if (value === undefined || value === '' || value.startsWith('-') || holdsReference(value)) continue;
    found.push({ index: i + 1, dashes, flag, inline: false, value });
    i++;
  }
  return found;
}

/** The secret an argument holds as written in the client's file (`--token=X` → `X`, a flag's value as it is). */
export function argumentSecret(arg: string): string {
  const m = FLAG.exec(arg);
  return m?.[3] !== undefined && isSecretFlag(m[2]!) ? m[3] : arg;
}

/** `args` with each secret flag's value replaced by `mark` (`--password ***`, `--token=***`), for printing. */
export function redactArguments(args: readonly string[], mark = REDACTED_MARK): string[] {
  const out = [...args];
  for (const s of secretArguments(args)) out[s.index] = s.inline ? `${s.dashes}${s.flag}=${mark}` : mark;
  return out;
}
