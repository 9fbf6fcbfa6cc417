/**
 * What a PostgreSQL failure was, from its SQLSTATE (or the socket's errno): the store's errors name it, with the
 * code, instead of calling everything "cannot reach". Unreachable (network, authentication, a missing database,
 * a server shutting down) is STORE_UNREACHABLE (exit 3); a store this role may not use as asked (permission), whose
 * tables are not the ones mcp-smart made (schema) or that rejects the rows (a constraint, a trigger) is
 * STORE_REFUSED (exit 2, nothing written); a lock or timeout, a value the database could not take, anything else
 * is STORE_FAILED (exit 3, nothing written; serve retries it).
 */
import { SmartError, errorText } from '../../process/errors.js';

export type StoreFailureKind = 'unreachable' | 'permission' | 'schema' | 'constraint' | 'lock' | 'data' | 'other';

/** Socket and resolver failures: the database cannot be reached at all. */
const NET_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/** A lock not granted in time, a statement cancelled by its timeout, a conflict still there after the retries. */
const LOCK_CODES = new Set(['55P03', '55006', '57014', '40P01', '40001']);

export function failureKind(e: unknown): { kind: StoreFailureKind; code?: string } {
  const code = (e as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') {
    // pg's own connection failures have no code: a connect timeout, a connection ended under a query.
    const text = errorText(e);
    if (
      /timeout expired|Connection terminated|connection is closed|Client has encountered a connection error/i.test(text)
    )
      return { kind: 'unreachable' };
    return { kind: 'other' };
  }
  if (NET_ERRNO.has(code)) return { kind: 'unreachable', code };
  if (code === '42501') return { kind: 'permission', code };
  // The rest of class 42: tables, columns or types that are not the ones mcp-smart made.
  if (code.startsWith('42')) return { kind: 'schema', code };
  if (LOCK_CODES.has(code)) return { kind: 'lock', code };
  if (/^(08|28|3D|53|57P)/.test(code)) return { kind: 'unreachable', code };
  if (code.startsWith('23') || code === 'P0001' || code === '27000' || code === '09000' || code === '2F004')
    return { kind: 'constraint', code };
  if (code.startsWith('22')) return { kind: 'data', code };
  return { kind: 'other', code };
}

const HINTS: Record<Exclude<StoreFailureKind, 'unreachable'>, string> = {
  permission:
    'reading the store needs only SELECT on the mcp_smart_* tables; learning also needs INSERT, UPDATE and DELETE, and the first run (mcp-smart store init) CREATE on the schema; ask the database owner for those rights or use a role that has them',
  schema:
    'the database holds mcp_smart_* tables or columns mcp-smart did not make (or that were changed since); point --store at another database, or restore the tables (mcp-smart store export, then store init and store import on a fresh database)',
  constraint:
    'a constraint, rule or trigger on the mcp_smart_* tables rejected the rows; remove it, or point --store at a database without it',
  lock: 'another session held a lock on the store for too long; retry when it is released',
  data: 'the database could not take a value; this is a bug, please report it with the SQLSTATE',
  other: 'retry, and report it with the SQLSTATE if it persists',
};

/** The error for a failure of the store at `label`, its text without `conn` or the password in it. */
export function storeFailure(e: unknown, label: string, conn: string, doing?: string): SmartError {
  if (e instanceof SmartError) return e;
  const { kind, code } = failureKind(e);
  const text = scrub(errorText(e), conn);
  const tag = `${kind}${code ? `, SQLSTATE ${code}` : ''}`;
  const reason = `${doing ? `${doing}: ` : ''}${text} (${tag})`;
  if (kind === 'unreachable') return new SmartError('STORE_UNREACHABLE', { store: label, reason }, { cause: e });
  if (kind === 'permission' || kind === 'schema' || kind === 'constraint')
    return new SmartError('STORE_REFUSED', { file: label, reason, hint: HINTS[kind] }, { cause: e });
  return new SmartError('STORE_FAILED', { store: label, reason, hint: HINTS[kind] }, { cause: e });
}

/** The failure's kind when it is a store error made here (or a raw driver error). */
export function kindOf(e: unknown): StoreFailureKind {
  return failureKind(e instanceof SmartError ? e.cause : e).kind;
}

/** An error text without the connection string or its password, whatever the driver put in it. */
export function scrub(text: string, conn: string): string {
  let out = text.split(conn).join('<store>');
  const pw = /^[a-z]+:\/\/[^:/@]*:([^@/]*)@/i.exec(conn)?.[1];
  if (pw) {
    out = out.split(pw).join('***');
    const plain = decodeURIComponent(pw);
    if (plain) out = out.split(plain).join('***');
  }
  return out;
}
