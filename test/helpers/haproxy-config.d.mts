// Types for haproxy-config.mjs, so TypeScript tests can import it (the bench imports the .mjs directly).
export function haproxyConfig(listen: string, replicas: readonly string[]): string;
