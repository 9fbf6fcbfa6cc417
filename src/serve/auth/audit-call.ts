/** One tools/call as the audit log records it (audit.ts): who, which tool, the outcome, how long, argument names. */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { identityRefusal } from '../../core/config/identity-filter.js';
import type { ServeRuntime } from '../runtime.js';
import { argumentNames, type AuditOutcome } from './audit.js';
import type { Caller } from './caller.js';

interface CallParams {
  name: string;
  arguments?: Record<string, unknown>;
}

/** The id "server.tool" a call reaches: the served tool's, or for call_tool the one it names. */
function targetOf(runtime: ServeRuntime, params: CallParams): { id?: string; viaMeta: boolean } {
  const served = runtime.view.byName.get(params.name);
  if (served?.entry) return { id: served.entry.id, viaMeta: false };
  if (served?.meta !== 'call' && served?.meta !== 'callRead') return { viaMeta: false };
  const name = params.arguments?.name;
  if (typeof name !== 'string') return { viaMeta: true };
  const view = runtime.view;
  const hidden = view.hidden.has(name) ? name : undefined;
  const id =
    view.entries.get(name)?.id ??
    view.byName.get(name)?.entry?.id ??
    hidden ??
    [...view.entries.values()].find((e) => e.tool.name === name)?.id;
  return { ...(id ? { id } : {}), viaMeta: true };
}

/** Runs the call and records it in the audit log (when one is configured); the result is returned unchanged. */
export async function audited<T>(
  runtime: ServeRuntime,
  params: CallParams,
  authInfo: AuthInfo | undefined,
  caller: Caller | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const audit = runtime.opts.audit;
  if (!audit) return run();
  const started = runtime.opts.clock();
  let outcome: AuditOutcome | undefined = 'failed';
  try {
    const result = await run();
    const r = result as { isError?: unknown; resultType?: unknown };
    // An input_required round is not the call's end: its last round is recorded.
    if (r.resultType === 'input_required') {
      outcome = undefined;
      return result;
    }
    outcome = r.isError === true ? 'error' : 'ok';
    return result;
  } finally {
    if (outcome !== undefined) record(outcome);
  }

  function record(outcome: AuditOutcome): void {
    const { id, viaMeta } = targetOf(runtime, params);
    const rule =
      id !== undefined && outcome === 'error'
        ? identityRefusal(runtime.opts.setup.config.serve?.auth, caller, id)
        : undefined;
    audit!.record({
      ...(caller ? { subject: caller.subject, groups: caller.groups } : {}),
      ...(authInfo?.clientId ? { client: authInfo.clientId } : {}),
      tool: params.name,
      ...(viaMeta && id !== undefined ? { target: id } : {}),
      outcome: rule ? 'refused' : outcome,
      ...(rule ? { rule } : {}),
      durationMs: Math.round(runtime.opts.clock() - started),
      arguments: argumentNames(viaMeta ? params.arguments?.arguments : params.arguments),
    });
  }
}
