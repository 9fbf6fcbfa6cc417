/** What `init` writes and returns: the config entry of a server and the result summary (the workflow: ci-workflow.ts). */
import type { ServerDefinition } from './types.js';
import { WORKFLOW_PATH } from './ci-workflow.js';
import { redactUrl } from '../process/redact.js';

export const CONFIG_FILE = 'mcp-smart.config.json';
export const WORKFLOW_FILE = WORKFLOW_PATH;
export const INIT_SNAPSHOT_FILE = 'mcp-smart.snapshot.json';

export interface InitResult {
  files: { path: string; kind: 'config' | 'baseline' | 'workflow' | 'snapshot'; written: boolean }[];
  servers: string[];
  budget: { max: number; share: number };
  thresholds: { maxGrowth: string };
  baselineTokens?: number;
  checkCommand: string;
  unavailable: string[];
  /** How the workflow gets mcp-smart and what it checks (with --github). */
  workflow?: { install: 'lockfile' | 'pinned'; version: string; checks: 'snapshot' | 'live' };
}

/** A definition as our config stores it: command/args/cwd or url/type; env and header values are never copied. */
export function configEntry(d: ServerDefinition): Record<string, unknown> {
  if (d.transport === 'stdio') {
    const e: Record<string, unknown> = { command: d.command, args: d.args ?? [] };
    if (d.cwd) e.cwd = d.cwd;
    return e;
  }
  // Credentials in a URL stay out of a file users commit.
  const url = d.url === undefined ? undefined : redactUrl(d.url);
  return d.autoTransport ? { url } : { url, type: d.transport };
}
