import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READ_AS, readJsonFile, readTextFile } from '../../src/process/read-file.js';
import { SmartError } from '../../src/process/errors.js';
import { tempDir } from '../helpers/temp.js';

describe('read-file', () => {
  const dir = tempDir('mcp-smart-read-');
  writeFileSync(join(dir, 'bom.json'), '\ufeff{"a":1}');
  writeFileSync(join(dir, 'bad.json'), '{"a":');
  writeFileSync(join(dir, 'plain'), 'x');
  mkdirSync(join(dir, 'folder'));

  it('strips a byte-order mark and resolves against cwd', async () => {
    expect(await readJsonFile('bom.json', dir, READ_AS.config)).toEqual({ a: 1 });
  });

  it('treats a missing file, and a path through a regular file, as absent', async () => {
    expect(await readTextFile('nope.json', dir, READ_AS.config)).toBeUndefined();
    expect(await readTextFile('plain/inside.json', dir, READ_AS.config)).toBeUndefined();
  });

  it('names the file for a folder (FILE_UNREADABLE) and for bad JSON (FILE_PARSE)', async () => {
    await expect(readTextFile('folder', dir, READ_AS.config)).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      details: { file: 'folder' },
    });
    const err = await readJsonFile('bad.json', dir, READ_AS.config).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmartError);
    expect((err as SmartError).code).toBe('FILE_PARSE');
    expect((err as SmartError).message).toContain('bad.json');
  });
});
