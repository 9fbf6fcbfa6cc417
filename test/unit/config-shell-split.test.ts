import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../../src/core/config/shell-split.js';
import { SmartError } from '../../src/process/errors.js';

describe('splitCommandLine', () => {
  it('splits on runs of whitespace', () => {
    expect(splitCommandLine('  node   dist/index.js\t--port 3000 ')).toEqual([
      'node',
      'dist/index.js',
      '--port',
      '3000',
    ]);
  });

  it('keeps quoted spaces and joins adjacent quoted parts', () => {
    expect(splitCommandLine(`node "my server.js" 'a b'c --x="1 2"`)).toEqual([
      'node',
      'my server.js',
      'a bc',
      '--x=1 2',
    ]);
  });

  it('treats single quotes literally and honours escapes in double quotes', () => {
    expect(splitCommandLine(`echo 'a\\"b' "c\\"d\\\\e\\n"`)).toEqual(['echo', 'a\\"b', 'c"d\\e\\n']);
  });

  it('backslash escapes outside quotes', () => {
    expect(splitCommandLine('node my\\ server.js \\"x\\"')).toEqual(['node', 'my server.js', '"x"']);
  });

  it('keeps empty quoted words', () => {
    expect(splitCommandLine(`cmd "" ''`)).toEqual(['cmd', '', '']);
  });

  it('does no globbing, variables or operators', () => {
    expect(splitCommandLine('node *.js $HOME && rm -rf ; |')).toEqual([
      'node',
      '*.js',
      '$HOME',
      '&&',
      'rm',
      '-rf',
      ';',
      '|',
    ]);
  });

  it('rejects an unbalanced quote as BAD_FLAG naming --stdio', () => {
    let err: unknown;
    try {
      splitCommandLine('node "server.js');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SmartError);
    expect((err as SmartError).code).toBe('BAD_FLAG');
    expect((err as SmartError).message).toContain('--stdio');
    expect((err as SmartError).message).toContain('double quote');
  });

  it('returns nothing for a blank line', () => {
    expect(splitCommandLine('   ')).toEqual([]);
  });
});
