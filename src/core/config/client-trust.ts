/**
 * Trust gates, as each client applies them: whether a client loads a server its files list, judged from that client's
 * own trust records. One rule per client, here only; `servers`, `audit --client`, `adopt` and mcp-smart's own
 * project gate (app/services/project-trust.ts) all ask clientLoadState. Pure: the caller reads the files.
 */
import type { ClientId, ServerDefinition } from '../types.js';
import { readClaudeApproval, type ClaudeApproval } from './approval.js';
import { isPlainObject } from './key-path.js';

/** Why a client does not load a server although its file lists it. */
export type TrustGateCode = NonNullable<ServerDefinition['gate']>;

export interface ClaudeTrust {
  approval: ClaudeApproval;
  /** ~/.claude.json projects[<cwd>].hasTrustDialogAccepted; undefined when the project has no entry. */
  trustAccepted?: boolean;
  /** ~/.claude.json projects[<cwd>].disabledMcpServers → the file that lists it. */
  switchedOff: Map<string, string>;
  /** The ~/.claude.json project entry's label, for messages. */
  file?: string;
}

export interface GeminiTrust {
  /** security.folderTrust.enabled from the system/user settings (Gemini ignores the workspace's own): default true. */
  enabled: boolean;
  /** The verdict: true trusted, false distrusted, undefined no rule matched (Gemini then treats it as untrusted). */
  trusted?: boolean;
  /** Where the verdict came from, for messages. */
  from: string;
}

export interface CodexTrustState {
  /** [projects."<cwd>"] trust_level in the user config.toml; undefined when the project has no entry. */
  level?: string;
  file: string;
}

/** Each client's trust records for the current project, as read from its own files. */
export interface TrustContext {
  claude?: ClaudeTrust;
  gemini?: GeminiTrust;
  codex?: CodexTrustState;
}

export interface LoadState {
  loaded: boolean;
  reason?: TrustGateCode;
  /** A sentence naming the record that decided, for `servers` and warnings. */
  detail?: string;
  /** True when the client's own records show the user approved this server or trusted this project. */
  approved?: boolean;
}

/** Short words a client itself would show for each gate. */
export const GATE_LABEL: Record<TrustGateCode, string> = {
  'claude-pending': 'pending approval in Claude Code',
  'claude-rejected': 'rejected in Claude Code',
  'claude-switched-off': 'disabled in Claude Code',
  'gemini-folder-untrusted': 'disabled: folder not trusted in Gemini',
  'codex-project-untrusted': 'ignored: project not trusted in Codex',
};

const gated = (reason: TrustGateCode, detail: string): LoadState => ({ loaded: false, reason, detail });

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Claude Code's trust records: the settings files (highest first) and the ~/.claude.json projects[<cwd>] entry. */
export function claudeTrustOf(
  settings: readonly { file: string; doc: unknown }[],
  projectEntry: { file: string; doc: unknown } | undefined,
): ClaudeTrust {
  const entries = projectEntry ? [projectEntry] : [];
  const switchedOff = new Map<string, string>();
  const doc = projectEntry?.doc;
  for (const name of isPlainObject(doc) ? stringList(doc.disabledMcpServers) : []) {
    if (!switchedOff.has(name)) switchedOff.set(name, projectEntry?.file ?? '');
  }
  const trust: ClaudeTrust = { approval: readClaudeApproval([...settings, ...entries]), switchedOff };
  if (isPlainObject(doc) && typeof doc.hasTrustDialogAccepted === 'boolean')
    trust.trustAccepted = doc.hasTrustDialogAccepted;
  if (projectEntry) trust.file = projectEntry.file;
  return trust;
}

