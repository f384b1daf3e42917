import { EventType, type RunAgentInput } from '@ag-ui/core';

/**
 * The events of a small scripted AG-UI agent (browser-safe, no Node): it
 * answers by the last user message. `hello` streams a reply in a step;
 * `note <text>` calls the frontend tool `notes.add` and, once its result is
 * back, says so; `deploy` calls its own `deploy.run` tool and interrupts for
 * approval (a resume approves or cancels it); `pick` asks a question (an
 * interrupt with no tool call); `state` sends a snapshot and a delta; `think`
 * reasons first (a REASONING_* span) and then answers; `lookup` and `lookup fails`
 * call a tool that never returns a result, then the run finishes or fails; `roles`
 * sends messages in the user's, the system's and the agent's roles; `snapshot` sends
 * a MESSAGES_SNAPSHOT of the conversation with an earlier exchange; `events` sends
 * CUSTOM, RAW and activity events. Served
 * over HTTP by `serveTestAgent` and in the page by the AG-UI story, both
 * encoded with `@ag-ui/encoder`.
 */
export function scriptedAgentEvents(input: RunAgentInput): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  const send = (event: Record<string, unknown>) => void events.push(event);
  const { threadId, runId } = input;
  send({ type: EventType.RUN_STARTED, threadId, runId });
  const say = (id: string, ...parts: string[]) => {
    send({ type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'assistant' });
    for (const delta of parts) send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta });
    send({ type: EventType.TEXT_MESSAGE_END, messageId: id });
  };
  const last = input.messages.at(-1);
  const lastUser = [...input.messages].reverse().find((m) => m.role === 'user');
  const text = typeof lastUser?.content === 'string' ? lastUser.content : '';
  let outcome: Record<string, unknown> = { type: 'success' };
  if (input.resume?.length) {
    const entry = input.resume[0]!;
    if (entry.status === 'resolved' && (entry.payload as { approved?: boolean })?.approved) {
      send({ type: EventType.TOOL_CALL_RESULT, messageId: `m-${runId}`, toolCallId: 'call-deploy', content: 'Deployed build 42.' });
      say(`a-${runId}`, 'Deployed.');
    } else if (entry.status === 'resolved') {
      say(`a-${runId}`, `You picked ${(entry.payload as { answer?: string }).answer}.`);
    } else say(`a-${runId}`, 'Not deployed.');
  } else if (last?.role === 'tool') {
    say(`a-${runId}`, `The note tool said: ${String(last.content)}`);
  } else if (text.startsWith('note ')) {
    send({ type: EventType.TOOL_CALL_START, toolCallId: `call-${runId}`, toolCallName: 'notes.add' });
    const args = JSON.stringify({ text: text.slice(5) });
    send({ type: EventType.TOOL_CALL_ARGS, toolCallId: `call-${runId}`, delta: args.slice(0, 5) });
    send({ type: EventType.TOOL_CALL_ARGS, toolCallId: `call-${runId}`, delta: args.slice(5) });
    send({ type: EventType.TOOL_CALL_END, toolCallId: `call-${runId}` });
  } else if (text === 'deploy') {
    send({ type: EventType.TOOL_CALL_START, toolCallId: 'call-deploy', toolCallName: 'deploy.run' });
    send({ type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-deploy', delta: '{"build":42}' });
    send({ type: EventType.TOOL_CALL_END, toolCallId: 'call-deploy' });
    outcome = { type: 'interrupt', interrupts: [{ id: 'int-deploy', reason: 'tool_approval', message: 'Deploy build 42 to production?', toolCallId: 'call-deploy' }] };
  } else if (text === 'pick') {
    outcome = { type: 'interrupt', interrupts: [{ id: 'int-pick', reason: 'choice', message: 'Which region?', responseSchema: { type: 'string', enum: ['eu', 'us'] } }] };
  } else if (text === 'think') {
    const reasoning = `r-${runId}`;
    send({ type: EventType.REASONING_START, messageId: reasoning });
    send({ type: EventType.REASONING_MESSAGE_START, messageId: reasoning, role: 'reasoning' });
    send({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: reasoning, delta: 'The user wants me to think. ' });
    send({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: reasoning, delta: 'Say so briefly.' });
    send({ type: EventType.REASONING_MESSAGE_END, messageId: reasoning });
    send({ type: EventType.REASONING_END, messageId: reasoning });
    say(`a-${runId}`, 'I thought about it.');
  } else if (gapCommand(text, input, send, say)) {
    if (text === 'lookup fails') {
      send({ type: EventType.RUN_ERROR, message: 'The lookup service went away.', code: 'lookup_down' });
      return events;
    }
  } else if (text === 'state') {
    send({ type: EventType.STATE_SNAPSHOT, snapshot: { count: 1 } });
    send({ type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/count', value: 2 }] });
    say(`a-${runId}`, 'State sent.');
  } else {
    send({ type: EventType.STEP_STARTED, stepName: 'think' });
    say(`a-${runId}`, 'Hello', ', I am an AG-UI agent.');
    send({ type: EventType.STEP_FINISHED, stepName: 'think' });
  }
  send({ type: EventType.RUN_FINISHED, threadId, runId, outcome });
  return events;
}

/** The commands of issue 44 item 7 (AG-UI without gaps); false when `text` is none of them. */
function gapCommand(text: string, input: RunAgentInput, send: (event: Record<string, unknown>) => void, say: (id: string, ...parts: string[]) => void): boolean {
  const { runId } = input;
  switch (text) {
    case 'lookup':
    case 'lookup fails':
      send({ type: EventType.TOOL_CALL_START, toolCallId: `call-${runId}`, toolCallName: 'docs.lookup' });
      send({ type: EventType.TOOL_CALL_ARGS, toolCallId: `call-${runId}`, delta: '{"q":"tides"}' });
      send({ type: EventType.TOOL_CALL_END, toolCallId: `call-${runId}` });
      if (text === 'lookup') say(`a-${runId}`, 'I asked the docs.');
      return true;
    case 'roles': {
      const own = input.messages.at(-1)!;
      // The user's own message echoed (already shown), a user message from elsewhere, a system note, then the reply.
      for (const [id, role, content] of [
        [own.id, 'user', 'roles'],
        [`u-${runId}`, 'user', 'Also: what about Tuesday?'],
        [`s-${runId}`, 'system', 'Be brief.'],
      ] as const) {
        send({ type: EventType.TEXT_MESSAGE_START, messageId: id, role });
        send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta: content });
        send({ type: EventType.TEXT_MESSAGE_END, messageId: id });
      }
      say(`a-${runId}`, 'Tuesday works.');
      return true;
    }
    case 'snapshot':
      send({
        type: EventType.MESSAGES_SNAPSHOT,
        messages: [
          { id: 'snap-dev', role: 'developer', content: 'You are a helpful agent.' },
          { id: 'snap-u1', role: 'user', content: [{ type: 'text', text: 'What did we decide yesterday?' }] },
          { id: 'snap-r1', role: 'reasoning', content: 'Look it up first.' },
          { id: 'snap-a1', role: 'assistant', content: 'Let me check the notes.', toolCalls: [{ id: 'snap-call', type: 'function', function: { name: 'notes.search', arguments: '{"q":"decision"}' } }] },
          { id: 'snap-t1', role: 'tool', toolCallId: 'snap-call', content: 'Ship on Friday.' },
          { id: 'snap-a2', role: 'assistant', content: 'We decided to ship on Friday.' },
          ...input.messages,
          { id: `a-${runId}`, role: 'assistant', content: 'That is all so far.' },
        ],
      });
      return true;
    case 'events':
      send({ type: EventType.CUSTOM, name: 'deploy.log', value: { line: 'build 42 started' } });
      send({ type: EventType.RAW, event: { kind: 'provider.ping' }, source: 'scripted' });
      send({ type: EventType.ACTIVITY_SNAPSHOT, messageId: `act-${runId}`, activityType: 'plan', content: { steps: ['fetch'] } });
      send({ type: EventType.ACTIVITY_DELTA, messageId: `act-${runId}`, activityType: 'plan', patch: [{ op: 'add', path: '/steps/-', value: 'build' }] });
      say(`a-${runId}`, 'Events sent.');
      return true;
    default:
      return false;
  }
}
