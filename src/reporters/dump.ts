/** Dump reporter: the per-server summary on stderr and, with -o under --json, the small JSON document. */
import type { ChalkInstance } from 'chalk';
import type { DumpResult } from '../core/snapshot.js';
import type { ServerSnapshot } from '../core/types.js';
import { countOf } from './format.js';
import { renderJson } from './json.js';

/** `{schemaVersion, command: "dump", output, servers}`: what --json prints when the snapshot went to a file. */
export function renderDumpJson(result: DumpResult): string {
  return renderJson('dump', result);
}

/** One line per server (ok/FAIL, tools, prompts, resources, resource templates), then where the snapshot went. */
export function renderDumpSummary(servers: ServerSnapshot[], output: string | undefined, chalk: ChalkInstance): string {
  const width = Math.max(0, ...servers.map((s) => s.name.length));
  const lines = servers
    .map((s) => {
      const name = s.name.padEnd(width);
      if (s.status === 'error') return `  ${chalk.red('FAIL')} ${name}  ${s.error ?? 'failed'}\n`;
      const extra = [
        s.prompts ? countOf(s.prompts.length, 'prompt') : '',
        s.resources ? countOf(s.resources.length, 'resource') : '',
        s.resourceTemplates ? countOf(s.resourceTemplates.length, 'resource template') : '',
      ]
        .filter(Boolean)
        .join(', ');
      const note = s.cached ? ' (cached)' : '';
      return `  ${chalk.green('ok  ')} ${name}  ${countOf(s.tools.length, 'tool')}${extra ? `, ${extra}` : ''}${note}\n`;
    })
    .join('');
  const failed = servers.filter((s) => s.status === 'error').length;
  return (
    lines +
    `${output ? `Wrote ${output}` : 'Snapshot written to stdout'}: ${servers.length} server${servers.length === 1 ? '' : 's'}` +
    `${failed ? `, ${failed} failed` : ''}.\n`
  );
}
