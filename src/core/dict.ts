/**
 * Maps keyed by names a server or a file sent. A plain `{}` drops `__proto__` (it sets the prototype) and
 * answers `constructor` or `hasOwnProperty` with Object.prototype's members; a null-prototype object does neither.
 */

/** A null-prototype record, optionally filled from entries. JSON.stringify writes it like any object. */
export function dict<T>(entries?: Iterable<readonly [string, T]>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  if (entries) for (const [k, v] of entries) out[k] = v;
  return out;
}

/** The value stored under `key` itself, never one inherited from a prototype. */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** A JSON-parsed object copied into a null-prototype record, recursively for nested plain objects. */
export function toDict<T = unknown>(value: Record<string, unknown>): Record<string, T> {
  return dict(Object.entries(value) as [string, T][]);
}

/** A JSON object (not null, not an array); `T` names the shape the caller reads it as. */
export function isObject<T extends object = Record<string, unknown>>(v: unknown): v is T {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
