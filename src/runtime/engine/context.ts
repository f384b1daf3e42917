import type { ActiveView, Composer, ThreadEvent } from '../events';
import type { ViolationNote } from '../model';

/**
 * What the turn engine needs to know about a thread between turns, kept up
 * to date from its events: the view, the composer, the last capability, the
 * active skills, and the quality violations the model has not been told of.
 */
export interface ThreadContext {
  readonly view: ActiveView | null;
  readonly composer: Composer;
  /** The capability that finished last without error (keys the suggestions). */
  readonly lastCapability: string | null;
  /** Skill names in activation order. */
  readonly activeSkills: readonly string[];
  /** Feeds one event of the thread. */
  observe(event: ThreadEvent): void;
  /**
   * Takes the violations not yet reported to the model: those of one
   * invocation (for its tool result), or all of them (for the next turn).
   */
  takeViolations(invocationId?: string): ViolationNote[];
}

/** Invocations remembered for naming a late violation. */
const REMEMBERED = 512;

/**
 * @example
 * const context = createThreadContext();
 * log.subscribe(context.observe, 0);
 */
export function createThreadContext(): ThreadContext {
  let view: ActiveView | null = null;
  let composer: Composer = {};
  let lastCapability: string | null = null;
  let activeSkills: string[] = [];
  const invocations = new Map<string, { capability: string; title: string }>();
  let pending: ViolationNote[] = [];

  return {
    get view() {
      return view;
    },
    get composer() {
      return composer;
    },
    get lastCapability() {
      return lastCapability;
    },
    get activeSkills() {
      return activeSkills;
    },
    observe(event) {
      switch (event.type) {
        case 'view.changed':
          view = event.view;
          break;
        case 'composer.changed':
          composer = { ...composer, ...event.composer };
          break;
        case 'skill.activated':
          if (!activeSkills.includes(event.skill)) activeSkills = [...activeSkills, event.skill];
          break;
        case 'capability.started':
        case 'capability.queued':
          invocations.set(event.invocation_id, { capability: event.capability, title: event.title });
          if (invocations.size > REMEMBERED) invocations.delete(invocations.keys().next().value!);
          break;
        case 'capability.done': {
          const known = invocations.get(event.invocation_id);
          if (known && !event.result.isError) lastCapability = known.capability;
          break;
        }
        case 'capability.quality_violation': {
          const known = invocations.get(event.invocation_id);
          pending.push({
            invocation_id: event.invocation_id,
            capability: known?.capability ?? '',
            title: known?.title ?? 'A capability',
            postcondition: event.postcondition,
            expected: event.expected,
            actual: event.actual,
            message: event.message,
          });
          break;
        }
        default:
          break;
      }
    },
    takeViolations(invocationId) {
      const taken = invocationId === undefined ? pending : pending.filter((v) => v.invocation_id === invocationId);
      pending = invocationId === undefined ? [] : pending.filter((v) => v.invocation_id !== invocationId);
      return taken;
    },
  };
}
