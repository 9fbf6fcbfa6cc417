/** `init`: writes mcp-smart.config.json, a first baseline and optionally a GitHub Actions workflow. */
import { shellQuote } from '../core/ci-workflow.js';
import type * as InquirerPrompts from '@inquirer/prompts';
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { optionalString, parseIntFlag, parseListFlag, parseShareFlag } from '../app/services/flags.js';
import { initProject, type InitQuestions, type InitSettings } from '../app/use-cases/init.js';
import { formatGrowthLimit, parseGrowthLimit } from '../core/budget/index.js';
import { INIT_SNAPSHOT_FILE, WORKFLOW_FILE, type InitResult } from '../core/init.js';
import { SmartError } from '../process/errors.js';
import { renderInit } from '../reporters/init.js';

type Prompts = typeof InquirerPrompts;

export interface InitFlags {
  yes?: boolean;
  force?: boolean;
  /** False with --no-baseline. */
  baseline?: boolean;
  maxGrowth?: string;
  max?: string;
  share?: string;
  github?: boolean;
  /** With --github: check a committed snapshot in CI even for project servers. */
  ciSnapshot?: boolean;
  servers?: string;
}

const readMax = (value: unknown): number => parseIntFlag('--max', value, { min: 1, example: '128000' });

/** A prompt's check by a flag's reader: true, or why the answer is refused (the flag's own hint). */
const answerCheck =
  (read: (v: string) => number) =>
  (v: string): true | string => {
    try {
      read(v);
      return true;
    } catch (e) {
      if (e instanceof SmartError) return String(e.details.hint);
      throw e;
    }
  };

/** The questions of an interactive run; every answer is also a flag. */
export function questionsOf(prompts: Prompts): InitQuestions {
  return {
    async settings(found: string[], a: InitSettings): Promise<InitSettings> {
      const servers =
        found.length > 1
          ? await prompts.checkbox({
              message: 'Servers to track',
              choices: found.map((n) => ({ name: n, value: n, checked: a.servers.includes(n) })),
              required: true,
            })
          : a.servers;
      // The answers are read by the flags' own rules (--max, --share): plain decimal, the same ranges.
      const max = readMax(
        await prompts.input({
          message: 'Context window (tokens)',
          default: String(a.max),
          validate: answerCheck(readMax),
        }),
      );
      const share = parseShareFlag(
        await prompts.input({
          message: 'Share of the window the tool context may use',
          default: String(a.share),
          validate: answerCheck(parseShareFlag),
        }),
      );
      const maxGrowth = await prompts.input({
        message: 'Allowed growth before check fails ("5%" or tokens)',
        default: a.maxGrowth,
        validate: (v) => (parseGrowthLimit(v) ? true : 'e.g. 5% or 500'),
      });
      const github = await prompts.confirm({ message: `Write ${WORKFLOW_FILE}?`, default: a.github });
      return { servers, max, share, maxGrowth: formatGrowthLimit(parseGrowthLimit(maxGrowth)!), github };
    },
    ciSnapshot: (selected) =>
      prompts.confirm({
        message: `The workflow would start ${selected.join(', ')} on the CI runner. Check a committed snapshot (${INIT_SNAPSHOT_FILE}) instead?`,
        default: true,
      }),
    overwrite: (file) => prompts.confirm({ message: `${file} exists. Overwrite it?`, default: false }),
  };
}

export async function runInitCommand(
  ctx: CommandContext,
  _args: string[],
  opts: InitFlags,
): Promise<CommandOutcome<InitResult>> {
  const { io, global } = ctx;
  const growthText = optionalString(opts.maxGrowth) ?? '5%';
  const growth = parseGrowthLimit(growthText);
  if (!growth)
    throw new SmartError('BAD_FLAG', {
      flag: '--max-growth',
      value: growthText,
      hint: 'Expected a percentage like "5%" or a number of tokens like "500".',
    });
  const max = readMax(opts.max ?? '200000');
  const share = parseShareFlag(opts.share ?? '0.1');
  // `--servers " , "` named none: it wrote a config of 0 servers over a baseline of all of them.
  const serversFlag = optionalString(opts.servers);
  const servers =
    serversFlag === undefined
      ? undefined
      : parseListFlag(
          '--servers',
          serversFlag,
          /,/,
          'Give server names separated by commas, or leave --servers out for every server.',
        );
  const interactive = io.stdinIsTTY && opts.yes !== true && global.format !== 'json';
  const prompts: Prompts | undefined = interactive ? await import('@inquirer/prompts') : undefined;

  const outcome = await initProject(
    ctx,
    {
      ...(servers ? { servers } : {}),
      max,
      share,
      maxGrowth: formatGrowthLimit(growth),
      github: opts.github === true,
      baseline: opts.baseline !== false,
      force: opts.force === true,
      ciSnapshot: opts.ciSnapshot === true,
    },
    prompts ? questionsOf(prompts) : undefined,
  );
  const { result, snapshotFile, refreshWords, updateCommand } = outcome;
  io.stdout(
    renderInit(result, {
      format: global.format,
      encoding: global.encoding,
      ...(snapshotFile !== undefined ? { snapshotFile } : {}),
      ...(refreshWords !== undefined
        ? { refreshCommand: ['mcp-smart', ...refreshWords].map(shellQuote).join(' ') }
        : {}),
      ...(updateCommand !== undefined ? { updateCommand } : {}),
    }),
  );
  return { result, exitCode: outcome.exitCode };
}
