/** The closing line of `servers` and `audit` on a terminal: the one next step that suits the setup. */
import { shellQuote } from '../core/ci-workflow.js';
import { CLIENTS } from '../core/config/clients.js';
import type { NextStep } from '../core/next-step.js';
import { formatShare, formatTokens } from './format.js';

/** One line, `Next: …`; `setup` are the global options to repeat (`--snapshot f`, `--demo`, …). */
export function renderNextStep(step: NextStep, command: 'servers' | 'audit', setup: readonly string[]): string {
  const cli = (...words: string[]): string => ['mcp-smart', ...setup, ...words].map(shellQuote).join(' ');
  switch (step.code) {
    case 'budget':
      return `Next: \`${cli('budget', '--max', String(step.max))}\` prints a plan that fits: the tools take ${formatTokens(step.tokens)} tokens, over the ${formatTokens(step.limit)} allowed (${formatShare(step.limit / step.max)} of ${formatTokens(step.max)}).\n`;
    case 'baseline':
      return command === 'servers'
        ? `Next: \`${cli('audit')}\` shows what these servers cost; \`${cli('init')}\` then records the baseline (${step.file}) that \`check\` gates on.\n`
        : `Next: \`${cli('init')}\` records these figures as the baseline (${step.file}) that \`check\` gates on (\`${cli('check', '--update')}\` writes the baseline alone).\n`;
    case 'adopt':
      return `Next: \`${cli('adopt', step.client)}\` moves the ${step.servers === 1 ? 'server' : `${step.servers} servers`} ${CLIENTS[step.client].label} loads behind \`mcp-smart serve\`, and prints the way back.\n`;
    case 'audit':
      return `Next: \`${cli('audit')}\` shows what these servers cost in tokens.\n`;
    case 'check':
      return `Next: \`${cli('check')}\` compares them with the baseline ${step.file} and exits 1 when they grew.\n`;
  }
}
