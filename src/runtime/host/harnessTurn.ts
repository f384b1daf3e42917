import type { Emit } from '../events';
import { harnessCommandOf, type Harness } from '../harness';
import { createId } from '../ids';
import type { ModelMessage } from '../model';
import type { CatalogNode } from '../catalogNodes';
import { recordMessage } from '../history';
import type { SkillMessage } from '../skillField';

export interface HarnessTurnOptions {
  /** The thread's harness node (a command-line one: it has `commands`). */
  node: CatalogNode;
  /** Its adapter; undefined when the host wired none for this node. */
  harness: Harness | undefined;
  /** What the harness gets, as typed (a skill's message: the directive, then the task). */
  text: string;
  /** The message as the transcript keeps it, when it differs from `text` (a skill's: the task, the skill a field). */
  shown?: SkillMessage;
  /** The user's message is in the transcript already (an edit, a regeneration): no row for it. */
  written?: boolean;
  emit: Emit;
  history: ModelMessage[];
  turnId: string;
  threadId: string;
  user: string;
  signal: AbortSignal;
}

/**
 * A turn under a command-line harness: the user's text goes to the harness
 * 1:1 (or, for one of its own commands, to that command) and its answer
 * streams in as the harness's reply; the chat's model is not asked. Both
 * sides are logged in the model's history, so a switch back to the chat
 * harness keeps the conversation. A harness that is missing or fails says
 * so in plain words, and the thread goes on.
 */
export async function runHarnessTurn(options: HarnessTurnOptions): Promise<void> {
  const { node, harness, text, emit, history, turnId, signal } = options;
  const driver = { id: `harness:${node.path}`, label: harness?.label ?? node.name };
  const shown = options.shown ?? { text };
  if (!options.written) emit({ type: 'message.created', message_id: createId('msg'), role: 'user', text: shown.text, ...(shown.skill !== undefined ? { skill: shown.skill } : {}), turn_id: turnId });
  emit({ type: 'turn.started', turn_id: turnId, driver });
  recordMessage(history, emit, turnId, { role: 'user', text });
  if (!harness) {
    const message = `${node.name} is not connected to this workspace, so your message was not sent anywhere. Pick another harness with /harness (Chat answers here), or ask whoever runs this workspace to wire ${node.name}.`;
    emit({ type: 'turn.error', turn_id: turnId, code: 'harness_unavailable', message, recoverable: false });
    emit({ type: 'turn.done', turn_id: turnId, outcome: 'failed' });
    return;
  }
  const context = { threadId: options.threadId, user: options.user, signal };
  const messageId = createId('msg');
  let reply = '';
  let started = false;
  const say = (chunk: string) => {
    if (!chunk) return;
    if (!started) {
      started = true;
      emit({ type: 'message.created', message_id: messageId, role: 'assistant', text: '', turn_id: turnId, driver });
    }
    reply += chunk;
    emit({ type: 'message.delta', message_id: messageId, delta: chunk });
  };
  try {
    const command = harnessCommandOf(text, node.commands ?? []);
    if (command === 'status') {
      const status = await harness.status(context);
      say(status.detail ?? (status.signedIn ? `Signed in to ${harness.label}.` : `Not signed in to ${harness.label}: type /login.`));
    } else if (command) {
      say(await harness[command](context));
    } else {
      for await (const chunk of harness.send(text, context)) {
        if (signal.aborted) break;
        say(chunk);
      }
    }
    if (started) emit({ type: 'message.done', message_id: messageId });
    if (reply) recordMessage(history, emit, turnId, { role: 'assistant', text: reply });
    emit({ type: 'turn.done', turn_id: turnId, outcome: signal.aborted ? 'cancelled' : 'answered' });
  } catch (error) {
    if (started) emit({ type: 'message.done', message_id: messageId });
    if (reply) recordMessage(history, emit, turnId, { role: 'assistant', text: reply });
    if (signal.aborted) {
      emit({ type: 'turn.done', turn_id: turnId, outcome: 'cancelled' });
      return;
    }
    const why = error instanceof Error ? error.message : String(error);
    emit({ type: 'turn.error', turn_id: turnId, code: 'harness_failed', message: `${harness.label} failed: ${why}`, recoverable: true });
    emit({ type: 'turn.done', turn_id: turnId, outcome: 'failed' });
  }
}
