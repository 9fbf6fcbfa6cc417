/** What `init` writes and returns: the config entry of a server, the CI workflow, the result summary. */
import type { ServerDefinition } from '../types.js';

export const CONFIG_FILE = 'mcp-smart.config.json';
export const WORKFLOW_FILE = '.github/workflows/mcp-smart.yml';
export const INIT_SNAPSHOT_FILE = 'mcp-smart.snapshot.json';

export interface InitResult {
  files: { path: string; kind: 'config' | 'baseline' | 'workflow' | 'snapshot'; written: boolean }[];
  servers: string[];
  budget: { max: number; share: number };
  thresholds: { maxGrowth: string };
  baselineTokens?: number;
  checkCommand: string;
  unavailable: string[];
}

/** A definition as our config stores it: command/args/cwd or url/type; env and header values are never copied. */
export function configEntry(d: ServerDefinition): Record<string, unknown> {
  if (d.transport === 'stdio') {
    const e: Record<string, unknown> = { command: d.command, args: d.args ?? [] };
    if (d.cwd) e.cwd = d.cwd;
    return e;
  }
  return d.autoTransport ? { url: d.url } : { url: d.url, type: d.transport };
}

export function shellQuote(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A workflow that checks out, sets up Node 20 and runs the gate with GitHub annotations. */
export function workflowYaml(checkArgs: string[]): string {
  const cmd = ['npx', '--yes', 'mcp-smart', ...checkArgs, 'check', '--format', 'github'].map(shellQuote).join(' ');
  return `# Written by mcp-smart init. Fails the build when the MCP tool context grows beyond the thresholds
# in mcp-smart.config.json / mcp-smart.lock.json. After an intended change run \`mcp-smart check --update\`
# locally and commit mcp-smart.lock.json.
name: mcp-smart

on:
  pull_request:
  push:
    branches: [main]

permissions:
  contents: read

jobs:
  tool-context:
    runs-on: ubuntu-latest
    timeout-minutes: 10
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - name: Check MCP tool-context size against the baseline
        run: ${cmd}
`;
}
