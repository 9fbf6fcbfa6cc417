// One set of client names for --client, adopt <client> and serve --print-config: print-config showed `gemini-cli`
// and accepted `gemini`, while --client and adopt took only `gemini` and refused the name print-config printed.
import { describe, expect, it } from 'vitest';
import { CLIENT_IDS, parseClientName } from '../../src/core/config/clients.js';
import { CLIENTS, parseClientName as parsePrintName } from '../../src/app/services/print-config.js';

describe('client names', () => {
  it('every name print-config takes is a client id --client takes, and back', () => {
    for (const id of CLIENT_IDS) expect(parseClientName(parsePrintName(id)).client).toBe(id);
    for (const name of CLIENTS) expect(parsePrintName(parseClientName(name).client!)).toBe(name);
  });

  it('takes the clients’ own names and common spellings', () => {
    for (const [value, id] of [
      ['gemini-cli', 'gemini'],
      ['Gemini CLI', 'gemini'],
      ['claude code', 'claude-code'],
      ['Claude_Desktop', 'claude-desktop'],
      ['VS Code', 'vscode'],
      ['Roo Code', 'roo'],
    ] as const) {
      expect(parseClientName(value).client, value).toBe(id);
      expect(parsePrintName(value)).toBe(id === 'gemini' ? 'gemini-cli' : id);
    }
  });

  it('suggests the nearest name, in the naming of the flag that was given', () => {
    expect(parseClientName('gemni')).toEqual({ suggestion: 'gemini' });
    expect(() => parsePrintName('gemni')).toThrow(/Did you mean "gemini-cli"\?/);
    expect(parseClientName('notepad').client).toBeUndefined();
  });
});
