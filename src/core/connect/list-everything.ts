/** Everything a server advertises — tools, prompts, resources, templates — listed page by page on a ready client. */
import { ResultSchema } from '@modelcontextprotocol/core';
import { ProtocolError, ProtocolErrorCode, type Client } from '@modelcontextprotocol/client';
import type { SmartError } from '../../process/errors.js';
import { scrubListed } from '../../process/secrets.js';
import type { ServerSnapshot, ToolSnapshot } from '../types.js';
import { reasonOf, type Progress } from './failure.js';
import { optionalListNote } from './failure-text.js';
import { malformedToolsNotes } from '../tool-validate.js';
import {
  checkObjectEntries,
  checkToolEntries,
  listAllPages,
  malformedToolsError,
  type ListCacheHint,
  type RequestFn,
} from './list.js';

export type Lists = Pick<
  ServerSnapshot,
  'tools' | 'prompts' | 'resources' | 'resourceTemplates' | 'listCache' | 'listCaches'
>;

export interface Listed {
  lists: Lists;
  /** Malformed tool entries: the well-formed ones are kept in `lists`. */
  malformed?: SmartError;
  /** Optional lists (prompts, resources) that failed: notes on a server whose tools still count. */
  notes?: string[];
}

/** Lists tools, prompts, resources and templates (whatever the server advertises), following every cursor. */
export async function listEverything(
  client: Client,
  progress: Progress,
  list: { signal: AbortSignal | undefined; timeoutMs: number; maxPages: number },
  /** Each well-formed tool, as it is listed (the session keeps their definitions for its calls). */
  onTool: (tool: ToolSnapshot) => void,
): Promise<Listed> {
  const { signal, timeoutMs, maxPages } = list;
  const snap: Lists = { tools: [] };
  const request: RequestFn = async (method, params) => {
    progress.begin(method);
    const result = await client.request({ method, params }, ResultSchema, { signal, timeout: timeoutMs });
    progress.end(method);
    return result;
  };
  const caps = client.getServerCapabilities() ?? {};
  let malformed: SmartError | undefined;
  const notes: string[] = [];
  // Prompts and resources are optional: a failed list is a note on a server whose tools still count.
  const optional = (method: string) => (e: unknown) => {
    progress.end(method);
    notes.push(optionalListNote(method, reasonOf(e)));
  };
  const jobs: Promise<void>[] = [];
  // A 2026-07-28 server's own hint on its prompts, resources and templates lists (serve derives its own from them).
  const keepHint = (key: 'prompts' | 'resources' | 'resourceTemplates') => (hint: ListCacheHint | undefined) => {
    if (hint) snap.listCaches = { ...snap.listCaches, [key]: hint };
  };
  if (caps.tools) {
    jobs.push(
      // A 2026-07-28 server's own cache hint for its tool list goes into the snapshot (serve derives its own).
      listAllPages(request, 'tools/list', 'tools', maxPages, (hint) => {
        if (hint) snap.listCache = hint;
      }).then((entries) => {
        // A server that writes its own secrets into its definitions: replaced here, as every output replaces them.
        const checked = checkToolEntries(scrubListed(entries));
        snap.tools = checked.tools;
        for (const t of checked.tools) onTool(t);
        if (checked.problems.length > 0) malformed = malformedToolsError(checked);
        notes.push(...malformedToolsNotes({ ...checked, problems: [] }));
      }),
    );
  }
  if (caps.prompts) {
    jobs.push(
      listAllPages(request, 'prompts/list', 'prompts', maxPages, keepHint('prompts')).then(
        (e) => void (snap.prompts = checkObjectEntries(scrubListed(e), 'prompts/list')),
        optional('prompts/list'),
      ),
    );
  }
  if (caps.resources) {
    jobs.push(
      listAllPages(request, 'resources/list', 'resources', maxPages, keepHint('resources')).then(
        (e) => void (snap.resources = checkObjectEntries(scrubListed(e), 'resources/list')),
        optional('resources/list'),
      ),
    );
    jobs.push(
      listAllPages(
        request,
        'resources/templates/list',
        'resourceTemplates',
        maxPages,
        keepHint('resourceTemplates'),
      ).then(
        (e) => void (snap.resourceTemplates = checkObjectEntries(scrubListed(e), 'resources/templates/list')),
        (e: unknown) => {
          // Older servers advertise resources but never implemented templates: that is "none", not a failure.
          if (e instanceof ProtocolError && e.code === ProtocolErrorCode.MethodNotFound) {
            progress.end('resources/templates/list');
            snap.resourceTemplates = [];
            return;
          }
          optional('resources/templates/list')(e);
        },
      ),
    );
  }
  await Promise.all(jobs);
  return { lists: snap, malformed, notes };
}
