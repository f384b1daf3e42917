import { describe, expect, it, vi } from 'vitest';
import { createEventLog } from '../eventLog';
import { foldAll, initialThreadState } from '../fold';
import type { ActiveSkill, ModelDriver, ModelRequest } from '../model';
import { takeTurn } from '../turn';
import { historyOf } from '../history';
import { readSkillDirective } from './skillDirective';

const summarize: ActiveSkill = { name: 'Skill/summarize', title: '/summarize', body: 'Answer in three bullet points.' };

/** A driver that records each request and answers "ok". */
function recording() {
  const requests: ModelRequest[] = [];
  const driver: ModelDriver = {
    info: { id: 'probe', label: 'Probe' },
    async *respond(request) {
      requests.push(request);
      yield { type: 'text', text: 'ok' };
    },
  };
  return { driver, requests };
}

function turn(text: string, options: { skill?: string; skills?: ActiveSkill[]; loadSkill?: (name: string) => ActiveSkill | string } = {}) {
  const log = createEventLog({ now: () => 1 });
  const { driver, requests } = recording();
  const done = takeTurn({ text, driver, capabilities: [], history: [], emit: log.emit, invoke: vi.fn(), turnId: 'turn1', ...options });
  return { log, requests, done };
}

describe('a message with a load-skill directive', () => {
  it('loads the skill into the active-skills slab and gives the model the task alone', async () => {
    const loadSkill = vi.fn((name: string) => (name === '/summarize' ? summarize : 'missing'));
    const { log, requests, done } = turn('the last import', { skill: '/summarize', loadSkill });
    const { messages } = await done;
    expect(loadSkill).toHaveBeenCalledWith('/summarize');
    expect(requests[0]!.skills).toEqual([summarize]);
    expect(requests[0]!.messages).toEqual([{ role: 'user', text: 'the last import' }]);
    expect(messages[0]).toEqual({ role: 'user', text: 'the last import' });
    const events = log.since().filter((e) => e.type !== 'model.message');
    expect(events.map((e) => e.type).slice(0, 3)).toEqual(['message.created', 'turn.started', 'skill.activated']);
    expect(events[2]).toMatchObject({ skill: 'Skill/summarize', title: '/summarize' });
    const state = foldAll(initialThreadState, events);
    expect(state.rows[0]).toEqual({ kind: 'user', id: expect.any(String), text: 'the last import', skill: '/summarize', turn_id: 'turn1' });
    expect(state.activeSkills).toEqual(['Skill/summarize']);
  });

  it('does not load a skill that is already active a second time', async () => {
    const { log, requests, done } = turn('again', { skill: '/summarize', skills: [summarize], loadSkill: () => summarize });
    await done;
    expect(requests[0]!.skills).toEqual([summarize]);
    expect(log.since().some((e) => e.type === 'skill.activated')).toBe(false);
  });

  it('a skill that cannot be loaded becomes a recoverable row, and the task still gets an answer', async () => {
    const { log, requests, done } = turn('do it', { skill: '/nope', loadSkill: () => 'There is no /nope skill here.' });
    await done;
    expect(requests[0]!.skills).toEqual([]);
    expect(requests[0]!.messages).toEqual([{ role: 'user', text: 'do it' }]);
    const rows = foldAll(initialThreadState, log.since()).rows;
    expect(rows.map((r) => r.kind)).toEqual(['user', 'error', 'assistant']);
    expect(rows[1]).toMatchObject({ code: 'skill_not_loaded', message: 'There is no /nope skill here.', recoverable: true });
  });

  it('without a skill loader the directive reaches the model as typed', async () => {
    const { requests, done } = turn('x', { skill: '/summarize' });
    await done;
    expect(requests[0]!.messages).toEqual([{ role: 'user', text: '[load_skill /summarize]\nx' }]);
  });

  it('a directive with no task asks the model to apply the skill', () => {
    expect(readSkillDirective('', '/summarize')).toEqual({ name: '/summarize', task: 'Apply the /summarize skill to this conversation.' });
    expect(readSkillDirective('hello')).toBeNull();
  });

  it('a restored thread gives the model the task, not the directive, and the transcript keeps what was typed', async () => {
    const loadSkill = (name: string) => (name === '/summarize' ? summarize : 'missing');
    const { log, done } = turn('the import', { skill: '/summarize', loadSkill });
    const { messages } = await done;
    expect(historyOf(log.since())).toEqual(messages);
    expect(historyOf(log.since())[0]).toEqual({ role: 'user', text: 'the import' });
    expect(foldAll(initialThreadState, log.since()).rows[0]).toMatchObject({ kind: 'user', text: 'the import', skill: '/summarize' });
  });
});

describe('the legacy text form of the directive (requests and events from before the typed field)', () => {
  it('a request in the text form loads the skill as the field does, and is logged with the field', async () => {
    const loadSkill = vi.fn((name: string) => (name === '/summarize' ? summarize : 'missing'));
    const { log, requests, done } = turn('[load_skill /summarize]\nthe last import', { loadSkill });
    await done;
    expect(loadSkill).toHaveBeenCalledWith('/summarize');
    expect(requests[0]!.skills).toEqual([summarize]);
    expect(requests[0]!.messages).toEqual([{ role: 'user', text: 'the last import' }]);
    expect(log.since().find((e) => e.type === 'message.created')).toMatchObject({ role: 'user', text: 'the last import', skill: '/summarize' });
    expect(readSkillDirective('[load_skill /summarize]')).toEqual({ name: '/summarize', task: 'Apply the /summarize skill to this conversation.' });
  });

  it('without a skill loader a request in the text form reaches the model exactly as typed', async () => {
    const { requests, done } = turn('[load_skill /summarize]  x ');
    await done;
    expect(requests[0]!.messages).toEqual([{ role: 'user', text: '[load_skill /summarize]  x ' }]);
  });
});
