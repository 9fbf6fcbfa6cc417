/** What `servers` returns: the configured servers as plain entries (no secrets), shadowings and searched files. */
import { GATE_LABEL } from './config/client-trust.js';
import type { DefinitionResult } from './config/index.js';
import type { ServerDefinition, SourceScope, Transport } from './types.js';

export interface ServersEntry {
  name: string;
  transport: Transport;
  source: string;
  enabled: boolean;
  scope: SourceScope;
  autoTransport?: boolean;
  shadowed?: string[];
  /** Why the client would not load it (not approved, refused variable, excluded, …). */
  notLoaded?: string;
  /** The client trust gate that keeps it from loading (core/config/client-trust.ts), as the client words it. */
  gate?: string;
  /** From a project file nobody approved yet: mcp-smart does not start it (`mcp-smart trust` approves). */
  pendingApproval?: boolean;
}

export interface ServersResult {
  servers: ServersEntry[];
  shadowings: DefinitionResult['shadowings'];
  searched: DefinitionResult['searched'];
  configFile?: string;
  warnings: string[];
}

/** The listed form of a definition: no command, env, headers or URL (those may hold secrets). */
export function entryOf(d: ServerDefinition): ServersEntry {
  const e: ServersEntry = {
    name: d.name,
    transport: d.transport,
    source: d.source,
    enabled: d.enabled,
    scope: d.scope,
  };
  if (d.autoTransport) e.autoTransport = true;
  if (d.shadowed && d.shadowed.length > 0) e.shadowed = [...d.shadowed];
  if (d.notLoaded) e.notLoaded = d.notLoaded;
  if (d.gate) e.gate = GATE_LABEL[d.gate];
  if (d.pendingTrust) e.pendingApproval = true;
  return e;
}
