/**
 * One shape for every command's declaration: name, description, arguments, options, help text and the runner it
 * loads. `program.ts` builds the commander program from the list in `specs.ts`; each command's spec sits beside
 * the command (`<command>.spec.ts`), kept apart from it so `--help` loads no command module.
 */
import { Option, type Command } from 'commander';
import { SmartError } from '../process/errors.js';
import type { CommandContext } from '../app/services/context.js';

/** A command module's one export, as the program calls it (positional arguments, then its own options). */
export type CommandRunner = (
  ctx: CommandContext,
  args: string[],
  opts: Record<string, unknown>,
) => Promise<{ exitCode: number }>;

export interface OptionSpec {
  /** As commander takes them: `-o, --output <file>`, `--no-cache`, `-k <n>`. */
  flags: string;
  description: string;
  /** The only values accepted; anything else is a usage error naming the flag. */
  choices?: readonly string[];
  /** The value when the flag is not given (shown in --help). */
  default?: string;
  /** Each use adds a value: the option's value is the list of them. */
  repeatable?: true;
  /** What to say when the value is given empty (`-o ""`, an unset `$VAR`); default: give a <value>. */
  empty?: string;
  /**
   * The flag this one only counts with, and why (a sentence): given without it, the option is refused (BAD_FLAG)
   * before anything runs, instead of being ignored without a word (`check -k 3` with no --queries).
   */
  needs?: { flag: string; why: string };
}

export interface ArgumentSpec {
  /** `<name>` required, `[name]` optional, `[name...]` any number. */
  name: string;
  description: string;
}

export interface CommandSpec {
  name: string;
  description: string;
  args?: readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  /** Printed after the options by --help: examples, and a note where one is needed. */
  help: string;
  /** The command module, imported only when the command runs so --help stays fast. */
  load: () => Promise<CommandRunner>;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * The commander option an OptionSpec declares. A value given empty is a usage error naming the flag: `-o "$OUT"`
 * with OUT unset read as no -o at all (a snapshot on stdout, exit 0), `--baseline ""` as the default file.
 */
export function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices) option.choices(spec.choices);
  if (spec.default !== undefined) option.default(spec.default);
  const placeholder = /<([^>]+)>/.exec(spec.flags)?.[1];
  if (placeholder === undefined || spec.choices) {
    if (spec.repeatable) option.argParser(collect);
    return option;
  }
  const flag = option.long ?? option.short ?? spec.flags;
  const hint = spec.empty ?? `Give a <${placeholder}> as in --help, or leave ${flag} out.`;
  const nonEmpty = (value: string): string => {
    if (value === '') throw new SmartError('BAD_FLAG', { flag, value, hint });
    return value;
  };
  if (spec.repeatable)
    return option.argParser((value: string, previous?: string[]) => collect(nonEmpty(value), previous));
  return option.argParser(nonEmpty);
}

/** Declares a spec's arguments, options and help text on a command; the caller adds the action. */
export function declare(command: Command, spec: Omit<CommandSpec, 'name' | 'load'>): Command {
  command.description(spec.description);
  for (const arg of spec.args ?? []) command.argument(arg.name, arg.description);
  for (const option of spec.options ?? []) command.addOption(toOption(option));
  return command.addHelpText('after', spec.help);
}

/** Refuses an option given on the command line without the flag its `needs` names (see OptionSpec.needs). */
export function refuseWithoutNeeded(command: Command, specs: readonly OptionSpec[]): void {
  const find = (flag: string): Option | undefined => command.options.find((o) => o.long === flag || o.short === flag);
  for (const spec of specs) {
    const own = spec.needs && command.options.find((o) => o.flags === spec.flags);
    if (!spec.needs || !own || command.getOptionValueSource(own.attributeName()) !== 'cli') continue;
    const needed = find(spec.needs.flag);
    const value: unknown = needed && command.getOptionValue(needed.attributeName());
    if (value !== undefined && value !== false) continue;
    const flag = own.long ?? own.short ?? spec.flags;
    throw new SmartError('BAD_FLAG', {
      flag,
      value: String(command.getOptionValue(own.attributeName())),
      hint: `${spec.needs.why} Add ${spec.needs.flag}, or leave ${flag} out.`,
    });
  }
}

/** Options several commands share by flag, each command saying in its own words what it does with them. */
export const storeOption = (description: string): OptionSpec => ({ flags: '--store <file-or-url>', description });
export const outputOption = (description: string): OptionSpec => ({ flags: '-o, --output <file>', description });
export const renderOption = (description: string): OptionSpec => ({
  flags: '--render <style>',
  description,
  choices: ['json', 'cline'],
  default: 'json',
});
