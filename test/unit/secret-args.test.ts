// One rule for a secret in a command line (adopt makes variables of them; servers --debug and trust hide them):
// the value after a flag named like a credential, never a variable's name or another flag.
import { describe, expect, it } from 'vitest';
import { argumentSecret, redactArguments, secretArguments } from '../../src/process/secret-args.js';

describe('secret flags in args', () => {
  it('hides the value after --password and after --token=, keeps everything else', () => {
    expect(
      redactArguments([
        '-y',
        'mcp-pg',
        '--password',
        'CorrectHorseBattery',
        '--token=mysecrettokenvalue',
        '--db',
        'app',
      ]),
    ).toEqual(['-y', 'mcp-pg', '--password', '***', '--token=***', '--db', 'app']);
  });

  it('a reference, an empty value, a following flag and a setting about a credential are left', () => {
    const args = ['--api-key', '${API_KEY}', '--token=$TOKEN', '--password', '--verbose', '--key-file', 'k.pem'];
    expect(secretArguments(args)).toEqual([]);
    expect(redactArguments(['--no-auth', 'x', '--secret='])).toEqual(['--no-auth', 'x', '--secret=']);
  });

  it('reports where each value stands, and argumentSecret reads one argument', () => {
    expect(secretArguments(['--api-key', 'sk-1', '--pat=ghp_2'])).toEqual([
      { index: 1, dashes: '--', flag: 'api-key', inline: false, value: 'sk-1' },
      { index: 2, dashes: '--', flag: 'pat', inline: true, value: 'ghp_2' },
    ]);
    expect(argumentSecret('--token=abc')).toBe('abc');
    expect(argumentSecret('plain')).toBe('plain');
  });
});
