import { describe, expect, it } from 'vitest';
import { bm25Query } from '../../src/core/discover/bm25.js';
import { bm25For } from '../../src/core/discover/build.js';
import { buildDiscoverIndex, rankTools } from '../../src/core/discover/index.js';
import { joinedWords } from '../../src/core/discover/joined.js';
import { mutedState } from '../../src/core/discover/state.js';
import { describedObject } from '../../src/core/discover/checks/described-object.js';
import { askedAs } from '../../src/core/discover/mood.js';
import { nounWords, pluralOf } from '../../src/core/discover/checks/noun-number.js';
import { singularSibling } from '../../src/core/discover/checks/plural-sibling.js';
import { joinedCompounds, intentText } from '../../src/core/discover/tokenize.js';
import { catalogueEntry as ref } from '../helpers/catalogue-entry.js';

describe('question grammar: the command a read question amounts to (issue 29)', () => {
  it('"how many X" asks for a count of X', () => {
    expect(askedAs('how many documents are in the orders collection?')).toMatchObject({
      text: 'count documents are in the orders collection',
      rule: 'count',
      read: true,
    });
  });

  it('"what is in X" lists X, reads it after a participle, searches it for a topic, and leaves events alone', () => {
    expect(askedAs("what's in the R2 bucket assets?")).toMatchObject({
      text: 'list the R2 bucket assets',
      rule: 'contents',
    });
    // A word between "what's" and "in" says what of X is asked, and is kept.
    expect(askedAs("what's left in the current directory?").text).toBe('list left the current directory');
    expect(askedAs("what's hot in r/programming right now?")).toMatchObject({
      text: 'list hot r/programming right now',
      container: 'r/programming right now',
    });
    expect(askedAs('what is written in my Google Doc Meeting Notes?')).toMatchObject({
      text: 'read my Google Doc Meeting Notes',
      rule: 'contents',
    });
    expect(askedAs("what's on the web about the Rust 2024 edition?")).toMatchObject({
      text: 'search the web for the Rust 2024 edition',
      rule: 'contents',
    });
    // "happening" asks for events, not contents; "what is the weather" names no container.
    expect(askedAs("what's happening in Italy right now?").rule).toBeUndefined();
    expect(askedAs('what is the weather in Paris?').rule).toBeUndefined();
  });

  it('"what does X say" reads X when its last word is a verb, and not when the subject is a pronoun', () => {
    expect(askedAs('what does the config.yaml file say?')).toMatchObject({
      text: 'read the config.yaml file',
      rule: 'says',
    });
    expect(askedAs('what does the README say about setup?').text).toBe('read the README about setup');
    // "stock" is no verb: the clause goes on past the verb, and no rule reads it.
    expect(askedAs('what do the top traders suggest regarding Amazon stock?').rule).toBeUndefined();
    // "what do we know about X": a pronoun subject, read as a question about a topic instead.
    expect(askedAs('what do we know about alice?')).toMatchObject({
      text: 'search what do we know about alice',
      rule: 'topic',
    });
  });

  it('"is X on" asks for the state of X; "is there" and "is it" do not', () => {
    expect(askedAs('is the new-checkout flag on in production?')).toMatchObject({
      text: 'check the status of the new-checkout flag on in production',
      rule: 'status',
    });
    expect(askedAs('is there a Heroku app called billing?').rule).not.toBe('status');
    expect(askedAs('is it raining in Paris?').rule).toBeUndefined();
  });

  it('"where is X" asks to look for X; "where can I find" is already a request to find', () => {
    expect(askedAs('where is the Q3 budget spreadsheet on my OneDrive?')).toMatchObject({
      text: 'look for the Q3 budget spreadsheet on my OneDrive',
      rule: 'where',
    });
    expect(askedAs('Where can I find free picture books?').rule).toBeUndefined();
  });

  it('a topic makes a search only in a question led by a wh-word or an auxiliary', () => {
    expect(askedAs('what news is there about the Mars mission?').rule).toBe('topic');
    expect(askedAs('I want to learn more about history, can you recommend a podcast?').rule).toBeUndefined();
  });

  it('"which Ns does X have" describes X; "which Ns do I have" lists Ns', () => {
    expect(askedAs('which fields does the Airtable table Leads have?')).toMatchObject({
      text: 'describe which fields does the Airtable table Leads have',
      rule: 'parts',
    });
    expect(askedAs('which Netlify sites do I have?')).toMatchObject({
      text: 'list which Netlify sites do I have',
      rule: 'many',
    });
  });

  it('"for" after a plural narrows it; "status" is no plural; a verb after "who" is no plural', () => {
    expect(askedAs('are there n8n templates for Slack alerts?')).toMatchObject({ rule: 'narrows' });
    expect(askedAs('what is the status of my Replicate prediction abc123?').rule).toBeUndefined();
    expect(askedAs('who follows my LINE bot?').rule).toBeUndefined();
  });

  it('the state many things are asked in filters the listing and weighs less than what it lists', () => {
    expect(askedAs('which Datadog monitors are alerting?').state).toEqual(['alerting']);
    expect(askedAs('which Azure DevOps pipeline runs failed last night?').state).toEqual(['failed', 'last', 'night']);
    // A place ends the state; a question after no plural, or narrowing its plural, has none.
    expect(askedAs('what pull requests are waiting in the GitHub repository?').state).toEqual(['waiting']);
    expect(askedAs('which Netlify sites do I have?').state).toBeUndefined();
    expect(askedAs('which Linear issues mention the login bug?').state).toBeUndefined();
    const asked = askedAs('which monitors are alerting?');
    const q = mutedState(bm25Query(asked.text), asked.text, asked.state);
    expect(q.weights[q.terms.indexOf('alert')]).toBe(0.5);
    expect(q.weights[q.terms.indexOf('monitor')]).toBe(1);
    // A word the question also says outside its state keeps its weight.
    const both = askedAs('which alert monitors are alerting?');
    const b = mutedState(bm25Query(both.text), both.text, both.state);
    expect(b.weights[b.terms.indexOf('alert')]).toBe(1);
    const index = buildDiscoverIndex([ref('datadog', 'get_monitors', 'Get the monitors of the account')]);
    const r = rankTools(index, 'which monitors are alerting?', { engine: 'bm25', k: 1 });
    expect(r.reading).toContain('the state the things asked for are in, weighed less: "alerting"');
  });

  it('a dot inside a file name does not end the first clause', () => {
    // With the clause cut at "config.", the verb would be "config" and no rule would read it.
    expect(askedAs('what does the config.yaml file say? It is in the repo root.').text).toBe(
      'read the config.yaml file It is in the repo root.',
    );
  });

  it('--explain names the rule that read the question', () => {
    const index = buildDiscoverIndex([ref('mongodb', 'count', 'Count the documents in a collection')]);
    const r = rankTools(index, 'how many documents are in the orders collection?', { engine: 'hybrid', k: 1 });
    expect(r.reading).toEqual([
      'ranked as the command "count documents are in the orders collection" (question grammar, count: "how many" asks for a count)',
    ]);
  });
});

