import { SKILL_NAME } from './events/plain';

/**
 * The skill a user's message loads, a typed field (issue 38): the turn request's and the
 * `message.created` event's optional `skill`, set by the slash list, read by the engine, the
 * host, the fold and the surface. The message's `text` is the task alone. The field's rule
 * (`SKILL_NAME`, `SkillName`) sits with the event fields.
 */

export { SKILL_NAME };

/** The legacy text form: the directive (a slash name as `SKILL_NAME` has it), then the task. */
const LEGACY = new RegExp(String.raw`^\s*\[load_skill (${SKILL_NAME.source.slice(1, -1)})\]([\s\S]*)$`);

/** A user's message as typed fields: the task and, when it loads one, the skill's slash name. */
export interface SkillMessage {
  text: string;
  skill?: string;
}

/**
 * LEGACY, read only. Before issue 38 the directive was in-band text, `[load_skill /name]` then the
 * task, and logs and clients still hold that form. This is the ONE parser of it, kept only to read
 * events stored and requests sent in that form (through `readSkillMessage`); nothing stores it any
 * more (`loadSkillText` writes it only for a model, harness or agent that got it before).
 * Returns the skill's slash name and the task after it; null for any other text.
 * @example
 * parseLoadSkill('[load_skill /summarize]\nthe last import'); // → { name: '/summarize', task: 'the last import' }
 */
export function parseLoadSkill(text: string): { name: string; task: string } | null {
  const match = LEGACY.exec(text);
  return match ? { name: match[1]!, task: match[2]!.trim() } : null;
}

/**
 * A message's typed fields: its `skill` when it has one, else (an event stored or a request sent
 * in the legacy text form) the directive read out of its text by `parseLoadSkill`.
 * @example
 * readSkillMessage('the last import', '/summarize'); // → { text: 'the last import', skill: '/summarize' }
 * readSkillMessage('[load_skill /summarize]\nthe last import'); // → the same
 */
export function readSkillMessage(text: string, skill?: string): SkillMessage {
  if (skill !== undefined) return { text, skill };
  const legacy = text.includes('[load_skill ') ? parseLoadSkill(text) : null;
  return legacy ? { text: legacy.task, skill: legacy.name } : { text };
}

/**
 * The words a model (or a command-line harness) got for a skill's message when nothing loaded
 * the skill for it: the directive, then the task. They still get exactly that, so their requests
 * do not change; the transcript, the events and the requests carry the typed field.
 * @example
 * loadSkillText('/summarize', 'the last import'); // → '[load_skill /summarize]\nthe last import'
 */
export function loadSkillText(skill: string | { name: string }, task: string): string {
  return `[load_skill ${typeof skill === 'string' ? skill : skill.name}]\n${task}`;
}
