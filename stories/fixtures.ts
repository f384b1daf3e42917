import { createLocalWorkspace } from '../src';
import { createOfflineDriver, defineCapability, textResult, type InvocationRow } from '../src/runtime';
import { z } from 'zod';

/** A deterministic in-page workspace for stories: no network, no timers unless a verb asks for them. */
export function storyWorkspace() {
  const lookup = defineCapability({
    name: 'records.count',
    title: 'Count records',
    description: 'Counts the records in the workspace.',
    input: z.object({}),
    handler: () => textResult('There are 42 records.', { count: 42 }),
  });
  const enrich = defineCapability({
    name: 'enrich.batch',
    title: 'Enrich records',
    description: 'Adds company data to records; slow, reports progress per record.',
    input: z.object({ limit: z.number().int().min(1).max(100).default(10) }),
    actor: { id: 'enricher', name: 'Enricher', glyph: 'E' },
    handler: async ({ limit }, ctx) => {
      ctx.progress(3, limit, `Enriching record 4 of ${limit}`);
      ctx.output('record 1 enriched\nrecord 2 enriched\nrecord 3 enriched\n');
      // Holds until cancelled, so the story shows a running card.
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      return textResult('Stopped.');
    },
  });
  return createLocalWorkspace({ capabilities: [lookup, enrich], driver: createOfflineDriver({ delayMs: 0 }), now: () => 1_700_000_000_000 });
}

const base = { kind: 'invocation' as const, capability: 'enrich.batch', title: 'Enrich records', args: { limit: 10 }, output: '', outputTruncated: false, startedAt: 0 };
const actor = { id: 'enricher', name: 'Enricher', glyph: 'E' };

