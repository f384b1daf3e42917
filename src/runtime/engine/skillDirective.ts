import type { Emit } from '../events';
import type { ActiveSkill } from '../model';
import { readSkillMessage } from '../skillField';

/**
 * Finds a skill named by a load-skill directive: the skill with its whole
 * instructions, or a sentence saying why it cannot be loaded.
 */
export type SkillLoader = (name: string) => ActiveSkill | string;

/** A message with its load-skill directive taken apart. */
export interface SkillDirective {
  /** The slash name, e.g. `/summarize`. */
  name: string;
  /** What the model gets as the user's message: the task after the directive. */
  task: string;
}

/**
 * The load-skill directive of a message: its `skill` field (a request in the legacy text form,
 * `[load_skill /name]` before the task, is read as one); null for a message without one. A
 * directive with no task asks the model to apply the skill to the thread.
 * @example
 * readSkillDirective('the last import', '/summarize'); // → { name: '/summarize', task: 'the last import' }
 */
export function readSkillDirective(text: string, skill?: string): SkillDirective | null {
  const message = readSkillMessage(text, skill);
  if (message.skill === undefined) return null;
  const task = message.text.trim();
  return { name: message.skill, task: task || `Apply the ${message.skill} skill to this conversation.` };
}

/**
 * Loads the directive's skill into the active skills of this turn (and, through
 * `skill.activated`, of the turns after it). A skill already active is not
 * loaded twice; one that cannot be loaded becomes a recoverable row and the
 * task goes on without it.
 */
export function activateDirectiveSkill(
  directive: SkillDirective,
  active: readonly ActiveSkill[],
  load: SkillLoader,
  emit: Emit,
  turnId: string,
): readonly ActiveSkill[] {
  const loaded = load(directive.name);
  if (typeof loaded === 'string') {
    emit({ type: 'turn.error', turn_id: turnId, code: 'skill_not_loaded', message: loaded, recoverable: true });
    return active;
  }
  if (active.some((s) => s.name === loaded.name)) return active;
  emit({ type: 'skill.activated', skill: loaded.name, title: loaded.title });
  return [...active, loaded];
}
