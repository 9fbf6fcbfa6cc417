/** Init reporter: what was set up and written, and the commands to run next. */
import type { InitResult } from '../core/init.js';
import type { Encoding, OutputFormat } from '../core/types.js';
import { formatTokens } from './format.js';
import { renderJson } from './json.js';

export function renderInit(
  result: InitResult,
  opts: {
    format: OutputFormat;
    encoding: Encoding;
    snapshotFile?: string;
    /** The command that refreshes that snapshot. */
    refreshCommand?: string;
    /** The command(s) that refresh the baseline after an intended change (default: the check command with --update). */
    updateCommand?: string;
  },
): string {
  if (opts.format === 'json') return renderJson('init', result);
  const selected = result.servers;
  const lines = result.files.map((f) => `  wrote ${f.path}`);
  lines.unshift(
    `Set up mcp-smart for ${selected.length} server${selected.length === 1 ? '' : 's'}: ${selected.join(', ')}`,
  );
  if (result.baselineTokens !== undefined)
    lines.push(
      `Baseline: ${formatTokens(result.baselineTokens)} tool tokens (${opts.encoding}); budget ` +
        `${formatTokens(Math.floor(result.budget.max * result.budget.share))} of ${formatTokens(result.budget.max)}.`,
    );
  if (opts.snapshotFile !== undefined)
    lines.push(
      `The check reads ${opts.snapshotFile}: refresh it with \`${opts.refreshCommand ?? `mcp-smart dump -o ${opts.snapshotFile}`}\` when your servers change, and commit it.`,
    );
  if (result.variables && result.variables.length > 0) {
    lines.push(
      'These values are secrets: mcp-smart.config.json refers to a variable instead (never the value). Set each to the value you gave before mcp-smart reads the config (check, serve; in CI as a repository secret):',
    );
    const secrets = result.workflow?.secrets ?? [];
    for (const v of result.variables) {
      const secret = secrets.find((s) => s.variable === v.variable)?.secret ?? v.variable;
      lines.push(
        `  ${v.variable}  (${v.server} ${v.key}${secret === v.variable ? '' : `; repository secret ${secret}`})`,
      );
    }
    if (secrets.length > 0)
      lines.push(
        `The workflow's check passes ${secrets.length === 1 ? 'it' : 'each'} from a repository secret (of the same name unless shown): add ${secrets.length === 1 ? 'it' : 'them'} under Settings > Secrets and variables > Actions before the first run.`,
      );
    else if (result.workflow?.checks === 'snapshot')
      lines.push('The workflow checks the committed snapshot and starts no server: it needs none of them.');
  }
  // Variables the servers' own config entries refer to (init wrote none of them): CI has them only as secrets.
  const named = new Set((result.variables ?? []).map((v) => v.variable));
  const more = (result.workflow?.secrets ?? []).filter((s) => !named.has(s.variable));
  if (more.length > 0) {
    lines.push(
      `The servers' config refers to ${more.length === 1 ? 'this variable' : 'these variables'}; the workflow's check passes ${more.length === 1 ? 'it' : 'each'} from a repository secret: add ${more.length === 1 ? 'it' : 'them'} under Settings > Secrets and variables > Actions before the first run:`,
    );
    for (const s of more) lines.push(`  ${s.secret}${s.secret === s.variable ? '' : `  (passed as ${s.variable})`}`);
  }
  const workflow = result.workflow;
  if (workflow && workflow.checks === 'live')
    lines.push(
      `Note: the workflow starts ${selected.join(', ')} on the CI runner. To check a committed snapshot instead, run init again with --ci-snapshot --force.`,
    );
  if (workflow)
    lines.push(
      workflow.install === 'lockfile'
        ? `The workflow runs the mcp-smart of package-lock.json (${workflow.version}) after \`npm ci\`.`
        : `The workflow runs mcp-smart ${workflow.version} exactly (npx --yes -- mcp-smart@${workflow.version}).`,
    );
  const update = opts.updateCommand ?? `${result.checkCommand} --update`;
  lines.push(`Next: commit these files; CI runs \`${result.checkCommand}\`. After an intended change: \`${update}\`.`);
  return lines.join('\n') + '\n';
}
