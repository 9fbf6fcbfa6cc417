// Import direction (STYLE §2): core/ never reaches the terminal, the process or presentation libraries,
// and only connect/ talks MCP. Checked on the source text so a violation fails the suite, not a review.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const CORE = join(REPO, 'src', 'core');
const FORBIDDEN_IN_CORE = [
  /from ['"]commander['"]/,
  /from ['"]chalk['"]/,
  /from ['"]cli-table3['"]/,
  /from ['"]@inquirer\//,
  /\bconsole\.(log|error|warn|info)\(/,
  /\bprocess\.(exit|stdout|stderr|argv|env)\b/,
  /\bDate\.now\(\)/,
  /\bMath\.random\(\)/,
  /from ['"]\.\.\/(\.\.\/)?(commands|reporters|cli)/,
];

describe('architecture', () => {
  const files = sourceFiles(CORE);

  it('finds the core sources', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it('core/ imports no presentation library and touches no process state', () => {
    const violations: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of FORBIDDEN_IN_CORE) {
        if (pattern.test(text)) violations.push(`${relative(REPO, file)}: ${pattern.source}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('only core/connect imports the MCP SDK client; only serve/ imports the SDK at all besides it', () => {
    const SERVE = join(REPO, 'src', 'serve');
    const offenders = sourceFiles(join(REPO, 'src'))
      .filter((f) => !f.startsWith(join(CORE, 'connect')) && !f.startsWith(SERVE))
      .filter((f) => /@modelcontextprotocol\/sdk/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(REPO, f));
    expect(offenders).toEqual([]);
    const clientInServe = sourceFiles(SERVE)
      .filter((f) => /@modelcontextprotocol\/sdk\/client\//.test(readFileSync(f, 'utf8')))
      .map((f) => relative(REPO, f));
    expect(clientInServe).toEqual([]);
  });

  it('only serve/ imports the MCP SDK server API', () => {
    const offenders = sourceFiles(join(REPO, 'src'))
      .filter((f) => !f.startsWith(join(REPO, 'src', 'serve')))
      // The SDK keeps the OAuth error classes its client-side auth() throws under server/auth/errors.js: a shared
      // type, not the server API.
      .filter((f) =>
        /@modelcontextprotocol\/sdk\/server\//.test(
          readFileSync(f, 'utf8').replaceAll('@modelcontextprotocol/sdk/server/auth/errors.js', ''),
        ),
      )
      .map((f) => relative(REPO, f));
    expect(offenders).toEqual([]);
  });
});
