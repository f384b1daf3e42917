import { z } from 'zod';
import { defineCapability, textResult, type ThreadEventInput } from '../src/runtime';
import { scriptedWorkspace, type ScriptedWorkspace } from '../src/components/testing/scriptedWorkspace';

/** A fixed clock: stories render the same every time. */
const now = () => 1_700_000_000_000;

/** The verbs the scripted stories use: they run for real when a row is accepted or approved. */
function verbs() {
  const enrich = defineCapability({
    name: 'records.enrich',
    title: 'Enrich records',
    description: 'Adds company data to records.',
    input: z.object({ limit: z.number().int().min(1).max(100).default(10) }),
    actor: { id: 'enricher', name: 'Enricher', glyph: 'E' },
    handler: ({ limit }) => textResult(`Enriched ${limit} records.`, { enriched: limit }, { summary: `Enriched ${limit} records` }),
  });
  const remove = defineCapability({
    name: 'records.delete',
    title: 'Delete records',
    description: 'Deletes records by id.',
    kind: 'mutate',
    input: z.object({ ids: z.array(z.number().int()) }),
    handler: ({ ids }) => textResult(`Deleted ${ids.length} records.`, { deleted: ids.length }),
  });
  const count = defineCapability({
    name: 'records.count',
    title: 'Count records',
    description: 'Counts the records.',
    input: z.object({}),
    handler: () => textResult('There are 42 records.', { count: 42 }),
  });
  return [enrich, remove, count];
}

/** A scripted workspace with these events already on its log (replayed when the story mounts). */
export function scriptedStory(events: ThreadEventInput[], options: Parameters<typeof scriptedWorkspace>[0] = {}): ScriptedWorkspace {
  const ws = scriptedWorkspace({
    capabilities: verbs(),
    driver: { id: 'offline', label: 'Offline model' },
    now,
    anticipation: {
      'record_list::none': [
        { capability: 'records.count', hint: 'Count the records' },
        { capability: 'records.enrich', hint: 'Enrich 5 records', prefill: { limit: 5 } },
      ],
      'record_list::records.count': [{ capability: 'records.enrich', hint: 'Enrich the new records', prefill: { limit: 10 } }],
      'record_list::records.enrich': [{ capability: 'records.count', hint: 'Count them again' }],
    },
    ...options,
  });
  for (const event of events) ws.log.emit(event);
  return ws;
}

const user = (id: string, text: string): ThreadEventInput => ({ type: 'message.created', message_id: id, role: 'user', text });
const reply = (id: string, text: string): ThreadEventInput[] => [
  { type: 'message.created', message_id: id, role: 'assistant', text, driver: { id: 'offline', label: 'Offline model' } },
  { type: 'message.done', message_id: id },
];