describe('compounds and words the catalogue writes as one', () => {
  it('joins hyphen and slash compounds, not paths, URLs or file names', () => {
    expect(joinedCompounds('what is on my GitLab to-do list')).toBe('todo');
    expect(joinedCompounds('check free/busy for tomorrow')).toBe('freebusy');
    expect(joinedCompounds('read /etc/hosts and https://a.example/x-y')).toBe('');
    expect(joinedCompounds('no compound here')).toBe('');
    expect(intentText('my to-do list')).toBe('my to-do list todo');
  });

  it('searches two adjacent words joined when a tool name holds the join', () => {
    const index = buildDiscoverIndex([
      ref('ms-365', 'list-todo-tasks', 'List the tasks of a To Do list'),
      ref('forms', 'get_forme', 'Get a form'),
      ref('docs', 'read_doc', 'Read a document; a webhook fires on change'),
    ]);
    const bm = bm25For(index, index.weights);
    const to = joinedWords(index, bm, bm25Query('list my Microsoft To Do tasks'), 'list my Microsoft To Do tasks');
    expect(to.joined).toEqual(['to do → todo']);
    expect(to.query.weights[to.query.terms.indexOf('todo')]).toBe(0.5);
    expect(to.query.literal).toContain('todo');
    // Stop words join only inside a capitalised name; a join only a description holds is no name.
    expect(joinedWords(index, bm, bm25Query('find a form for me'), 'find a form for me').joined).toEqual([]);
    expect(joinedWords(index, bm, bm25Query('add a web hook'), 'add a web hook').joined).toEqual([]);
  });
});

