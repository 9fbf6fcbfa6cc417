/** The `trust` use case: records the approval of this project's own server definitions in mcp-smart's trust list. */
import { redactUrl } from '../core/redact.js';
import type { AppContext } from './context.js';
import { resolvePaths } from './paths.js';
import { approveProject, trustListFile, unapprovedProjectServers } from './project-trust.js';
import { loadDefinitions } from './definitions.js';

export interface TrustResult {
  project: string;
  /** The project-file servers approved now: name, source file and what runs (URLs without their query). */
  approved: { name: string; source: string; runs: string }[];
  trustList: string;
}

export async function trustProject(ctx: AppContext): Promise<TrustResult> {
  const { io, global } = ctx;
  const paths = resolvePaths(io, global.cache);
  const defs = await loadDefinitions(global, io, paths, { skip: true });
  const pending = unapprovedProjectServers(defs.servers);
  if (pending.length > 0) await approveProject(paths, io.cwd, defs.servers);
  return {
    project: io.cwd,
    approved: pending.map((d) => ({
      name: d.name,
      source: d.source,
      runs: d.url !== undefined ? redactUrl(d.url) : [d.command ?? '', ...(d.args ?? [])].join(' '),
    })),
    trustList: trustListFile(paths),
  };
}
