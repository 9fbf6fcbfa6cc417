import { describe, expect, it } from 'vitest';
import {
  actsEvidence,
  actsReasons,
  agentAction,
  annotationsAct,
  asksToActBesides,
  descriptionActs,
  nameAgent,
} from '../../src/core/discover/acts.js';
import { nameActs } from '../../src/core/discover/actions.js';
import { buildDiscoverIndex, rankTools } from '../../src/core/discover/index.js';
import { isQuestion } from '../../src/core/discover/mood.js';
import { catalogueEntry as tool } from '../helpers/catalogue-entry.js';

// Tool shapes as their servers publish them (the 111-server catalogue, ../shared/data/servers-111).
const LINE = [
  tool(
    'line-bot',
    'broadcast_text_message',
    'Broadcast a simple text message via LINE to all users who have followed your LINE Official Account.',
    { destructiveHint: true },
  ),
  tool(
    'line-bot',
    'get_follower_ids',
    'Get a list of user IDs of users who have added the LINE Official Account as a friend.',
    { readOnlyHint: true },
  ),
  tool('line-bot', 'push_text_message', 'Push a simple text message to a user via LINE.', { destructiveHint: true }),
];
const NETLIFY = [
  tool(
    'netlify',
    'netlify-deploy-services-updater',
    'Select and run one of the following Netlify write operations deploy-site',
    { readOnlyHint: false },
  ),
  tool(
    'netlify',
    'netlify-deploy-services-reader',
    'Select and run one of the following Netlify read operations (read-only) get-deploy',
    { readOnlyHint: true },
  ),
];
const WRONG_HINTS = [
  // Annotated as destructive, yet its name's verb reads: the name decides.
  tool('excel', 'excel_describe_sheets', 'List all sheet information of specified Excel file', {
    readOnlyHint: false,
    destructiveHint: true,
  }),
  tool('notion', 'API-post-search', 'Notion | Search by title', { destructiveHint: true }),
];

describe('evidence that a tool acts (issue 29)', () => {
  it('reads an agent noun ending a name as its action, through the verb it is made from', () => {
    expect(agentAction('updater')).toBe('update');
    expect(agentAction('reader')).toBe('read');
    expect(agentAction('creator')).toBe('create');
    expect(agentAction('writer')).toBe('create');
    // A word that is no agent of an action verb, or too short to be one ("seer").
    expect(agentAction('folder')).toBeUndefined();
    expect(agentAction('seer')).toBeUndefined();
    expect(nameAgent('netlify-deploy-services-updater')).toBe('update');
    expect(nameAgent('analyze_issue_with_seer')).toBeUndefined();
  });

  it('reads the opening verb of a description, unless the first sentence also reads', () => {
    expect(descriptionActs('Create a new pull request in a GitHub repository')).toBe(true);
    expect(descriptionActs('  Delete a branch. Lists nothing.')).toBe(true);
    expect(descriptionActs('Get the message quota and consumption of the LINE Official Account.')).toBe(false);
    // An everyday verb of a class is no tool verb: "Generate Photorealistic prompts" acts on nothing.
    expect(descriptionActs('Generate Photorealistic prompts for Midjourney.')).toBe(false);
    expect(descriptionActs('Create music playlists, search for music, and check out the latest songs')).toBe(false);
    expect(descriptionActs(undefined)).toBe(false);
  });

  it('reads destructiveHint and a false readOnlyHint', () => {
    expect(annotationsAct({ destructiveHint: true })).toBe(true);
    expect(annotationsAct({ readOnlyHint: false })).toBe(true);
    expect(annotationsAct({ readOnlyHint: true })).toBe(false);
    expect(annotationsAct(undefined)).toBe(false);
  });

  it('counts each kind of evidence once; a name that reads outweighs its annotations', () => {
    const index = buildDiscoverIndex([
      ...LINE,
      ...NETLIFY,
      ...WRONG_HINTS,
      tool('github', 'create_pull_request', 'Create a new pull request in a GitHub repository'),
    ]);
    const of = (id: string) =>
      actsEvidence(
        index,
        index.tools.findIndex((t) => t.id === id),
        nameActs,
      );
    expect(of('line-bot.broadcast_text_message')).toEqual(['annotations']);
    expect(of('line-bot.push_text_message')).toEqual(['name', 'annotations']);
    expect(of('line-bot.get_follower_ids')).toEqual([]);
    expect(of('netlify.netlify-deploy-services-updater')).toEqual(['name', 'annotations']);
    expect(of('netlify.netlify-deploy-services-reader')).toEqual([]);
    expect(of('excel.excel_describe_sheets')).toEqual([]);
    expect(of('notion.API-post-search')).toEqual([]);
    expect(of('github.create_pull_request')).toEqual(['name', 'description']);
    expect(actsReasons(['name', 'annotations', 'description'], -0.5)).toEqual({
      question: -0.125,
      hints: -0.25,
      opening: -0.125,
    });
  });

  it('a sentence after the question that asks to act lifts the check', () => {
    expect(asksToActBesides('Where is my notes? Forward it exactly to Bob please.', isQuestion)).toBe(true);
    expect(asksToActBesides('Where are my notes? Delete the oldest one.', isQuestion)).toBe(true);
    // Another question, a polite request to tell, or one sentence only: the check stays.
    expect(asksToActBesides('Why do earthquakes happen? Can you provide me with the latest one?', isQuestion)).toBe(
      false,
    );
    expect(asksToActBesides('Which sites do I have? What are their names?', isQuestion)).toBe(false);
    expect(asksToActBesides('which Netlify sites do I have?', isQuestion)).toBe(false);
  });

  it('a question ranks the tool that reads over the one that sends, and --explain says why', () => {
    const index = buildDiscoverIndex(LINE);
    const q = rankTools(index, 'who follows my LINE bot?', { engine: 'hybrid', k: 3 });
    expect(q.results[0]!.id).toBe('line-bot.get_follower_ids');
    const broadcast = q.results.find((r) => r.id === 'line-bot.broadcast_text_message')!;
    expect(broadcast.reasons?.hints).toBeLessThan(0);
    expect(broadcast.reasons?.question).toBeUndefined();
    const push = q.results.find((r) => r.id === 'line-bot.push_text_message')!;
    expect(push.reasons?.question).toBeLessThan(0);
    // The server's own word weighs two shares, the name's one.
    expect(push.reasons?.hints).toBeCloseTo(2 * push.reasons!.question!, 10);
    // The reasons still sum to the score.
    const sum = Object.values(broadcast.reasons ?? {}).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(broadcast.score, 5);
    // A command is not checked.
    const c = rankTools(index, 'broadcast a text message to my LINE followers', { engine: 'hybrid', k: 3 });
    expect(c.results[0]!.id).toBe('line-bot.broadcast_text_message');
    expect(c.results.every((r) => r.reasons?.hints === undefined)).toBe(true);
  });
});
