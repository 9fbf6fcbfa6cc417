/** The `trust` use case: records the approval of this project's own server definitions in mcp-smart's trust list. */
import { relative, resolve } from 'node:path';
import { GATE_LABEL } from '../../core/config/client-trust.js';
import { redactUrl } from '../../process/redact.js';
import { redactArguments } from '../../process/secret-args.js';
import type { ServerDefinition } from '../../core/types.js';
import { storeLabel } from '../../core/store/url.js';
import type { AppContext } from '../services/context.js';
import { resolvePaths } from '../services/paths.js';
import {
  approveConfigFiles,
  approveProject,
  clientHeldProjectServers,
  projectSettings,
  trustListFile,
  unapprovedProjectServers,
} from '../services/project-trust.js';
import { loadDefinitions } from '../services/definitions.js';
import { SmartError } from '../../process/errors.js';

export interface TrustResult {
  project: string;
  /** The project-file servers approved now: name, source file and what runs (URLs without their query). */
  approved: { name: string; source: string; runs: string }[];
  trustList: string;
  /** The usage store the project's config names, approved now when it reaches outside the project (redacted). */
  store?: string;
  /** The --config files approved as they are now. */
  configFiles?: string[];
  /**
   * Servers approved here that their client still holds back (Claude Code's pending .mcp.json approval, …): mcp-smart
   * cannot approve them in the client. Commands read them when their file is named with --config (`config`).
   */
  clientHeld: { name: string; source: string; client: string; config: string }[];
}

export async function trustProject(ctx: AppContext): Promise<TrustResult> {
  const { io, global } = ctx;
  // One approval covers the project's definitions together: `trust -s a` (or a name not there) approved them all.
  if (global.server.length > 0)
    throw new SmartError('BAD_FLAG', {
      flag: '--server',
      value: global.server.join(', '),
      hint: "trust takes no --server: one approval covers all of this project's server definitions (a change to any asks again). Run `mcp-smart trust` to approve them all, or take the servers you do not want started out of the project's config first.",
    });
  const paths = resolvePaths(io, global.cache);
  const defs = await loadDefinitions(global, io, paths, { skip: true });
  const held = clientHeldProjectServers(defs.servers);
  const pending = [...unapprovedProjectServers(defs.servers), ...held];
  const settings = projectSettings(defs, io.cwd, global.config);
  if (pending.length > 0 || settings.store !== undefined) await approveProject(paths, io.cwd, defs.servers, settings);
  // `trust -c <file>`: the named files as they are now (a changed --config file is asked about again).
  if (global.config.length > 0) await approveConfigFiles(paths, defs, io.cwd, global.config);
  const runs = (d: ServerDefinition): string =>
    d.url !== undefined ? redactUrl(d.url) : [d.command ?? '', ...redactArguments(d.args ?? [])].join(' ');
  return {
    project: io.cwd,
    approved: pending.map((d) => ({ name: d.name, source: d.source, runs: runs(d) })),
    trustList: trustListFile(paths),
    clientHeld: held.map((d) => ({
      name: d.name,
      source: d.source,
      client: GATE_LABEL[d.gate!],
      config: relative(io.cwd, d.source) || d.source,
    })),
    ...(settings.store !== undefined ? { store: storeLabel(settings.store) } : {}),
    ...(global.config.length > 0 ? { configFiles: global.config.map((f) => resolve(io.cwd, f)) } : {}),
  };
}
