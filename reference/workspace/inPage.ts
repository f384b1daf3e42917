import { InMemoryTransport } from '@modelcontextprotocol/client';
import { createLocalWorkspace, type LocalWorkspace } from 'chatsurface';
import { createMcpConnection, defineMcpCapability } from 'chatsurface/mcp';
import { createOfflineDriver, defineCapability, defineSkillCapability, parseSkillMarkdown, textResult, type ModelDriver } from 'chatsurface/runtime';
import { parse } from 'csv-parse/browser/esm/sync';
import { z } from 'zod';
import { createCorpusServer } from '../corpus/corpusServer';
import brokenCsv from '../data/broken.csv?raw';
import customersCsv from '../data/customers.csv?raw';
import newLeadsCsv from '../data/new-leads.csv?raw';
import { recordSchema } from '../records/schema.mjs';
import { createMemoryRecordStore, type RecordStore } from '../records/store';
import { castRow } from '../records/tableSchema.mjs';
import skillMd from '../skills/crawl-fetch-ingest/SKILL.md?raw';
import reviewMd from '../skills/review/review.md?raw';
import { anticipation, confirmStanding, recordCapabilities, recordCounts, TENANT, type ExportTarget } from './capabilities';

/** The sample files an in-page import can read, like the server's data folder. */
const DATA: Record<string, string> = { 'customers.csv': customersCsv, 'new-leads.csv': newLeadsCsv, 'broken.csv': brokenCsv };

export interface InPageReferenceWorkspace {
  workspace: LocalWorkspace;
  records: RecordStore;
  /** Files the export wrote, by path. */
  files: Map<string, string>;
}

/**
 * The reference workspace entirely in the page (stories, tests): the same
 * verbs, schemas, postconditions and anticipation map as the server's, with
 * records in memory, the corpus MCP server over an in-memory transport, and
 * an import that reads the bundled sample CSVs instead of running a script.
 */
export async function createInPageReferenceWorkspace(options: { driver?: ModelDriver; enrichDelayMs?: number; now?: () => number } = {}): Promise<InPageReferenceWorkspace> {
  const records = createMemoryRecordStore();
  const files = new Map<string, string>();
  const exports: ExportTarget = {
    async write(name, text) {
      const path = `exports/${name}`;
      files.set(path, text);
      return path;
    },
  };

  const importCsv = defineCapability({
    name: 'records.import_csv',
    title: 'Import CSV',
    description: 'Imports a CSV file from the data folder into the records; rows that fail the schema are reported and skipped.',
    examples: ['import customers.csv', 'bring in the spreadsheet', 'load a CSV file', 'upload the customer list'],
    kind: 'mutate',
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: z.object({
      file: z
        .string()
        .regex(/^[\w.-]+\.csv$/, 'must be a CSV file name from the data folder, e.g. "customers.csv"')
        .meta({ title: 'File', description: 'A CSV file in the data folder, e.g. customers.csv.' }),
    }),
    expected_effect: [{ type: 'row_count_change', entity: 'records', op: '+=', value: { count: 'csv_rows:{{file}}' } }],
    handler: async ({ file }, ctx) => {
      const text = DATA[file];
      if (text === undefined) return { content: [{ type: 'text', text: `There is no ${file} in the data folder.` }], isError: true };
      const rows = parseCsv(text);
      const valid: Record<string, unknown>[] = [];
      rows.forEach((cells, i) => {
        const cast = castRow(recordSchema, cells);
        if (cast.ok) valid.push(cast.record);
        else ctx.output(`row ${i + 2}: ${cast.errors.map((e) => `${e.field} ${e.message}`).join('; ')}\n`, 'stderr');
      });
      const inserted = await records.insert(valid);
      return textResult(importSentence(rows.length, inserted, file), { inserted, rows: rows.length });
    },
  });

  const corpus = createMcpConnection({
    name: 'corpus',
    transport: async () => {
      const [client, server] = InMemoryTransport.createLinkedPair();
      await createCorpusServer().connect(server);
      return client;
    },
  });
  const search = await defineMcpCapability(corpus, { tool: 'search', name: 'corpus.search', pinned: { collection: TENANT }, examples: ['search the notes for enrichment', 'find notes about the export', 'what do the notes say about approvals?'] });
  const skill = defineSkillCapability(skillMd, { file: 'skills/crawl-fetch-ingest/SKILL.md', title: 'Plan an ingestion run' });
  const counts = recordCounts(records);

  const workspace = createLocalWorkspace({
    capabilities: [...recordCapabilities(records, exports, { enrichDelayMs: options.enrichDelayMs ?? 400 }), importCsv, search, skill],
    driver: options.driver ?? createOfflineDriver(),
    anticipation,
    alignment: 'strict',
    router: confirmStanding,
    // /review runs in a sub-thread of its own (launchesSubThread) and reports back (issue 15).
    skills: [parseSkillMarkdown('skills/review/review.md', reviewMd, 'Skill')],
    ...(options.now ? { now: options.now } : {}),
    probes: {
      countRows: (entity) => {
        const file = /^csv_rows:(.+)$/.exec(entity)?.[1];
        if (file === undefined) return counts(entity);
        const text = DATA[file];
        if (text === undefined) throw new Error(`there is no ${file}`);
        return parseCsv(text).length;
      },
      listFiles: (glob) => {
        const prefix = glob.replace(/\*.*$/, '');
        return Object.fromEntries([...files.keys()].filter((p) => p.startsWith(prefix)).map((p) => [p, 1]));
      },
    },
  });
  return { workspace, records, files };
}

function parseCsv(text: string): Record<string, string>[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as Record<string, string>[];
  return rows.filter((row) => Object.values(row).some((cell) => cell !== ''));
}

/** What an import did, as one sentence (the script prints the same). */
function importSentence(rows: number, inserted: number, file: string): string {
  const plural = (n: number, one: string) => `${n} ${new Intl.PluralRules('en').select(n) === 'one' ? one : `${one}s`}`;
  const skipped = rows - inserted;
  return `Imported ${plural(inserted, 'record')} from ${file}${skipped ? `; ${plural(skipped, 'row')} skipped` : ''}.`;
}