describe('the container of a contents question', () => {
  it('raises the tools that take the container as input, not those listing the containers', () => {
    expect(askedAs("what's in the R2 bucket assets?").container).toBe('the R2 bucket assets');
    expect(askedAs('list the objects in the R2 bucket assets').container).toBeUndefined();
    const index = buildDiscoverIndex([
      { ...ref('r2', 'list_buckets', 'List all R2 buckets in your account') },
      {
        ...ref('r2', 'list_objects', 'List objects in an R2 bucket'),
        tool: {
          name: 'list_objects',
          description: 'List objects in an R2 bucket',
          inputSchema: { type: 'object', properties: { bucket: { type: 'string' }, prefix: { type: 'string' } } },
        },
      },
    ]);
    const r = rankTools(index, "what's in the R2 bucket assets?", { engine: 'hybrid', k: 2 }).results;
    expect(r.find((t) => t.id === 'r2.list_objects')?.reasons?.container).toBeGreaterThan(0);
    expect(r.find((t) => t.id === 'r2.list_buckets')?.reasons?.container).toBeUndefined();
    // And the tool listing the containers names "buckets" for one bucket: it loses the number share.
    expect(r.find((t) => t.id === 'r2.list_buckets')?.reasons?.number).toBeLessThan(0);
  });
});

