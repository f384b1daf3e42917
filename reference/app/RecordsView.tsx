import type { RecordRow } from '../records/store';

export interface RecordsViewProps {
  records: readonly RecordRow[];
  total: number;
  /** The record shown in detail, if any. */
  selected: RecordRow | null;
  onSelect(record: RecordRow | null): void;
  /** Set while the list is being fetched again. */
  error: string | null;
}

/** The host's own screen: the records table, or one record's detail. */
export function RecordsView({ records, total, selected, onSelect, error }: RecordsViewProps) {
  if (selected) {
    return (
      <section className="records" aria-labelledby="record-title">
        <button type="button" className="back" onClick={() => onSelect(null)}>
          ← All records
        </button>
        <h2 id="record-title">{selected.name}</h2>
        <dl className="record-detail">
          {(['email', 'company', 'industry', 'website', 'employees', 'country', 'since'] as const).map((field) => (
            <div key={field}>
              <dt>{field}</dt>
              <dd>{selected[field] ?? '—'}</dd>
            </div>
          ))}
          <div>
            <dt>enriched</dt>
            <dd>{selected.enriched_at ? 'yes' : 'not yet'}</dd>
          </div>
        </dl>
      </section>
    );
  }
  const enriched = records.filter((r) => r.enriched_at).length;
  return (
    <section className="records" aria-labelledby="records-title">
      <h2 id="records-title">Records</h2>
      <p className="records-count" role="status">
        {total} {total === 1 ? 'record' : 'records'}, {enriched} enriched
      </p>
      {error ? <p role="alert">{error}</p> : null}
      {records.length === 0 ? (
        <p className="records-empty">No records yet. Import a CSV from the chat.</p>
      ) : (
        <table>
          <caption className="sr-only">Records in this workspace</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Company</th>
              <th scope="col">Industry</th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => (
              <tr key={r.id} data-enriched={r.enriched_at ? 'yes' : 'no'}>
                <td>
                  <button type="button" className="link" onClick={() => onSelect(r)}>
                    {r.name}
                  </button>
                </td>
                <td>{r.company ?? '—'}</td>
                <td>{r.industry ?? 'not enriched'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
