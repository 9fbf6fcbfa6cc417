import { describe, expect, it } from 'vitest';
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
