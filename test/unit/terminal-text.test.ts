// Only our own colours and line clears reach the terminal raw: a server's colour codes (`\x1b[8m` conceal inside a
// tool name) used to pass the filter because ours had to, and hid text with --no-color and NO_COLOR=1 too.
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { escapeControls, lineClear, markOwnOutput, ownColours, visibleText } from '../../src/process/terminal-text.js';

markOwnOutput();
const hidden = 'ev\x1b[8milhidden\x1b[0m';

describe('escapeControls: only our marked colours pass', () => {
  it("escapes a server's colour codes, with colours off and on", () => {
    expect(escapeControls(hidden)).toBe('ev\\u001b[8milhidden\\u001b[0m');
    const chalk = ownColours(new Chalk({ level: 0 }));
    expect(escapeControls(chalk.red(hidden))).toBe('ev\\u001b[8milhidden\\u001b[0m');
  });

  it('lets our colours through, nested or not, and escapes what they style', () => {
    const chalk = ownColours(new Chalk({ level: 1 }));
    expect(escapeControls(chalk.bold('Findings'))).toBe('\x1b[1mFindings\x1b[22m');
    expect(escapeControls(chalk.bold(`a ${chalk.red('b')} c`))).toBe('\x1b[1ma \x1b[31mb\x1b[39m c\x1b[22m');
    expect(escapeControls(chalk.red.bold(hidden))).toBe(
      '\x1b[31m\x1b[1mev\\u001b[8milhidden\\u001b[0m\x1b[22m\x1b[39m',
    );
    // A server's text that holds chalk's own close code is escaped before chalk sees it.
    expect(escapeControls(chalk.red('x\x1b[39my'))).toBe('\x1b[31mx\\u001b[39my\x1b[39m');
  });

  it("keeps our line clear and escapes a server's", () => {
    expect(escapeControls(`${lineClear()}Connecting`)).toBe('\r\x1b[2KConnecting');
    expect(escapeControls('name\r\x1b[2K')).toBe('name\\u000d\\u001b[2K');
  });

  it('visibleText escapes as escapeControls will, keeping our marks for the later pass', () => {
    const chalk = ownColours(new Chalk({ level: 1 }));
    const cell = `${chalk.bold('x')} ${hidden}`;
    expect(escapeControls(visibleText(cell))).toBe(escapeControls(cell));
    expect(visibleText(hidden)).toBe('ev\\u001b[8milhidden\\u001b[0m');
  });
});
