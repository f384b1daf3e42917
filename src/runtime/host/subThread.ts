import type { CapabilityDescriptor } from '../capability';
import { type CapabilityResult } from '../envelope';
import { errorResult, textResult } from '../results';
import type { Emit, SubThreadOutcome, ThreadEventInput } from '../events';
import type { Row, SubThreadRow, ThreadState } from '../fold';
import { createId } from '../ids';
import type { ModelMessage } from '../model';
import type { SkillMessage } from '../skillField';
import { SKILL_DISCOVERY_QUERY, type SkillDirectory } from '../slash/skillDirectory';
import type { TurnOutcome } from '../turn';
import { recordMessage } from '../history';

type Outcome = TurnOutcome | 'interrupted';

/**
 * Sub-threads (issue 15): a slash skill with `launchesSubThread: true` runs in
 * a child thread of the same principal instead of inline. The parent gets
 * the user's message and a `subthread.opened` row linking to the child; the
 * child is an ordinary thread whose first event, `subthread.linked`, names
 * its parent (so the link survives restarts and works on every instance),
 * and its turn loads the skill's instructions as any directive does. When a
 * turn of the child ends other than waiting for the user, the parent gets
 * `subthread.done` with the outcome in words and a note for its model.
 * Sub-threads do not nest: inside a sub-thread such a skill runs inline.
 */

/** A message that launches a sub-thread: the skill it names and the task after it. */
export interface SubThreadLaunch {
  /** The skill's node path, e.g. `Skill/review`. */
  skill: string;
  /** Its slash name, e.g. `/review`. */
  title: string;
  task: string;
}

/** How long a summary may be in the parent; the child keeps the whole reply. */
export const SUMMARY_LENGTH = 600;

/** What the parent's row says when the child's turn ended without a reply. */
const NO_REPLY = 'The sub-thread finished without a reply.';
export const INTERRUPTED_SUMMARY = 'The workspace restarted while the sub-thread was working, so it stopped there; open it to see how far it got.';

/**
 * The launch a message asks for, or null: a message with a `skill` whose skill,
 * among the principal's discovered skills, has `launchesSubThread` and
 * instructions, sent in a thread that is not itself a sub-thread.
 */
export function subThreadLaunch(state: ThreadState, message: SkillMessage, directory: SkillDirectory): SubThreadLaunch | null {
  const { skill } = message;
  if (skill === undefined || originOf(state)) return null;
  const node = directory.query(SKILL_DISCOVERY_QUERY).find((s) => `/${s.id}` === skill);
  if (!node?.skill?.launchesSubThread || !node.skill.instructions) return null;
  return { skill: node.path, title: node.name, task: message.text.trim() || `Apply the ${node.name} skill to this conversation.` };
}

/**
 * The launch a call of a SKILL.md capability asks for, or null: one whose
 * frontmatter has `metadata: { launchesSubThread: "true" }` (the Agent Skills
 * format keeps extensions in `metadata`), called in a thread that is not
 * itself a sub-thread. The task is the call's `task` when the model gave one,
 * else the user's latest request in the thread.
 * The child gets it as a message with the skill's `skill`, so the skill's body loads there.
 */
export function subThreadCall(state: ThreadState, descriptor: CapabilityDescriptor | undefined, args?: unknown): { launch: SubThreadLaunch; message: Required<SkillMessage> } | null {
  const source = descriptor?.source;
  if (!descriptor || source?.type !== 'skill' || source.frontmatter.metadata?.launchesSubThread !== 'true' || originOf(state)) return null;
  // Already loaded here (the sub-thread of a door's call runs it): inline.
  if (state.activeSkills.includes(descriptor.name)) return null;
  const given = (args as { task?: unknown } | null | undefined)?.task;
  let request = typeof given === 'string' ? given : '';
  for (let i = state.rows.length - 1; i >= 0 && !request; i--) {
    const row = state.rows[i]!;
    // A skill's message is its task (the fold reads the legacy text form, `[load_skill /name]` then the task, the same way).
    if (row.kind === 'user') request = row.text;
  }
  const task = request.trim() || `Apply the ${descriptor.title} skill to this conversation.`;
  return { launch: { skill: descriptor.name, title: descriptor.title, task }, message: { text: task, skill: `/${descriptor.name}` } };
}

/** What the model's call of a sub-thread skill gets back at once: where the work went. */
export function launchedResult(launch: SubThreadLaunch, childId: string): CapabilityResult {
  return textResult(`Opened a sub-thread for ${launch.title}: it works on "${launch.task}" there, and its outcome comes back to this thread when it ends.`, { subthread_id: childId, status: 'running' });
}