describe('grammatical number in a question', () => {
  it('tells a plural from its singular by the surface, not the stem', () => {
    expect(pluralOf('workspace', 'workspaces')).toBe(true);
    expect(pluralOf('query', 'queries')).toBe(true);
    expect(pluralOf('follows', 'follower')).toBe(false);
    expect(pluralOf('workspaces', 'workspace')).toBe(false);
    // Abbreviations are written out; stop words and the verbs of an action class ("list") are left out.
    expect(nounWords(['which', 'prs', 'list', 'are', 'stale'])).toEqual(['pull', 'requests', 'stale']);
  });

  it('a getter is no acting tool for a question, although its analysed name drops "get"', () => {
    // "get_monitors" analysed is "monitor", which WordNet has mostly as a verb: it read as acting before.
    const index = buildDiscoverIndex([
      ref('datadog', 'get_monitors', 'Get the monitors'),
      ref('datadog', 'resolve_monitors', 'Resolve the monitors'),
    ]);
    const r = rankTools(index, 'which monitors are there?', { engine: 'hybrid', k: 2 }).results;
    expect(r.find((t) => t.id === 'datadog.get_monitors')?.reasons?.question).toBeUndefined();
    expect(r.find((t) => t.id === 'datadog.resolve_monitors')?.reasons?.question).toBeLessThan(0);
  });

  it('a question after many things ranks the plural getter above the singular one; a command is not checked', () => {
    const index = buildDiscoverIndex([
      ref('postman', 'getWorkspace', 'Get a workspace by id'),
      ref('postman', 'getWorkspaces', 'Get all workspaces'),
    ]);
    const ids = (intent: string) => rankTools(index, intent, { engine: 'hybrid', k: 2 }).results;
    const asked = ids('which Postman workspace do I have?');
    expect(asked.map((t) => t.id)[0]).toBe('postman.getWorkspace');
    expect(asked.find((t) => t.id === 'postman.getWorkspaces')?.reasons?.number).toBeLessThan(0);
    const many = ids('which Postman workspaces do I have?');
    expect(many[0]!.id).toBe('postman.getWorkspaces');
    expect(many.find((t) => t.id === 'postman.getWorkspace')?.reasons?.number).toBeLessThan(0);
    const told = ids('get my Postman workspaces');
    expect(told.every((t) => t.reasons?.number === undefined)).toBe(true);
  });

  it('a question after many things, in other words than the tools, prefers the plural of two sibling names', () => {
    expect(singularSibling(['mail', 'message'], ['mail', 'messages'])).toBe(true);
    expect(singularSibling(['mail', 'messages'], ['mail', 'message'])).toBe(false);
    expect(singularSibling(['mail', 'message'], ['mail', 'folder', 'messages'])).toBe(false);
    // A word the question gives in the singular names one thing: it is not checked.
    expect(singularSibling(['collection'], ['collections'], ['requests', 'collection'])).toBe(false);
    const index = buildDiscoverIndex([
      ref('mail', 'get-mail-message', 'Get an email message from the mailbox, with unread and read flags'),
      ref('mail', 'list-mail-messages', 'List mail messages'),
    ]);
    const rank = (intent: string) => rankTools(index, intent, { engine: 'hybrid', k: 2 }).results;
    const asked = rank('do I have any unread emails?');
    expect(asked.find((t) => t.id === 'mail.get-mail-message')?.reasons?.number).toBeLessThan(0);
    expect(asked.find((t) => t.id === 'mail.list-mail-messages')?.reasons?.number).toBeUndefined();
    // A command is not checked; nor a question after one thing.
    expect(rank('get my unread emails').every((t) => t.reasons?.number === undefined)).toBe(true);
    expect(rank('what does the unread email say?').every((t) => t.reasons?.number === undefined)).toBe(true);
  });

  it('a read question gains the tools whose description opens by returning what it asks for', () => {
    expect(describedObject('List KV namespaces in your account')).toBe('namespaces');
    expect(describedObject('Get the message quota and consumption of the account.')).toBe('quota');
    // A description opening with a verb that does not read says nothing of what the tool returns.
    expect(describedObject('Delete a KV namespace')).toBeUndefined();
    const index = buildDiscoverIndex([
      ref('cf', 'kv_list', 'List the keys of a KV namespace'),
      ref('cf', 'get_kvs', 'List KV namespaces in your account'),
    ]);
    const rank = (intent: string) => rankTools(index, intent, { engine: 'hybrid', k: 2 }).results;
    const asked = rank('which KV namespaces do I have on Cloudflare?');
    expect(asked[0]!.id).toBe('cf.get_kvs');
    expect(asked[0]!.reasons?.described).toBeGreaterThan(0);
    expect(asked.find((t) => t.id === 'cf.kv_list')?.reasons?.described).toBeUndefined();
    // Only the thing asked counts, not the place asked in ("namespace" after "in").
    expect(
      rank('which keys are in my KV namespaces?').find((t) => t.id === 'cf.get_kvs')?.reasons?.described,
    ).toBeUndefined();
    // A command opening with a read verb asks for its object as surely; one whose read verb comes later is not checked.
    const told = rank('list my KV namespaces');
    expect(told[0]!.id).toBe('cf.get_kvs');
    expect(told[0]!.reasons?.described).toBeGreaterThan(0);
    expect(rank('since we are done, show my KV namespaces').every((t) => t.reasons?.described === undefined)).toBe(
      true,
    );
  });
});
