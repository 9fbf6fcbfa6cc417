export interface PeerServer {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}
export declare const PEERS: { key: string; pkg: string; version: string; entry: string; optional?: boolean }[];
export declare function peersDir(env?: Record<string, string | undefined>, home?: string): string;
export declare function installArgs(dir: string): string[];
export declare function findPeers(dir: string): {
  found: Record<string, { root: string; version: string }>;
  missing: string[];
  skipped: string[];
};
export declare function kdlString(s: string): string;
export declare function slopKdl(servers: PeerServer[]): string;
export declare function hubConfig(servers: PeerServer[]): {
  mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
};
export declare function smartConfig(servers: PeerServer[]): {
  mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
};
export declare function hubMarketplaceCache(now?: number): {
  registry: { version: string; generatedAt: number; totalServers: number; servers: { id: string; name: string }[] };
  lastFetchedAt: number;
  serverDocumentation: Record<string, never>;
};
export declare function tinyServers(repo: string, n: number, node?: string): PeerServer[];
export declare function writeConfigs(dir: string, servers: PeerServer[]): { slop: string; hub: string; smart: string };
