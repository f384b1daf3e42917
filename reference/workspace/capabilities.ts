import { defineCapability, routeIntent, textResult, type AnticipationMap, type CapabilityDescriptor, type Route } from 'chatsurface/runtime';
import { z } from 'zod';
import { enrichRecord } from '../records/enrich';
import type { RecordRow, RecordStore } from '../records/store';

/** The tenant the corpus search is pinned to: no caller can search another's notes. */
export const TENANT = 'acme';

// Two letters each: a lone "X" reads as close or failed.
const ENRICHER = { id: 'enricher', name: 'Enricher', glyph: 'En' } as const;
const EXPORTER = { id: 'exporter', name: 'Exporter', glyph: 'Ex' } as const;

/** Where exports go: `exports/` in the demo's state folder on the server (never in the checkout), memory in the page. */
export interface ExportTarget {
  /** Writes a file under `exports/` and returns its path relative to the state folder. */
  write(name: string, text: string): Promise<string>;
}

/** Counts behind the postconditions: records, enriched records, and what a run should change. */
export function recordCounts(records: RecordStore) {
  return async (entity: string): Promise<number> => {
    if (entity === 'records') return records.count();
    if (entity === 'enriched_records') return records.count({ enriched: true });
    // What an enrichment of `limit` records should newly enrich: the pending ones among those it touches.
    const pending = /^enrichable:(\d+)(?::(true|false))?$/.exec(entity);
    if (pending) {
      const limit = Number(pending[1]);
      if (pending[2] !== 'false') return Math.min(limit, await records.count({ enriched: false }));
      return (await records.list({ limit })).filter((r) => r.enriched_at === null).length;
    }
    throw new Error(`nothing is counted as "${entity}"`);
  };
}

/**
 * The reference workspace's in-process verbs: list, enrich (slow, with an
 * actor and progress per record) and export to the CRM (a mutate that asks
 * for approval and must create a file).
 */
