// The workflow init --github writes, read back with a YAML parser: the check step's `run:` is exactly the command
// mcp-smart meant, whatever the paths and server names hold. A plain scalar read `snap: v2.json` as a mapping (the
// file did not parse) and cut `a #b: c` at ` #` (a comment), running another command than the one printed.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ciCommand, ciSecrets, ciWorkflowYaml, yamlScalar, type CiWorkflowPlan } from '../../src/core/ci-workflow.js';

const HOSTILE = [
  'a #b: c',
  'snap: v2.json',
  'dir #1/snap.json',
  'ends with colon:',
  "it's",
  '"double"',
  '{braces}',
  '[list]',
  '*star',
  '&anchor',
  '!tag',
  '-leading-dash',
  '- dash space',
  '? question',
  '|pipe',
  '>fold',
  '%percent',
  '@at',
  '`tick`',
  'line\nbreak',
  'carriage\rreturn',
  'tab\there',
  'sep\u2028arator',
  'next\u0085line',
  'back\\slash \\n',
  'true',
  'null',
  '  spaced  ',
  '',
];

const plan = (args: string[], snapshots: string[] = []): CiWorkflowPlan => ({
  install: { kind: 'pinned', version: '0.1.0' },
  args,
  snapshots,
  dumpArgs: [],
  writtenBy: '0.1.0',
});

interface Workflow {
  jobs: { 'tool-context': { steps: { run?: string }[] } };
}

/**
 * The workflow parsed as YAML 1.2 and 1.1 (GitHub's parser reads 1.1's line breaks too; 1.1 reads the key `on` as
 * true): its four keys and no other, and the check step's command.
 */
function runOf(yaml: string): string[] {
  return (['1.2', '1.1'] as const).map((version) => {
    const doc = parse(yaml, { version }) as Workflow;
    expect(Object.keys(doc)).toEqual(['name', version === '1.2' ? 'on' : 'true', 'permissions', 'jobs']);
    const steps = doc.jobs['tool-context'].steps;
    expect(steps.filter((s) => s.run?.includes('check --format github'))).toHaveLength(1);
    return steps.at(-1)!.run!;
  });
}

describe('ciWorkflowYaml', () => {
  it.each(HOSTILE)('a server named %j: run reads back as the command meant', (name) => {
    const p = plan(['--snapshot', 'snap.json', '-s', name], ['snap.json']);
    const meant = ciCommand(p, [...p.args, 'check', '--format', 'github']);
    expect(runOf(ciWorkflowYaml(p))).toEqual([meant, meant]);
  });

  it.each(HOSTILE.filter((h) => h !== ''))('a snapshot at %j: run reads back, the comments stay comments', (file) => {
    const p = plan(['--snapshot', file], [file]);
    const meant = ciCommand(p, [...p.args, 'check', '--format', 'github']);
    expect(runOf(ciWorkflowYaml(p))).toEqual([meant, meant]);
  });

  it('a config path and a lockfile version with line breaks stay inside their comments', () => {
    const p: CiWorkflowPlan = {
      install: { kind: 'lockfile', version: '1.0.0\nevil: true' },
      args: ['--config', 'conf\njobs: {}'],
      snapshots: [],
      dumpArgs: [],
      writtenBy: '0.1.0',
    };
    const yaml = ciWorkflowYaml(p);
    const meant = ciCommand(p, [...p.args, 'check', '--format', 'github']);
    expect(runOf(yaml)).toEqual([meant, meant]);
    expect(yaml).toContain('(1.0.0\\nevil: true when written)');
  });

  it('an ordinary command stays a plain scalar, as the docs show it', () => {
    const p = plan(['--snapshot', 'mcp-smart.snapshot.json', '-s', 'files'], ['mcp-smart.snapshot.json']);
    expect(ciWorkflowYaml(p)).toContain(
      '        run: npx --yes -- mcp-smart@0.1.0 --snapshot mcp-smart.snapshot.json -s files check --format github\n',
    );
    expect(yamlScalar("npx --snapshot 'my snap.json' check")).toBe("npx --snapshot 'my snap.json' check");
  });

  it('a live check passes the config variables from repository secrets, never a GITHUB_* secret; a snapshot check none', () => {
    // secrets.GITHUB_TOKEN is the job's own token (GitHub refuses secrets named GITHUB_*): it would reach the server.
    const live = { ...plan([]), variables: ['GITHUB_TOKEN', 'ECHO_PASSWORD', 'ECHO_PASSWORD'] };
    const doc = parse(ciWorkflowYaml(live)) as {
      jobs: { 'tool-context': { steps: { env?: Record<string, string> }[] } };
    };
    expect(doc.jobs['tool-context'].steps.at(-1)!.env).toEqual({
      ECHO_PASSWORD: '${{ secrets.ECHO_PASSWORD }}',
      GITHUB_TOKEN: '${{ secrets.MCP_GITHUB_TOKEN }}',
    });
    const snap = { ...plan(['--snapshot', 's.json'], ['s.json']), variables: ['ECHO_PASSWORD'] };
    const yaml = ciWorkflowYaml(snap);
    expect(yaml).not.toContain('env:');
    expect(yaml).not.toContain('secrets.');
  });

  it("a config's reference to a variable the runner sets (HOME, GITHUB_WORKSPACE) or Claude's env:X is passed from no secret", () => {
    // A step env from an unset secret would blank the runner's own HOME; GitHub forbids overriding GITHUB_WORKSPACE.
    const live = { ...plan([]), variables: ['HOME', 'GITHUB_WORKSPACE', 'RUNNER_TEMP', 'env:API_KEY', 'API_KEY'] };
    expect(ciSecrets(live)).toEqual([{ variable: 'API_KEY', secret: 'API_KEY' }]);
  });
});
