/** Secret values of a definition and their redaction; no SDK import, so callers that only redact load fast. */
import type { ServerDefinition } from '../types.js';

/** Values that must never be shown: env and header values (short ones would redact ordinary words). */
export function secretValues(def: ServerDefinition): string[] {
  const values = [...Object.values(def.env ?? {}), ...Object.values(def.headers ?? {}), def.oauth?.clientSecret ?? ''];
  return [...new Set(values.filter((v) => v.length >= 4))].sort((a, b) => b.length - a.length);
}

/** The known values replaced by the redaction mark (the one routine in process/redact.ts). */
export { redactValues as redact } from '../../process/redact.js';