/** The sub-thread origin row of a thread (its parent), or null for a thread that is not a sub-thread. */
export function originOf(state: ThreadState): Extract<Row, { kind: 'subthread_origin' }> | null {
  // The link is the child's first event: its row is at or near the top.
  for (const row of state.rows) if (row.kind === 'subthread_origin') return row;
  return null;
}

/** A child thread's id: the parent's with a suffix, so both sort together; within the 128 characters a thread id may have. */
export function childThreadId(parentId: string): string {
  return `${parentId.slice(0, 100)}.sub-${createId('t').slice(2)}`;
}

/**
 * The parent's side of a launch: the user's message as sent and the row that
 * links to the child. Returns the child's id.
 */
export function openSubThread(emit: Emit, launch: SubThreadLaunch, message: SkillMessage | null, turnId: string | undefined, childId: string): void {
  if (message !== null) emit({ type: 'message.created', message_id: createId('msg'), role: 'user', text: message.text, ...(message.skill !== undefined ? { skill: message.skill } : {}), turn_id: turnId });
  emit({ type: 'subthread.opened', subthread_id: childId, skill: launch.skill, title: launch.title, task: launch.task, ...(turnId ? { turn_id: turnId } : {}) });
}

/** The child's first event: who opened it, for what. */
export function linkEvent(parentId: string, launch: SubThreadLaunch): ThreadEventInput {
  return { type: 'subthread.linked', parent_id: parentId, skill: launch.skill, title: launch.title, task: launch.task };
}

/**
 * What a turn of the child that just ended means for the parent: null while
 * it waits for the user (a proposal, an approval, a question), else its
 * outcome and summary (the turn's last reply, trimmed, or its error).
 */
export function turnReport(state: ThreadState, turnId: string, outcome: Outcome | null): { outcome: SubThreadOutcome; summary: string } | null {
  if (outcome === 'waiting' || outcome === 'proposed') return null;
  const rows = state.rows.filter((r) => 'turn_id' in r && r.turn_id === turnId);
  const reply = [...rows].reverse().find((r): r is Extract<Row, { kind: 'assistant' }> => r.kind === 'assistant' && r.text.trim().length > 0);
  const error = [...rows].reverse().find((r): r is Extract<Row, { kind: 'error' }> => r.kind === 'error' && r.code !== 'cancelled');
  const said = reply ? trimSummary(reply.text) : '';
  switch (outcome) {
    case 'failed':
      return { outcome: 'failed', summary: error?.message ?? (said || 'The sub-thread failed without saying why.') };
    case 'cancelled':
      return { outcome: 'cancelled', summary: said ? `Stopped before it finished. So far: ${said}` : 'Stopped before it finished.' };
    case 'interrupted':
      return { outcome: 'interrupted', summary: INTERRUPTED_SUMMARY };
    default:
      return { outcome: 'done', summary: said || NO_REPLY };
  }
}

/** A reply as a summary: whitespace folded, at most `SUMMARY_LENGTH` characters, cut at a word. */
export function trimSummary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SUMMARY_LENGTH) return flat;
  const cut = flat.slice(0, SUMMARY_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${(space > SUMMARY_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The parent's row for a child, when it still runs. */
export function runningSubThread(state: ThreadState, childId: string): SubThreadRow | null {
  for (let i = state.rows.length - 1; i >= 0; i--) {
    const row = state.rows[i]!;
    if (row.kind === 'subthread' && row.id === childId) return row.status === 'running' ? row : null;
  }
  return null;
}

/**
 * The parent's side of the end: `subthread.done`, and a note in the parent's
 * model history (as for a capability the user ran), so the next turn knows.
 */
export function closeSubThread(history: readonly ModelMessage[], emit: Emit, row: SubThreadRow, report: { outcome: SubThreadOutcome; summary: string }): void {
  emit({ type: 'subthread.done', subthread_id: row.id, outcome: report.outcome, summary: report.summary, title: row.title });
  recordMessage(history.slice(), emit, undefined, closingNote(row, report));
}

/** The parent model's note of a sub-thread's end. */
export function closingNote(row: Pick<SubThreadRow, 'id' | 'skill' | 'title' | 'task'>, report: { outcome: SubThreadOutcome; summary: string }): ModelMessage {
  const meta = { subthread_id: row.id, outcome: report.outcome };
  return {
    role: 'tool',
    capability: row.skill || row.title,
    title: `${row.title} (in a sub-thread)`,
    args: { task: row.task },
    result: report.outcome === 'done' ? textResult(report.summary, meta) : { ...errorResult(report.summary), structuredContent: meta },
  };
}