/**
 * Claude Code (https://code.claude.com/docs/en/mcp "Project scope": "Claude Code prompts for approval before using
 * project-scoped servers from .mcp.json files"; https://code.claude.com/docs/en/settings: enableAllProjectMcpServers,
 * enabledMcpjsonServers, disabledMcpjsonServers). `claude mcp list` shows an unapproved .mcp.json server as
 * "⏸ Pending approval": it loads only after the folder's trust dialog (~/.claude.json projects[<cwd>]
 * .hasTrustDialogAccepted) and the server's approval. Any server switched off in /mcp is listed in
 * projects[<cwd>].disabledMcpServers (anthropics/claude-code issue #44845, isMcpServerDisabled).
 */
function claudeState(d: ServerDefinition, t: ClaudeTrust | undefined): LoadState {
  const off = t?.switchedOff.get(d.name);
  if (off !== undefined) return gated('claude-switched-off', `switched off in Claude Code (${off} disabledMcpServers)`);
  if (d.layer !== 'project') return { loaded: true };
  const a = t?.approval;
  const rejectedAt = a?.disabled.get(d.name);
  if (rejectedAt !== undefined) return gated('claude-rejected', `rejected in Claude Code (${rejectedAt})`);
  const approved = a !== undefined && (a.enableAll?.value === true || a.enabled.has(d.name));
  if (!approved)
    return gated(
      'claude-pending',
      'pending approval in Claude Code (not in enabledMcpjsonServers, enableAllProjectMcpServers not true)',
    );
  if (t?.trustAccepted !== true)
    return gated(
      'claude-pending',
      `pending approval in Claude Code (the trust dialog for this folder was not accepted: ${t?.file ?? '~/.claude.json has no entry for this project'})`,
    );
  return { loaded: true, approved: true };
}

/**
 * Gemini CLI 0.61.0 (@google/gemini-cli bundle: isFolderTrustEnabled → `security.folderTrust.enabled ?? true`;
 * checkPathTrust: GEMINI_CLI_TRUST_WORKSPACE, then ~/.gemini/trustedFolders.json longest matching rule;
 * `isWorkspaceTrusted(...)?.isTrusted ?? false`; McpClientManager returns before connecting when
 * !isTrustedFolder(); `gemini mcp list` warns "User-level servers are also suppressed in untrusted folders").
 * So in an untrusted folder no Gemini server connects, user-level ones included.
 */
function geminiState(t: GeminiTrust | undefined): LoadState {
  if (t === undefined || !t.enabled) return { loaded: true };
  if (t.trusted === true) return { loaded: true, approved: true };
  const why = t.trusted === false ? `marked untrusted (${t.from})` : `not listed in ${t.from}`;
  return gated('gemini-folder-untrusted', `disabled: folder not trusted in Gemini (${why})`);
}

/**
 * Codex (https://developers.openai.com/codex/config-basic: "For security, Codex loads project .codex/ layers only
 * when you trust the project"; the answer is [projects."<path>"] trust_level = "trusted" in ~/.codex/config.toml;
 * openai/codex issue #10389: a project without a trust entry does not get its .codex/config.toml read).
 */
function codexState(d: ServerDefinition, t: CodexTrustState | undefined): LoadState {
  if (d.layer !== 'project') return { loaded: true };
  if (t?.level === 'trusted') return { loaded: true, approved: true };
  const why =
    t?.level === undefined
      ? `no trust_level for this project in ${t?.file ?? '~/.codex/config.toml'}`
      : `trust_level = "${t.level}" in ${t.file}`;
  return gated('codex-project-untrusted', `ignored: project not trusted in Codex (${why})`);
}

/** Whether `client` loads `server` given its trust records. Clients without a trust gate load what they list. */
export function clientLoadState(server: ServerDefinition, client: ClientId | undefined, ctx: TrustContext): LoadState {
  if (client === 'claude-code') return claudeState(server, ctx.claude);
  if (client === 'gemini') return geminiState(ctx.gemini);
  if (client === 'codex') return codexState(server, ctx.codex);
  return { loaded: true };
}

