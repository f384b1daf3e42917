import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLocalWorkspace } from '../../workspace/localWorkspace';
import { createAnthropicDriver } from '../anthropic/driver';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import type { ThreadEvent } from '../events';
import { foldAll, initialThreadState } from '../fold';
import { startFakeAnthropic, type FakeAnthropic } from '../node/fakeAnthropic';
import { catalogNode } from '../catalogNodes';

/**
 * Slash skills as Claude sees them: the workspace, the Anthropic driver and
 * the real SDK against a fake Messages API on 127.0.0.1.
 */
const list = defineCapability({ name: 'records.list', title: 'List records', description: 'Lists the records.', input: z.object({}), handler: () => textResult('3 records.') });
const recipe = catalogNode('default/Skill/recipe', {
  nodeType: 'Skill', name: '/recipe', description: 'The house soup recipe', order: 20,
  skill: { instructions: 'Always add salt last.', autoMount: false, launchesSubThread: false },
});

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function setup() {
  fake = await startFakeAnthropic({ reply: (_r, i) => ({ text: `Answer ${i + 1}.` }), minCacheTokens: 200 });
  const ws = createLocalWorkspace({ capabilities: [list], skills: [recipe], driver: createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url }) });
  const events: ThreadEvent[] = [];
  ws.subscribe('t1', (e) => events.push(e));
  return { ws, events, fake };
}

type Block = { type: string; text?: string; cache_control?: unknown };
const systemText = (body: { system: Block[] }) => body.system.map((b) => b.text ?? '').join('\n---\n');
const lastUserTexts = (body: { messages: { role: string; content: Block[] }[] }) => body.messages.at(-1)!.content.map((b) => b.text ?? '');

describe('load-skill directives and advertised skills, as the Messages API receives them', () => {
  it('advertises autoMount instruction skills in the cached system prefix, and only those', async () => {
    const { ws, fake } = await setup();
    await ws.send({ threadId: 't1', text: 'hello' });
    const { system } = fake.requests[0]!.body as { system: Block[] };
    const advert = system.find((b) => b.text?.includes('<available_skills>'));
    expect(advert?.cache_control).toEqual({ type: 'ephemeral' });
    expect(advert!.text).toContain('<skill name="/summarize">Summarise records, results or this thread in three plain bullet points</skill>');
    expect(advert!.text).toContain('<skill name="/help">');
    expect(advert!.text).not.toContain('/recipe');
    expect(advert!.text).not.toContain('<skill name="/agent">');
    expect(systemText(fake.requests[0]!.body)).not.toContain('<active_skills>');
  });

  it('loads the skill’s instructions into the active-skills slab, sends the task alone, and keeps the skill for later turns', async () => {
    const { ws, events, fake } = await setup();
    await ws.send({ threadId: 't1', text: 'hello' });
    await ws.send({ threadId: 't1', text: 'summarise the last import', skill: '/summarize' });
    await ws.send({ threadId: 't1', text: 'and now the one before' });

    const second = fake.requests[1]!.body;
    const skills = (second.system as Block[]).at(-1)!;
    expect(skills.text).toMatch(/^<active_skills>\n<skill_content name="Skill\/summarize" title="\/summarize">\nWhen this skill is loaded, answer with a summary and nothing else:/);
    expect(skills.text).toContain('exactly three bullet points');
    expect(skills.cache_control).toEqual({ type: 'ephemeral' });
    expect(lastUserTexts(second).at(-1)).toBe('summarise the last import');
    expect(fake.requests[1]!.raw).not.toContain('load_skill');

    const third = fake.requests[2]!.body;
    expect((third.system as Block[]).at(-1)!.text).toBe(skills.text);
    expect(lastUserTexts(third).at(-1)).toBe('and now the one before');
    // The skill joins after the advertised catalog: the tools, spine and catalog bytes do not move.
    const head = (i: number) => JSON.stringify([fake.requests[i]!.body.tools, fake.requests[i]!.body.system.slice(0, 2)]);
    expect(head(1)).toBe(head(0));
    expect(head(2)).toBe(head(0));

    const state = foldAll(initialThreadState, events);
    expect(state.activeSkills).toEqual(['Skill/summarize']);
    expect(state.rows.filter((r) => r.kind === 'user').map((r) => r.kind === 'user' && [r.skill, r.text])).toEqual([
      [undefined, 'hello'], ['/summarize', 'summarise the last import'], [undefined, 'and now the one before'],
    ]);
    expect(events.filter((e) => e.type === 'skill.activated')).toMatchObject([{ skill: 'Skill/summarize', title: '/summarize' }]);
  });

  it('loads a skill that is not advertised on demand, and runs on the model the composer picked', async () => {
    const { ws, fake } = await setup();
    ws.setComposer({ threadId: 't1', composer: { modelName: 'Model/claude-haiku-5-5' } });
    await ws.send({ threadId: 't1', text: 'make soup', skill: '/recipe' });
    const body = fake.requests[0]!.body;
    expect(body.model).toBe('claude-haiku-5-5');
    expect((body.system as Block[]).at(-1)!.text).toBe('<active_skills>\n<skill_content name="default/Skill/recipe" title="/recipe">\nAlways add salt last.\n</skill_content>\n</active_skills>');
    expect(lastUserTexts(body).at(-1)).toBe('make soup');
  });

  it('an unknown skill gets a clear row and Claude still gets the task', async () => {
    const { ws, events, fake } = await setup();
    await ws.send({ threadId: 't1', text: 'make soup', skill: '/soup' });
    expect(lastUserTexts(fake.requests[0]!.body).at(-1)).toBe('make soup');
    const rows = foldAll(initialThreadState, events).rows;
    expect(rows.map((r) => r.kind)).toEqual(['user', 'error', 'assistant']);
    expect(rows[1]).toMatchObject({ code: 'skill_not_loaded', message: 'There is no /soup skill here, so no instructions were loaded; the task went ahead without them.' });
    expect(rows[2]).toMatchObject({ text: 'Answer 1.' });
  });
});