export const scenes = {
  proposal: (): ThreadEventInput[] => [
    user('u1', 'Can you fill in the missing company data?'),
    ...reply('a1', 'I can run **Enrich records** on the ten records without a company. Shall I?'),
    { type: 'proposal.created', proposal_id: 'p1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 10 }, reason: 'Ten records have no company yet.' },
  ],
  proposalAccepted: (): ThreadEventInput[] => [
    ...scenes.proposal(),
    { type: 'proposal.resolved', proposal_id: 'p1', decision: 'accepted' },
    { type: 'capability.started', invocation_id: 'inv1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 10 } },
    { type: 'capability.done', invocation_id: 'inv1', result: textResult('Enriched 10 records.', { enriched: 10 }, { summary: 'Enriched 10 records' }) },
  ],
  approval: (): ThreadEventInput[] => [
    user('u1', 'Delete the two duplicates.'),
    { type: 'approval.requested', approval_id: 'ap1', capability: 'records.delete', title: 'Delete records', args: { ids: [4, 7] }, reason: 'Deletes records 4 and 7, the duplicates of 3 and 6.' },
  ],
  approvalDenied: (): ThreadEventInput[] => [
    ...scenes.approval(),
    { type: 'approval.resolved', approval_id: 'ap1', decision: 'denied' },
    ...reply('a2', 'Understood, I left the records as they are.'),
  ],
  /** Approved, and the run it led to finished, failed or was stopped: the row says which. */
  approvalRan: (end: 'done' | 'failed' | 'cancelled'): ThreadEventInput[] => [
    ...scenes.approval(),
    { type: 'approval.resolved', approval_id: 'ap1', decision: 'approved' },
    { type: 'capability.started', invocation_id: 'del1', capability: 'records.delete', title: 'Delete records', args: { ids: [4, 7] } },
    end === 'done'
      ? { type: 'capability.done', invocation_id: 'del1', result: { content: [{ type: 'text', text: 'Deleted 2 records.' }], structuredContent: { deleted: 2 } } }
      : {
          type: 'capability.error',
          invocation_id: 'del1',
          capability: 'records.delete',
          error: end === 'failed' ? { code: 'tool_error', message: 'The records are locked by an import; nothing was deleted.' } : { code: 'cancelled', message: 'Delete records was cancelled.' },
          recoverable: true,
        },
  ],
  /** A Stop while enrichment ran: the card says what it had done, and only it offers Retry. */
  stoppedPartWay: (): ThreadEventInput[] => [
    user('u1', 'enrich records limit=4'),
    { type: 'capability.started', invocation_id: 'en1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 4 } },
    { type: 'capability.progress', invocation_id: 'en1', progress: 2, total: 4, message: '2 of 4 records enriched' },
    { type: 'capability.error', invocation_id: 'en1', capability: 'records.enrich', error: { code: 'cancelled', message: 'Enrich records was cancelled.' }, recoverable: true },
    { type: 'turn.error', code: 'cancelled', message: 'Stopped before the reply finished.', recoverable: true },
  ],
  question: (): ThreadEventInput[] => [
    user('u1', 'Watch the new sign-ups for me.'),
    { type: 'clarify.requested', question_id: 'q1', question: 'Should I check once now, or keep watching every week?', options: [{ label: 'Just once', value: 'once' }, { label: 'Every week', value: 'weekly' }] },
  ],
  questionAnswered: (): ThreadEventInput[] => [
    ...scenes.question(),
    { type: 'clarify.answered', question_id: 'q1', answer: 'weekly' },
    { type: 'standing.requested', request_id: 's1', text: 'Report new sign-ups', cadence: 'every week' },
  ],
  violation: (): ThreadEventInput[] => [
    user('u1', 'Import contacts.csv'),
    { type: 'capability.started', invocation_id: 'inv1', capability: 'records.import_csv', title: 'Import CSV', args: { file: 'contacts.csv' } },
    { type: 'capability.done', invocation_id: 'inv1', result: textResult('Import finished.', { imported: 0 }) },
    { type: 'capability.quality_violation', invocation_id: 'inv1', postcondition: 'row_count_change', expected: 'records += 120', actual: 'records +0', message: 'The import said it finished, but no records were added.' },
  ],
  errors: (): ThreadEventInput[] => [
    user('u1', 'Summarise this week'),
    { type: 'turn.error', code: 'model_error', message: 'Offline model failed: the model is overloaded (529). Try again in a moment.', recoverable: true },
    user('u2', 'Write a long report about every record'),
    { type: 'message.created', message_id: 'a2', role: 'assistant', text: 'Here is the report. **Record 1** is', driver: { id: 'offline', label: 'Offline model' }, turn_id: 't2' },
    { type: 'message.done', message_id: 'a2' },
    { type: 'turn.error', turn_id: 't2', code: 'cancelled', message: 'Stopped before the reply finished.', recoverable: true },
  ],
  /** A 5,000-character paste: collapsed to its first lines until "Show all". */
  longPaste: (): ThreadEventInput[] => [
    user('u1', Array.from({ length: 120 }, (_, i) => `2026-12-01T09:${String(i % 60).padStart(2, '0')}:00Z import row ${i + 1}: skipped, email missing`).join('\n')),
  ],
  /** A long reply still streaming, one paragraph of prose whose formatting arrives at its end (the cursor shows). */
  streamingLong: (): ThreadEventInput[] => [
    user('u1', 'Summarise what changed in the import this week'),
    {
      type: 'message.created',
      message_id: 'a1',
      role: 'assistant',
      text:
        Array.from({ length: 14 }, (_, i) => `On day ${i + 1} the import read the new files, matched the rows against the records already there and kept the ones it could not place for review.`).join(' ') +
        ' The details are in [the import log](https://example.com/import-log) and the **twelve rows** it skipped',
      driver: { id: 'offline', label: 'Offline model' },
    },
  ],
  markdown: (): ThreadEventInput[] => [
    user('u1', 'How do I import records from the command line?'),
    ...reply(
      'a1',
      [
        '### Importing records',
        '',
        'Run the **import** script with your file, then check the count:',
        '',
        '```bash',
        'npm run import -- contacts.csv',
        '```',
        '',
        '| column | required |',
        '|---|---|',
        '| `name` | yes |',
        '| `email` | no |',
        '',
        '- [x] CSV with a header row',
        '- [ ] ~~Excel files~~ (not yet)',
        '',
        'See [the import guide](https://example.com/import). A link to javascript:alert(1) or [this one](javascript:alert(1)) stays plain text, and <b>raw HTML</b> shows as written.',
      ].join('\n'),
    ),
  ],
};

/** `n` alternating messages, like the bench's transcript. */
export function longHistory(n: number): ThreadEventInput[] {
  const events: ThreadEventInput[] = [];
  for (let i = 0; i < n; i++) {
    const text = `#${i} ${i % 2 ? 'Here is what I found about' : 'Tell me about'} record ${i}: lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.`;
    events.push({ type: 'message.created', message_id: `m-${i}`, role: i % 2 ? 'assistant' : 'user', text });
    if (i % 2) events.push({ type: 'message.done', message_id: `m-${i}` });
  }
  return events;
}

/** A model that streams a long answer word by word, so scrolling and Stop can be tried while it writes. */
export async function streamLongAnswer(api: { emit(event: ThreadEventInput): void; signal: AbortSignal; turnId: string }, words = 120, delayMs = 25) {
  const id = `reply-${api.turnId}`;
  api.emit({ type: 'message.created', message_id: id, role: 'assistant', text: '', turn_id: api.turnId, driver: { id: 'offline', label: 'Offline model' } });
  for (let i = 0; i < words && !api.signal.aborted; i++) {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    api.emit({ type: 'message.delta', message_id: id, delta: `${i % 12 === 0 ? '\n\n' : ''}word${i} ` });
  }
  api.emit({ type: 'message.done', message_id: id });
}

/**
 * Streams one long paragraph (no blank line in it), `words` words a few at a time: long enough
 * that the reply's finished lines are set apart while it grows (see PlainParagraph).
 */
export async function streamLongParagraph(api: { emit(event: ThreadEventInput): void; signal: AbortSignal; turnId: string }, words = 2_400, perTick = 6, delayMs = 16) {
  const id = `reply-${api.turnId}`;
  api.emit({ type: 'message.created', message_id: id, role: 'assistant', text: '', turn_id: api.turnId, driver: { id: 'offline', label: 'Offline model' } });
  for (let i = 0; i < words && !api.signal.aborted; i += perTick) {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    let delta = '';
    for (let k = i; k < Math.min(words, i + perTick); k++) delta += `${k % 9 === 0 ? 'the ' : ''}word${k}${k % 23 === 22 ? ',' : ''} `;
    api.emit({ type: 'message.delta', message_id: id, delta });
  }
  api.emit({ type: 'message.done', message_id: id });
}
