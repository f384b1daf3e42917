import type { Enrichment } from './enrich';

export interface RecordRow {
  id: number;
  name: string;
  email: string;
  company: string | null;
  website: string | null;
  employees: number | null;
  country: string | null;
  since: string | null;
  industry: string | null;
  enriched_at: string | null;
  created_at: string;
}

/** The records behind the reference workspace: SQLite on the server, memory in the page. */
export interface RecordStore {
  list(options?: { limit?: number; offset?: number; enriched?: boolean }): Promise<RecordRow[]>;
  get(id: number): Promise<RecordRow | undefined>;
  count(options?: { enriched?: boolean }): Promise<number>;
  /** Inserts records; an email that already exists is skipped. Returns how many were inserted. */
  insert(records: Record<string, unknown>[]): Promise<number>;
  enrich(id: number, enrichment: Enrichment): Promise<void>;
}

/** A record store in memory, for stories and tests. */
export function createMemoryRecordStore(initial: Record<string, unknown>[] = []): RecordStore {
  const rows: RecordRow[] = [];
  const filter = (enriched?: boolean) => (enriched === undefined ? rows : rows.filter((r) => (r.enriched_at !== null) === enriched));
  const store: RecordStore = {
    async list({ limit = 100, offset = 0, enriched } = {}) {
      return filter(enriched).slice(offset, offset + limit).map((r) => ({ ...r }));
    },
    async get(id) {
      const row = rows.find((r) => r.id === id);
      return row && { ...row };
    },
    async count({ enriched } = {}) {
      return filter(enriched).length;
    },
    async insert(records) {
      let inserted = 0;
      for (const r of records) {
        const email = String(r.email ?? '');
        if (!email || rows.some((row) => row.email === email)) continue;
        rows.push({
          id: rows.length + 1,
          name: String(r.name ?? ''),
          email,
          company: (r.company as string | null) ?? null,
          website: (r.website as string | null) ?? null,
          employees: (r.employees as number | null) ?? null,
          country: (r.country as string | null) ?? null,
          since: (r.since as string | null) ?? null,
          industry: null,
          enriched_at: null,
          created_at: new Date().toISOString(),
        });
        inserted++;
      }
      return inserted;
    },
    async enrich(id, enrichment) {
      const row = rows.find((r) => r.id === id);
      if (!row) throw new Error(`There is no record ${id}.`);
      Object.assign(row, enrichment, { enriched_at: new Date().toISOString() });
    },
  };
  void store.insert(initial);
  return store;
}
