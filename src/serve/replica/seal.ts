/**
 * Sealed request state for input_required rounds (issue 38.2): what serve hands a 2026-07-28 client as its
 * `requestState` is authenticated encryption (AES-256-GCM) of what any replica needs to resume the round, under a
 * key every replica shares. A sealed blob reads `ms1.<key id>.<iv>.<ciphertext+tag>` (base64url); the key id says
 * which key sealed it, so a rotated key still opens the states it sealed for as long as it is listed (the old-key
 * window). Tampered, foreign (no key of ours) or expired states are refused with a reason, never a crash.
 *
 * The key file: one secret per line (at least 32 characters, e.g. `openssl rand -base64 32`); the first seals, every
 * line opens. Blank lines and lines starting with `#` are skipped. Each line is hashed (SHA-256) into its key, so
 * the secret's own text never leaves this module.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SmartError } from '../../process/errors.js';

const PREFIX = 'ms1';
const MIN_SECRET = 32;

interface Key {
  id: string;
  cipher: Buffer;
  mac: Buffer;
}

const derive = (secret: Buffer | string): Key => ({
  id: createHash('sha256').update('mcp-smart key id\0').update(secret).digest('hex').slice(0, 8),
  cipher: createHash('sha256').update('mcp-smart state\0').update(secret).digest(),
  mac: createHash('sha256').update('mcp-smart replica\0').update(secret).digest(),
});

const b64 = (b: Buffer): string => b.toString('base64url');

/** Why a sealed state was refused (shown to the client: names no key and no content). */
export class StateRefused extends Error {}

export class StateKeys {
  private readonly keys: Key[];

  private constructor(
    secrets: readonly (Buffer | string)[],
    /** Where the keys came from, for messages ("a random key of this process" or the file). */
    readonly source: string,
  ) {
    this.keys = secrets.map(derive);
  }

  /** One random key for this process: a single replica, as before sealing (states do not outlive it). */
  static random(): StateKeys {
    return new StateKeys([randomBytes(32)], 'a random key of this process');
  }

  /** The keys of a key file (first line seals, every line opens); a bad file is a usage error naming it. */
  static fromFile(file: string, flag: string): StateKeys {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new SmartError('FILE_UNREADABLE', {
        file: `${flag} ${file}`,
        reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (e as Error).message,
      });
    }
    const lines = text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    if (lines.length === 0)
      throw new SmartError('CONFIG_INVALID', {
        file: `${flag} ${file}`,
        key: 'keys',
        reason: 'no key in it; write one secret per line (e.g. the output of `openssl rand -base64 32`)',
      });
    const short = lines.findIndex((l) => l.length < MIN_SECRET);
    if (short >= 0)
      throw new SmartError('CONFIG_INVALID', {
        file: `${flag} ${file}`,
        key: `key ${short + 1}`,
        reason: `shorter than ${MIN_SECRET} characters; use e.g. the output of \`openssl rand -base64 32\``,
      });
    return new StateKeys(lines, file);
  }

  /** Seals `payload` (JSON) under the first key. */
  seal(payload: Record<string, unknown>): string {
    const key = this.keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key.cipher, iv);
    cipher.setAAD(Buffer.from(`${PREFIX}.${key.id}`));
    const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}.${key.id}.${b64(iv)}.${b64(body)}`;
  }

  /** Opens a sealed state; refuses (StateRefused) one that is not ours, was altered or has expired. */
  open(state: string, now: number): Record<string, unknown> {
    const parts = state.split('.');
    if (parts.length !== 4 || parts[0] !== PREFIX) throw new StateRefused('it is not a requestState serve sealed');
    const key = this.keys.find((k) => k.id === parts[1]);
    if (!key)
      throw new StateRefused(
        'it was sealed with a key this replica does not hold (another gateway, or a key rotated out)',
      );
    let payload: unknown;
    try {
      const iv = Buffer.from(parts[2]!, 'base64url');
      const body = Buffer.from(parts[3]!, 'base64url');
      if (iv.length !== 12 || body.length < 17) throw new Error('short');
      const decipher = createDecipheriv('aes-256-gcm', key.cipher, iv);
      decipher.setAAD(Buffer.from(`${PREFIX}.${key.id}`));
      decipher.setAuthTag(body.subarray(body.length - 16));
      const plain = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
      payload = JSON.parse(plain.toString('utf8'));
    } catch {
      throw new StateRefused('it was altered (its seal does not verify)');
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
      throw new StateRefused('it was altered (its seal does not verify)');
    const p = payload as Record<string, unknown>;
    if (typeof p.exp !== 'number' || p.exp < now) throw new StateRefused('it has expired');
    return p;
  }

  /** The MAC of an internal request (replica to replica) under the sealing key: `<timestamp>.<hex>`. */
  sign(body: string, now: number): string {
    const ts = String(Math.floor(now));
    return `${ts}.${createHmac('sha256', this.keys[0]!.mac).update(`${ts}\n${body}`).digest('hex')}`;
  }

  /** Whether `header` is a MAC of `body` by any key we hold, made within `skewMs` of now. */
  verify(header: string | undefined, body: string, now: number, skewMs: number): boolean {
    const m = /^(\d+)\.([0-9a-f]{64})$/.exec(header ?? '');
    if (!m || Math.abs(now - Number(m[1])) > skewMs) return false;
    const given = Buffer.from(m[2]!, 'hex');
    return this.keys.some((k) =>
      timingSafeEqual(createHmac('sha256', k.mac).update(`${m[1]}\n${body}`).digest(), given),
    );
  }
}

export const STATE_KEY_ENV = 'MCP_SMART_STATE_KEY_FILE';

/** Reads the keys before serving starts, so a bad key file is a usage error (exit 2) naming it. */
export function stateKeys(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): StateKeys {
  if (flag) return StateKeys.fromFile(flag, '--state-key-file');
  const fromEnv = env[STATE_KEY_ENV];
  if (fromEnv) return StateKeys.fromFile(fromEnv, STATE_KEY_ENV);
  return StateKeys.random();
}
