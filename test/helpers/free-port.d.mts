// Types for free-port.mjs, so TypeScript tests can import it (benches import the .mjs directly).
export function freePort(): Promise<number>;