export function recordCapabilities(records: RecordStore, exports: ExportTarget, { enrichDelayMs = 400 } = {}): CapabilityDescriptor[] {
  const list = defineCapability({
    name: 'records.list',
    title: 'List records',
    description: 'Lists the records in the workspace, newest last; can show only enriched or only pending ones.',
    examples: ['show me the records', 'how many records do I have?', 'which records are not enriched yet?', 'show what came in', 'what is in the list?'],
    input: z.object({
      limit: z.number().int().min(1).max(100).default(20).meta({ title: 'Records to show', description: 'At most this many records are listed.' }),
      enriched: z
        .boolean()
        .optional()
        .meta({
          title: 'Enriched',
          description: 'Only enriched records ("enriched", "scored", "done") when true; false: only records waiting for enrichment ("pending", "unscored", "not enriched", "not scored", "waiting").',
        }),
    }),
    annotations: { openWorldHint: false },
    handler: async ({ limit, enriched }) => {
      const filter = enriched === undefined ? {} : { enriched };
      const [rows, total] = await Promise.all([records.list({ limit, ...filter }), records.count(filter)]);
      const lines = rows.map((r) => `${r.name} <${r.email}>${r.company ? `, ${r.company}` : ''}${r.industry ? ` (${r.industry})` : ''}`);
      const one = new Intl.PluralRules('en').select(total) === 'one';
      const noun = one ? 'record' : 'records';
      const what = enriched === undefined ? noun : enriched ? `enriched ${noun}` : `${noun} waiting for enrichment`;
      const text = total === 0 ? `There are no ${what}.` : `${total} ${what}${total > rows.length ? `, showing ${rows.length}` : ''}:\n${lines.join('\n')}`;
      return textResult(text, { total, records: rows.map(brief) }, { kind: 'table', summary: `${total} ${what}` });
    },
  });

  const enrich = defineCapability({
    name: 'enrich.batch',
    title: 'Enrich records',
    description:
      'Scores records with their industry and website, one by one; slow, reports progress per record. With unscored, only records not enriched yet; otherwise records enriched before are refreshed too.',
    examples: ['enrich the new records', 'score the records', 'fill in the industry and website', 'score the unscored ones', 'enrich the pending records'],
    kind: 'mutate',
    input: z.object({
      limit: z.number().int().min(1).max(50).default(10).meta({ title: 'Records to enrich', description: 'At most this many records are enriched in one run.' }),
      unscored: z
        .boolean()
        .default(false)
        .meta({
          title: 'Only unscored records',
          description: 'Only the records not enriched yet ("unscored", "not scored", "pending", "not enriched", "new", "waiting") when true; false: every record, refreshing ones enriched before ("all", "every", "refresh").',
        }),
    }),
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    actor: ENRICHER,
    expected_effect: [{ type: 'row_count_change', entity: 'enriched_records', op: '+=', value: { count: 'enrichable:{{limit}}:{{unscored}}' } }],
    handler: async ({ limit, unscored }, ctx) => {
      const pending = await records.list(unscored ? { limit, enriched: false } : { limit });
      if (pending.length === 0) return textResult(unscored ? 'Every record is already enriched.' : 'There are no records to enrich.', { enriched: 0 }, { summary: 'No records needed enriching' });
      const noun = new Intl.PluralRules('en').select(pending.length) === 'one' ? 'record' : 'records';
      // Progress says what is done (each record once it is saved), so a run stopped part way says
      // what it changed ("Stopped part way: 2 of 4 records enriched.").
      ctx.progress(0, pending.length, `Enriching ${pending.length} ${noun}…`);
      for (const [i, record] of pending.entries()) {
        await sleep(enrichDelayMs, ctx.signal);
        const added = enrichRecord(record);
        await records.enrich(record.id, added);
        ctx.output(`${record.name}: ${added.industry}\n`);
        ctx.progress(i + 1, pending.length, `${i + 1} of ${pending.length} ${noun} enriched`);
      }
      return textResult(`Enriched ${pending.length} ${noun}.`, { enriched: pending.length }, { summary: `Enriched ${pending.length} ${noun}` });
    },
  });

  const exportCrm = defineCapability({
    name: 'crm.export',
    title: 'Export to CRM',
    description: 'Writes the enriched records to a CSV file for the CRM staging table; overwrites staging, so it asks first.',
    examples: ['export to the CRM', 'send the enriched records to the CRM', 'push them to the CRM staging table'],
    kind: 'mutate',
    requires_user_confirmation: true,
    input: z.object({}),
    annotations: { destructiveHint: true, openWorldHint: false },
    actor: EXPORTER,
    expected_effect: [{ type: 'file_created', glob: 'exports/*.csv', min_count: 1 }],
    handler: async () => {
      const rows = await records.list({ limit: 10_000, enriched: true });
      const header = 'name,email,company,industry,website,employees,country';
      const csv = [header, ...rows.map((r) => [r.name, r.email, r.company, r.industry, r.website, r.employees, r.country].map(cell).join(','))].join('\n');
      const path = await exports.write(`crm-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`, `${csv}\n`);
      return textResult(`Exported ${rows.length} enriched records to ${path}.`, { exported: rows.length, path }, { kind: 'link', summary: `Exported ${rows.length} records` });
    },
  });

  return [list, enrich, exportCrm];
}

/**
 * This host has no tracker of its own yet, so a standing request ("keep an
 * eye on … every week") is confirmed with the router's one question before it
 * is handed over; one-shot and ambiguous requests route as usual.
 */
export function confirmStanding(text: string): Route {
  const route = routeIntent(text);
  return route.kind === 'standing' ? { ...route, kind: 'ambiguous' } : route;
}

/** Suggested next verbs for the records screen and the record detail. */
export const anticipation: AnticipationMap = {
  'record_list::none': [
    { capability: 'records.import_csv', hint: 'Import customers.csv', prefill: { file: 'customers.csv' } },
    { capability: 'records.list', hint: 'List the records' },
  ],
  'record_list::records.import_csv': [
    { capability: 'enrich.batch', hint: 'Enrich the new records', prefill: { limit: 10, unscored: true } },
    { capability: 'records.list', hint: 'Show what came in', prefill: { enriched: false } },
  ],
  'record_list::enrich.batch': [
    { capability: 'crm.export', hint: 'Export the enriched records to the CRM' },
    { capability: 'records.list', hint: 'Show the enriched records', prefill: { enriched: true } },
  ],
  'record_list::crm.export': [{ capability: 'records.list', hint: 'List the records' }],
  'record_detail::none': [
    { capability: 'enrich.batch', hint: 'Enrich the pending records', prefill: { limit: 10, unscored: true } },
    { capability: 'corpus.search', hint: 'Search the notes on enrichment', prefill: { query: 'enrichment' } },
  ],
};

function brief(r: RecordRow) {
  return { id: r.id, name: r.name, email: r.email, company: r.company, industry: r.industry, enriched: r.enriched_at !== null };
}

function cell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('Cancelled.'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('Cancelled.'));
    }, { once: true });
  });
}
