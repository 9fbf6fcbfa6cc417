import { describe, expect, it } from 'vitest';
import { buildDiscoverIndex, rankTools } from '../../src/core/discover/index.js';
import { AGENT_SHARE, askedAgents } from '../../src/core/discover/checks/agent-noun.js';

// Tool shapes as their servers publish them (the 111-server catalogue, ../shared/data/servers-111).
const tool = (name: string, description: string) => ({
  id: `line-bot.${name}`,
  server: 'line-bot',
  tool: { name, description, inputSchema: { type: 'object' as const } },
});
const TOOLS = [
  tool('get_follower_ids', 'Get a list of user IDs of users who have added the LINE Official Account as a friend.'),
  tool('get_profile', 'Get detailed profile information of a LINE user who follows the account.'),
  tool('get_message_quota', 'Get the message quota and consumption of the LINE Official Account.'),
];

describe('"who <verb>" asks for the verb\'s agents (issue 29)', () => {
  it('makes the agent nouns of the verb with -er / -or', () => {
    expect([...askedAgents('who follows my LINE bot?')]).toContain('follower');
    expect([...askedAgents('who reviewed GitHub PR 17?')]).toContain('reviewer');
    expect([...askedAgents('who created the page?')]).toContain('creator');
    // No "who", or an auxiliary after it ("who is in our workspace"): none.
    expect(askedAgents('which users follow my bot?').size).toBe(0);
    expect(askedAgents('who is in our Slack workspace?').size).toBe(0);
  });

  it('raises the tool whose name holds the agent noun, and --explain says so', () => {
    const index = buildDiscoverIndex(TOOLS);
    const r = rankTools(index, 'who follows my LINE bot?', { engine: 'hybrid', k: 3 }).results;
    const follower = r.find((t) => t.id === 'line-bot.get_follower_ids')!;
    expect(follower.reasons?.agent).toBeGreaterThan(0);
    expect(follower.reasons!.agent).toBeCloseTo(AGENT_SHARE * (r[0]!.score - (r[0]!.reasons?.agent ?? 0)), 1);
    expect(r.find((t) => t.id === 'line-bot.get_profile')?.reasons?.agent).toBeUndefined();
    expect(r[0]!.id).toBe('line-bot.get_follower_ids');
    // A command is not checked.
    const c = rankTools(index, 'list the followers of my LINE bot', { engine: 'hybrid', k: 3 }).results;
    expect(c.every((t) => t.reasons?.agent === undefined)).toBe(true);
  });
});
