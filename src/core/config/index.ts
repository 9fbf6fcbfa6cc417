/** Config pipeline entry: locate → read → validate → merge. Returns server definitions and our own config. */
import type { AdhocServer, ServerDefinition, SmartConfig } from '../../types.js';

export interface DefinitionRequest {
  /** --config files, in order. When non-empty the default locations are not searched. */
  configFiles: string[];
  adhoc: AdhocServer[];
  demo: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
  /** Absolute path of the node binary, for the demo servers. */
  nodePath: string;
}

export interface Shadowing {
  name: string;
  /** Source that won (project level / earlier in the search order). */
  winner: string;
  /** Source whose definition was hidden. */
  loser: string;
}

export interface DefinitionResult {
  /** Every server after precedence, enabled and disabled, in a stable order. */
  servers: ServerDefinition[];
  shadowings: Shadowing[];
  /** Every location looked at, and whether a file was there. */
  searched: { file: string; found: boolean }[];
  /** Our own mcp-smart.config.json keys (budget, thresholds, …), validated; {} when none. */
  config: SmartConfig;
  configFile?: string;
  warnings: string[];
}

/** Finds, reads, validates and merges every server definition the request names. */
export async function loadServerDefinitions(req: DefinitionRequest): Promise<DefinitionResult> {
  void req;
  throw new Error('not implemented');
}
