/**
 * Values read from the environment, checked like flags: a variable set to something it does not take is exit 2
 * naming it (`MCP_SMART_TRUST_PROJECT=true` did nothing, and the note then asked for the =1 the user thought was set).
 */
import { readDecimal } from './decimal.js';
import { SmartError } from './errors.js';

type Env = Readonly<Record<string, string | undefined>>;

const ON = new Set(['1', 'true', 'yes', 'on']);
const OFF = new Set(['0', 'false', 'no', 'off']);

/** An on/off variable: 1, true, yes, on / 0, false, no, off (any case); undefined when unset or empty. */
export function envSwitch(env: Env, name: string, what: string): boolean | undefined {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return undefined;
  if (ON.has(value)) return true;
  if (OFF.has(value)) return false;
  throw new SmartError('BAD_FLAG', {
    flag: name,
    value: env[name],
    hint: `Set it to 1 ${what}, or to 0 (or unset it).`,
  });
}

/** A positive number in plain decimal (`512`, `0.5`; not 0x10, 1e3 or " 12 "); undefined when unset or blank. */
export function envPositiveNumber(env: Env, name: string, what: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = readDecimal(raw, 'decimal');
  if (value !== undefined && value > 0 && value <= Number.MAX_SAFE_INTEGER) return value;
  throw new SmartError('BAD_FLAG', { flag: name, value: raw, hint: `Set it to ${what}, or unset it.` });
}
