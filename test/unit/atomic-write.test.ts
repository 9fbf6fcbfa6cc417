import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileSafe } from '../../src/process/safe-write.js';
import { tempDir } from '../helpers/temp.js';

describe('writeFileSafe', () => {
  it('creates missing folders, leaves no temp file, and gives a new file the umask mode', async () => {
    const dir = tempDir('mcp-smart-atomic-');
    const file = join(dir, 'a', 'b', 'mcp-smart.lock.json');
    await writeFileSafe(file, '{"x":1}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"x":1}\n');
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['mcp-smart.lock.json']);
    const umask = process.umask();
    expect(statSync(file).mode & 0o777).toBe(0o666 & ~umask);
  });

  it('keeps the mode of the file it replaces', async () => {
    const dir = tempDir('mcp-smart-atomic-');
    const file = join(dir, 'usage.json');
    writeFileSync(file, 'old');
    chmodSync(file, 0o600);
    await writeFileSafe(file, new TextEncoder().encode('new'));
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('writeFileSafe never replaces a file it may not write', () => {
  it('a read-only file is refused naming it, and stays as it was (a rename in a writable folder would replace it)', async () => {
    const dir = tempDir('mcp-smart-atomic-');
    const file = join(dir, 'usage.json');
    writeFileSync(file, 'kept');
    chmodSync(file, 0o444);
    await expect(writeFileSafe(file, 'new')).rejects.toThrow(
      `Cannot write ${file}: it is read-only (mode 0444); mcp-smart never replaces a file it may not write`,
    );
    expect(readFileSync(file, 'utf8')).toBe('kept');
    expect(statSync(file).mode & 0o777).toBe(0o444);
    expect(readdirSync(dir)).toEqual(['usage.json']);
  });
});
