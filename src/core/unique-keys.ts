/**
 * Unique keys for a list of names that may repeat: each name's first occurrence keeps it, and each later one gets
 * `#2`, `#3` … after it, skipping any key that is itself a name in the list (a tool may really be called "dup#2")
 * or was handed out already. The same list always gives the same keys; a list without repeats keeps every name.
 */
export function uniqueKeys(names: readonly string[]): string[] {
  const taken = new Set(names);
  const kept = new Set<string>();
  const next = new Map<string, number>();
  return names.map((name) => {
    if (!kept.has(name)) {
      kept.add(name);
      return name;
    }
    let n = next.get(name) ?? 2;
    while (taken.has(`${name}#${n}`)) n++;
    next.set(name, n + 1);
    const key = `${name}#${n}`;
    taken.add(key);
    return key;
  });
}