export const cardRows: Record<string, InvocationRow> = {
  running: { ...base, id: 'inv_running', actor, state: 'running', progress: { progress: 4, total: 10, message: 'Enriching record 5 of 10' } },
  indeterminate: { ...base, id: 'inv_indeterminate', actor, state: 'running', progress: { progress: 1, message: 'Contacting the registry' } },
  streaming: { ...base, id: 'inv_streaming', actor, state: 'running', output: 'record 1 enriched\nrecord 2 enriched\nrecord 3 enriched\n' },
  done: {
    ...base,
    id: 'inv_done',
    state: 'done',
    endedAt: 2_400,
    result: { content: [{ type: 'text', text: 'Enriched 10 records.' }], structuredContent: { enriched: 10 }, display_hint: { summary: 'Enriched 10 records' } },
  },
  invalid: {
    ...base,
    id: 'inv_invalid',
    args: undefined,
    state: 'failed',
    startedAt: 0,
    endedAt: 0,
    recoverable: true,
    error: {
      code: 'invalid_arguments',
      message: 'Enrich records was not run: limit: Too big: expected number to be <=100.',
      issues: [{ path: 'limit', message: 'Too big: expected number to be <=100' }],
    },
  },
  toolError: {
    ...base,
    id: 'inv_tool_error',
    state: 'failed',
    endedAt: 900,
    recoverable: true,
    error: { code: 'tool_error', message: 'The registry refused the request (quota exceeded).' },
    result: { content: [{ type: 'text', text: 'The registry refused the request (quota exceeded).' }], isError: true },
  },
  cancelled: { ...base, id: 'inv_cancelled', state: 'cancelled', endedAt: 1_300, recoverable: true, error: { code: 'cancelled', message: 'Enrich records was cancelled.' } },
  cancelledPartWay: {
    ...base,
    id: 'inv_cancelled_part_way',
    actor,
    state: 'cancelled',
    endedAt: 3_100,
    recoverable: true,
    progress: { progress: 2, total: 5, message: '2 of 5 records enriched' },
    error: { code: 'cancelled', message: 'Enrich records was cancelled.' },
  },
  queued: { ...base, id: 'inv_queued', actor, state: 'queued', startedAt: undefined, job_id: 'job_1' } as InvocationRow,
  longOutput: {
    ...base,
    id: 'inv_long_output',
    actor,
    state: 'running',
    progress: { progress: 40, total: 100, message: 'Enriching record 41 of 100' },
    output: Array.from({ length: 40 }, (_, i) => `record ${i + 1} enriched`).join('\n') + '\n',
  },
  table: {
    ...base,
    id: 'inv_table',
    state: 'done',
    endedAt: 1_800,
    result: {
      content: [{ type: 'text', text: 'Found 12 companies.' }],
      structuredContent: { companies: Array.from({ length: 12 }, (_, i) => ({ name: `Acme ${i + 1}`, city: ['Oslo', 'Lyon', 'Porto'][i % 3], employees: 10 * (i + 1) })) },
      display_hint: { kind: 'table', summary: '12 companies' },
    },
  },
  wideTable: {
    ...base,
    capability: 'records.list',
    title: 'List records',
    id: 'inv_wide_table',
    state: 'done',
    endedAt: 400,
    result: {
      content: [{ type: 'text', text: '4 records.' }],
      structuredContent: {
        records: ['Ada Lovelace', 'Grace Hopper', 'Katherine Johnson', 'Edsger Dijkstra'].map((name, i) => ({
          name,
          company: ['Analytical Engines', 'COBOL Systems', 'Orbit Labs', 'Shortest Paths BV'][i],
          industry: ['Software', 'Software', 'Aerospace', 'Software'][i],
          website: `https://example.com/${name.split(' ')[1]!.toLowerCase()}`,
          company_size: ['1-10', '11-50', '51-200', '1-10'][i],
        })),
      },
      display_hint: { kind: 'table', summary: '4 records' },
    },
  },
  list: {
    ...base,
    id: 'inv_list',
    state: 'done',
    endedAt: 600,
    result: { content: [{ type: 'text', text: 'Three tags are in use.' }], structuredContent: { tags: ['customer', 'prospect', 'partner'] }, display_hint: { kind: 'list' } },
  },
  json: {
    ...base,
    id: 'inv_json',
    state: 'done',
    endedAt: 300,
    result: { content: [{ type: 'text', text: 'Settings read.' }], structuredContent: { sync: { every: '1h', enabled: true }, fields: ['name', 'email'] }, display_hint: { kind: 'json' } },
  },
  link: {
    ...base,
    id: 'inv_link',
    state: 'done',
    endedAt: 4_200,
    result: {
      content: [{ type: 'resource_link', uri: 'https://example.com/reports/weekly.pdf', name: 'weekly.pdf', title: 'Weekly report (PDF)' }],
      display_hint: { kind: 'link', summary: 'The weekly report is ready' },
    },
  },
  slow: {
    ...base,
    id: 'inv_slow',
    state: 'done',
    endedAt: 7_500,
    slow: { max_ms: 5_000, actual_ms: 7_500 },
    violations: [{ postcondition: 'row_count_change', expected: 'records += 10', actual: 'records +8', message: 'Two records were not enriched.' }],
    result: { content: [{ type: 'text', text: 'Enriched 8 records.' }], structuredContent: { enriched: 8 } },
  },
  checked: {
    ...base,
    id: 'inv_checked',
    actor,
    state: 'done',
    endedAt: 800,
    output: 'Margaret Hamilton: Software\nRadia Perlman: Other\n',
    checks: [{ postcondition: 'row_count_change', text: '2 more enriched records' }],
    result: { content: [{ type: 'text', text: 'Enriched 2 records.' }], structuredContent: { enriched: 2, duration_ms: 804 }, display_hint: { summary: 'Enriched 2 records' } },
  },
  failedCheck: {
    ...base,
    id: 'inv_failed_check',
    capability: 'records.import_csv',
    title: 'Import CSV',
    state: 'done',
    endedAt: 300,
    violations: [{ postcondition: 'row_count_change', expected: 'records +2', actual: 'records +0', message: 'Import CSV should have added 2 rows to records, but the count went from 4 to 4.' }],
    result: { content: [{ type: 'text', text: 'Imported 0 records from broken.csv; 2 rows skipped.' }], structuredContent: { exit_code: 0, duration_ms: 301 } },
  },
};
