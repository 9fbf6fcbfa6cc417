/**
 * The OAuth token store: one JSON file (mode 0600, folder 0700) in the user config folder, one entry per
 * server URL and client. It holds access and refresh tokens and dynamically registered client credentials;
 * nothing else in mcp-smart ever writes them anywhere.
 */
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import { withFileLock } from '../../../process/file-lock.js';
import { writeFileSafe } from '../../../process/safe-write.js';
import { SmartError } from '../../../process/errors.js';
import { unreadable } from '../../../process/read-file.js';
import { isObject } from '../../dict.js';

export const OAUTH_STORE_FORMAT = 'mcp-smart/oauth-tokens@1';

export interface TokenStoreEntry {
  /** The MCP server URL the tokens are for. */
  url: string;
  /** The configured client id, or "dynamic" for a registered / metadata-document client. */
  client: string;
  /** Only for clients mcp-smart registered itself; a configured client secret is never copied here. */
  clientInformation?: OAuthClientInformationMixed;
  /**
   * Every client mcp-smart registered for this server, by the issuer of the authorization server it registered with
   * (each also carries the SDK's `issuer` stamp): a server that moves to another authorization server gets a new
   * registration there, and one that moves back finds its earlier one. `clientInformation` is the latest.
   */
  registrations?: Record<string, OAuthClientInformationMixed>;
  tokens?: OAuthTokens;
  /**
   * A random id made at each browser login and kept through refreshes: the tool-list cache keys a remote
   * server's list by it, so two logins (other account, other client) never share one. Not a credential.
   */
  login?: string;
  /**
   * The scope a server asked for with 403 insufficient_scope that the stored tokens lack, noted by a process that
   * could not open a browser (serve, audit …): the next browser login asks for it too, not only for what the
   * server's 401 names. Cleared once a login asked for it.
   */
  scopeWanted?: string;
}

/** The client part of the store key for a server without a configured client id. */
export const DYNAMIC_CLIENT = 'dynamic';

interface StoreFile {
  format: typeof OAUTH_STORE_FORMAT;
  entries: Record<string, TokenStoreEntry>;
}

/** The store key of one server and client. */
export function tokenStoreKey(url: string, client: string): string {
  return `${url} ${client}`;
}

/** Writes to one file are serialised in this process, so parallel servers never lose each other's update. */
const queues = new Map<string, Promise<unknown>>();

export class TokenStore {
  constructor(readonly file: string) {}

  private async load(): Promise<StoreFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { format: OAUTH_STORE_FORMAT, entries: {} };
      // In words ("it is a folder; …"): errorText's redaction turned "EISDIR: illegal operation" into "*** illegal …".
      throw unreadable(this.file, e);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      // The parser's message may quote the file's content, which is tokens: never pass it on.
      throw new SmartError('FILE_PARSE', {
        file: this.file,
        kind: 'JSON',
        reason: 'the token store is damaged; delete it and run `mcp-smart login` again',
      });
    }
    if (!isObject(doc) || doc.format !== OAUTH_STORE_FORMAT || !isObject(doc.entries)) {
      throw new SmartError('FILE_PARSE', {
        file: this.file,
        kind: 'an mcp-smart token store',
        reason: `expected "format": "${OAUTH_STORE_FORMAT}"; delete it and run \`mcp-smart login\` again`,
      });
    }
    return doc as unknown as StoreFile;
  }

  /**
   * One change at a time: in this process (a queue per file) and across processes (a lock file), so two
   * logins at once both keep their entry. The folder is made private first (below).
   */
  private serial<T>(job: () => Promise<T>): Promise<T> {
    const previous = queues.get(this.file) ?? Promise.resolve();
    const locked = async (): Promise<T> => {
      await privateFolder(dirname(this.file));
      return withFileLock(this.file, job);
    };
    const next = previous.then(locked, locked);
    queues.set(
      this.file,
      next.catch(() => undefined),
    );
    return next;
  }

  /** The file's change time in ms (0 when it does not exist): cheap to ask on every request. */
  async version(): Promise<number> {
    await queues.get(this.file);
    return stat(this.file).then(
      (st) => st.mtimeMs,
      () => 0,
    );
  }

  /** The entry for `key`, if any. */
  async read(key: string): Promise<TokenStoreEntry | undefined> {
    await queues.get(this.file);
    return (await this.load()).entries[key];
  }

  /** Every entry (for `logout` and listings). */
  async list(): Promise<Record<string, TokenStoreEntry>> {
    await queues.get(this.file);
    return (await this.load()).entries;
  }

  /** Read-modify-write of one entry; `change` returning undefined deletes it. */
  update(key: string, change: (old: TokenStoreEntry | undefined) => TokenStoreEntry | undefined): Promise<void> {
    return this.serial(async () => {
      const doc = await this.load();
      const next = change(doc.entries[key]);
      if (next === undefined) delete doc.entries[key];
      else doc.entries[key] = next;
      await writeFileSafe(this.file, JSON.stringify(doc, null, 2) + '\n', { mode: 0o600, verbatim: true });
    });
  }

  /** Deletes every entry `matches` selects; returns how many were removed. */
  remove(matches: (entry: TokenStoreEntry) => boolean): Promise<number> {
    return this.serial(async () => {
      const doc = await this.load();
      const doomed = Object.entries(doc.entries).filter(([, e]) => matches(e));
      if (doomed.length === 0) return 0;
      for (const [key] of doomed) delete doc.entries[key];
      await writeFileSafe(this.file, JSON.stringify(doc, null, 2) + '\n', { mode: 0o600, verbatim: true });
      return doomed.length;
    });
  }
}

/**
 * The token folder is ours and holds credentials: created 0700, and tightened to 0700 when it is open to
 * others (a 0777 folder would let anyone replace the token file), as long as this user owns it.
 */
async function privateFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await stat(dir);
  const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
  if (mine && (st.mode & 0o077) !== 0) await chmod(dir, 0o700);
}
