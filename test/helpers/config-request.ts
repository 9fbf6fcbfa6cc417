// Shared request builder for the config tests: a fake HOME per platform, no real environment.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DefinitionRequest } from '../../src/core/config/index.js';
import { fixture } from './paths.js';

export const CONFIGS = (...parts: string[]): string => fixture('configs', ...parts);

export function request(over: Partial<DefinitionRequest> = {}): DefinitionRequest {
  return {
    configFiles: [],
    adhoc: [],
    demo: false,
    cwd: CONFIGS('project-empty'),
    env: {},
    platform: 'linux',
    home: CONFIGS('home-empty'),
    nodePath: '/usr/bin/node',
    // Machine-wide files (Gemini's system settings) are looked for here, never under the real /etc.
    systemRoot: CONFIGS('system-empty'),
    ...over,
  };
}

/**
 * A temporary HOME (a copy of `base` when given) whose client records trust `cwd` as a user who accepted each
 * client's dialog would have: Claude Code's trust dialog and all project servers approved (~/.claude.json
 * projects[cwd]), Codex trust_level = "trusted" (~/.codex/config.toml), Gemini TRUST_FOLDER (trustedFolders.json).
 * `replaceCwd` fills a fixture's "<cwd>" placeholder. Removed by the caller (`temps`).
 */
export function trustedHome(cwd: string, base?: string, temps?: string[], approveAll = true): string {
  const home = mkdtempSync(join(tmpdir(), 'mcp-smart-trusted-home-'));
  temps?.push(home);
  if (base !== undefined) cpSync(base, home, { recursive: true });
  const claudeFile = join(home, '.claude.json');
  const claude = existsSync(claudeFile)
    ? (JSON.parse(readFileSync(claudeFile, 'utf8').replaceAll('"<cwd>"', JSON.stringify(cwd))) as {
        projects?: Record<string, object>;
      })
    : {};
  claude.projects ??= {};
  claude.projects[cwd] = {
    ...claude.projects[cwd],
    hasTrustDialogAccepted: true,
    ...(approveAll ? { enableAllProjectMcpServers: true } : {}),
  };
  writeFileSync(claudeFile, JSON.stringify(claude));
  mkdirSync(join(home, '.codex'), { recursive: true });
  const codexFile = join(home, '.codex', 'config.toml');
  const codex = existsSync(codexFile) ? readFileSync(codexFile, 'utf8') : '';
  if (!codex.includes(`[projects.${JSON.stringify(cwd)}]`))
    writeFileSync(codexFile, `[projects.${JSON.stringify(cwd)}]\ntrust_level = "trusted"\n\n${codex}`);
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [cwd]: 'TRUST_FOLDER' }));
  return home;
}
