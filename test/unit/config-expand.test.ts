import { describe, expect, it } from 'vitest';
import { CLIENTS } from '../../src/core/config/clients.js';
import { expandString, type ExpandContext } from '../../src/core/config/expand.js';

const ctx = (env: Record<string, string | undefined>, platform: NodeJS.Platform = 'linux'): ExpandContext => ({
  env,
  cwd: '/work/project',
  home: '/home/ada',
  platform,
});

describe('expandString', () => {
  it('expands ${VAR} and ${env:VAR}', () => {
    const r = expandString('${A}-${env:B}', ctx({ A: 'one', B: 'two' }));
    expect(r.value).toBe('one-two');
    expect(r.used).toEqual(['A', 'B']);
    expect(r.missing).toEqual([]);
  });

  it('uses the default when unset or empty, the value when set', () => {
    expect(expandString('${X:-fallback}', ctx({})).value).toBe('fallback');
    expect(expandString('${X:-fallback}', ctx({ X: '' })).value).toBe('fallback');
    expect(expandString('${X:-fallback}', ctx({ X: 'set' })).value).toBe('set');
    expect(expandString('${env:X:-d}', ctx({})).value).toBe('d');
    expect(expandString('${X:-}', ctx({})).missing).toEqual([]);
  });

  it('leaves a nested default and malformed forms as written and reports them (no stray brace)', () => {
    const nested = expandString('${SECRETX:-${UNSET_Q}}', ctx({ SECRETX: 'value' }));
    expect(nested.value).toBe('${SECRETX:-${UNSET_Q}}');
    expect(nested.passedThrough).toEqual(['SECRETX:-${UNSET_Q}']); // said as "${SECRETX:-${UNSET_Q}}"
    for (const form of ['${}', '${:-x}', '${A${B}}']) {
      const r = expandString(form, ctx({ A: 'a', B: 'b' }));
      expect(r.value, form).toBe(form);
      expect(r.passedThrough.length, form).toBe(1);
    }
  });

  it('replaces an unset variable without default by "" and reports it', () => {
    const r = expandString('Bearer ${TOKEN}', ctx({}));
    expect(r.value).toBe('Bearer ');
    expect(r.missing).toEqual(['TOKEN']);
  });

  it('resolves VS Code variables and reports input variables as unsupported', () => {
    expect(expandString('${workspaceFolder}/s.js', ctx({})).value).toBe('/work/project/s.js');
    expect(expandString('${workspaceFolderBasename}', ctx({})).value).toBe('project');
    expect(expandString('${userHome}/x', ctx({})).value).toBe('/home/ada/x');
    const r = expandString('${input:api-key}', ctx({}));
    expect(r.value).toBe('');
    expect(r.unsupported).toEqual(['input:api-key']);
  });

  it('leaves text that is not a reference alone', () => {
    expect(expandString('$HOME ${} ${1abc} plain', ctx({ HOME: '/h' })).value).toBe('$HOME ${} ${1abc} plain');
  });

  it('looks names up case-insensitively on Windows only', () => {
    expect(expandString('${appdata}', ctx({ APPDATA: 'C:\\AD' }, 'win32')).value).toBe('C:\\AD');
    expect(expandString('${appdata}', ctx({ APPDATA: 'C:\\AD' }, 'linux')).value).toBe('');
  });
});

describe('expandString with a client syntax', () => {
  it('Claude Code: ${VAR} and defaults; an unset one is kept and reported as refused; $VAR untouched', () => {
    const r = expandString('${A} ${B:-d} ${C} $A', ctx({ A: 'a' }), CLIENTS['claude-code'].vars);
    expect(r.value).toBe('a d ${C} $A');
    expect(r.refused).toEqual(['C']);
    expect(r.missing).toEqual([]);
  });

  it('Gemini: $VAR, ${VAR} and ${VAR:-default}; an unset one is kept as written', () => {
    const r = expandString('$A ${A} $B ${B} ${B:-x}', ctx({ A: 'a' }), CLIENTS.gemini.vars);
    expect(r.value).toBe('a a $B ${B} x');
    expect(r.keptLiteral).toEqual(['B', 'B']);
  });

  it('VS Code: ${env:VAR} and editor variables; a plain ${VAR} is passed through', () => {
    const r = expandString('${env:A}|${A}|${workspaceFolder}|${input:x}', ctx({ A: 'a' }), CLIENTS.vscode.vars);
    expect(r.value).toBe('a|${A}|/work/project|');
    expect(r.passedThrough).toEqual(['A']);
    expect(r.unsupported).toEqual(['input:x']);
  });

  it('Claude Desktop, Codex, Cline: nothing expands', () => {
    for (const c of ['claude-desktop', 'codex', 'cline'] as const) {
      const r = expandString('${A} ${env:A} $A ${workspaceFolder}', ctx({ A: 'a' }), CLIENTS[c].vars);
      expect(r.value).toBe('${A} ${env:A} $A ${workspaceFolder}');
    }
  });
});
