// The program is built from one spec per command (src/commands/specs.ts): every command module is reachable through
// exactly one spec, each spec loads its own command's runner, and the program lists the specs in their order.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/commands/program.js';
import { COMMAND_SPECS } from '../../src/commands/specs.js';
import { toOption } from '../../src/commands/spec.js';
import { fakeIo } from '../helpers/fake-io.js';
import { REPO } from '../helpers/paths.js';

/** `store` → `runStoreCommand`: the name each command module gives its one export. */
const runnerName = (command: string): string => `run${command[0]!.toUpperCase()}${command.slice(1)}Command`;

describe('command specs', () => {
  it('the program has one subcommand per spec, in the specs’ order', () => {
    const program = buildProgram(fakeIo(), [], { exitCode: 0, json: false, debug: false });
    expect(program.commands.map((c) => c.name())).toEqual(COMMAND_SPECS.map((s) => s.name));
    expect(new Set(COMMAND_SPECS.map((s) => s.name)).size).toBe(COMMAND_SPECS.length);
  });

  it.each(COMMAND_SPECS.map((s) => [s.name, s]))('the "%s" spec loads that command’s runner', async (name, spec) => {
    const runner = await spec.load();
    expect(typeof runner).toBe('function');
    expect(runner.name).toBe(runnerName(name));
  });

  it('every command module in src/commands has a spec', () => {
    const dir = join(REPO, 'src', 'commands');
    const runners = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/export async function (run\w+Command)\b/g)])
      .map((m) => m[1]);
    expect(runners.length).toBeGreaterThanOrEqual(14);
    const declared = new Set(COMMAND_SPECS.map((s) => runnerName(s.name)));
    expect(runners.filter((r) => !declared.has(r!))).toEqual([]);
  });

  it('an option that needs another names one its own command declares (else it would always be refused)', () => {
    const needs = COMMAND_SPECS.flatMap((spec) =>
      (spec.options ?? []).flatMap((o) => (o.needs ? [{ command: spec.name, needed: o.needs.flag }] : [])),
    );
    expect(needs.length).toBeGreaterThanOrEqual(6);
    for (const { command, needed } of needs) {
      const flags = (COMMAND_SPECS.find((s) => s.name === command)?.options ?? []).flatMap((o) =>
        o.flags.split(/[ ,]+/).filter((f) => f.startsWith('-')),
      );
      expect(flags, `${command} ${needed}`).toContain(needed);
    }
  });

  it('a repeatable option collects every value; a choice option refuses others, naming them', () => {
    const tool = toOption({ flags: '--tool <id>', description: 't', repeatable: true });
    expect(tool.parseArg?.('b', tool.parseArg('a', undefined))).toEqual(['a', 'b']);
    const level = toOption({ flags: '--level <l>', description: 'l', choices: ['x', 'y'], default: 'x' });
    expect(level.defaultValue).toBe('x');
    expect(() => level.parseArg?.('z', undefined)).toThrow('Allowed choices are x, y.');
  });
});
