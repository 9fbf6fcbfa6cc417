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

/**
 * The ids of tools as `<server>.<tool>`, made unique as serve serves them: in the order of servers by name (a stable
 * sort: a server's tools in its own order), a repeated id's first tool keeps it and each later one gets `#2`, `#3` …
 * (uniqueKeys). Returned in the order given. Two tools make one id when a server lists a name twice, or when server
 * `a.b` has tool `c` and server `a` has tool `b.c`; tools whose ids do not repeat keep them.
 */
export function uniqueToolIds(tools: readonly { server: string; name: string }[]): string[] {
  const order = tools.map((_, i) => i);
  order.sort((a, b) => {
    const x = tools[a]!.server;
    const y = tools[b]!.server;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  const keys = uniqueKeys(order.map((i) => `${tools[i]!.server}.${tools[i]!.name}`));
  const ids = new Array<string>(tools.length);
  order.forEach((i, at) => (ids[i] = keys[at]!));
  return ids;
}