/** Marks each definition its client would not load (enabled false, gate code, the client's words); returns warnings. */
export function applyClientTrust(defs: readonly ServerDefinition[], ctx: TrustContext): string[] {
  const warnings: string[] = [];
  for (const d of defs) {
    // A file named with --config is read because the user named it, not because a client would load it.
    if (!d.enabled || d.scope === 'explicit') continue;
    const state = clientLoadState(d, d.client, ctx);
    if (state.loaded) {
      if (state.approved) d.clientApproved = true;
      continue;
    }
    d.enabled = false;
    d.gate = state.reason;
    d.notLoaded = `${state.detail ?? ''}, so ${clientName(d.client)} does not load it.`;
    warnings.push(`server "${d.name}" (${d.source}): ${d.notLoaded}`);
  }
  return warnings;
}

function clientName(c: ClientId | undefined): string {
  return c === 'claude-code' ? 'Claude Code' : c === 'gemini' ? 'Gemini CLI' : c === 'codex' ? 'Codex' : 'the client';
}

const isUnder = (dir: string, p: string): boolean => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
const norm = (p: string, platform: NodeJS.Platform): string => {
  let out = p.replace(/[\\/]+$/, '');
  if (platform === 'win32') out = out.replace(/\\/g, '/').toLowerCase();
  return out === '' ? '/' : out;
};

/**
 * Gemini CLI 0.61.0's folder trust (bundle checkPathTrust / LoadedTrustedFolders.isPathTrusted): GEMINI_RESTRICTED_MODE
 * or GEMINI_CLI_TRUST_WORKSPACE=false distrust, GEMINI_CLI_TRUST_WORKSPACE=true trusts; with security.folderTrust
 * .enabled false (system or user settings; default true) everything is trusted; else the longest rule in
 * trustedFolders.json whose folder holds cwd decides (TRUST_PARENT counts for the rule's parent folder).
 * Paths are compared as written (Gemini also resolves symlinks, which a pure function cannot).
 */
export function geminiTrustOf(opts: {
  settings: readonly unknown[];
  folders: { file: string; doc: unknown } | undefined;
  foldersFile: string;
  cwd: string;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
}): GeminiTrust {
  const { env } = opts;
  if (env.GEMINI_RESTRICTED_MODE === 'true' || env.GEMINI_CLI_TRUST_WORKSPACE === 'false')
    return { enabled: true, trusted: false, from: 'environment variable' };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true')
    return { enabled: true, trusted: true, from: 'GEMINI_CLI_TRUST_WORKSPACE=true' };
  let enabled: boolean | undefined;
  for (const s of opts.settings) {
    const sec = isPlainObject(s) && isPlainObject(s.security) ? s.security : undefined;
    const ft = sec && isPlainObject(sec.folderTrust) ? sec.folderTrust : undefined;
    if (enabled === undefined && typeof ft?.enabled === 'boolean') enabled = ft.enabled;
  }
  if (enabled === false) return { enabled: false, from: 'security.folderTrust.enabled = false' };
  const doc = opts.folders?.doc;
  const cwd = norm(opts.cwd, opts.platform);
  let best: { len: number; level: string } | undefined;
  for (const [rule, level] of Object.entries(isPlainObject(doc) ? doc : {})) {
    if (typeof level !== 'string') continue;
    const r = norm(rule, opts.platform);
    const folder = level === 'TRUST_PARENT' ? norm(r.replace(/\/[^/]*$/, '') || '/', opts.platform) : r;
    if (isUnder(folder, cwd) && (best === undefined || rule.length > best.len)) best = { len: rule.length, level };
  }
  const trusted =
    best?.level === 'DO_NOT_TRUST'
      ? false
      : best?.level === 'TRUST_FOLDER' || best?.level === 'TRUST_PARENT'
        ? true
        : undefined;
  return { enabled: true, ...(trusted !== undefined ? { trusted } : {}), from: opts.folders?.file ?? opts.foldersFile };
}
