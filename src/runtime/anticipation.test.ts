import { describe, expect, it } from 'vitest';
import { anticipationKey, suggest, type AnticipationMap } from './anticipation';

const map: AnticipationMap = {
  'record_list::none': [{ capability: 'records.import_csv', hint: 'Import a CSV' }],
  'record_list::records.import_csv': [
    { capability: 'enrich.batch', hint: 'Enrich the new records', prefill: { limit: 10 } },
    { capability: 'records.list', hint: 'Show the records' },
  ],
  'record_detail::none': [
    { capability: 'a', hint: 'A' },
    { capability: 'b', hint: 'B' },
    { capability: 'c', hint: 'C' },
    { capability: 'd', hint: 'D' },
  ],
};

describe('anticipation', () => {
  it('keys by view kind and last capability, with none for either missing', () => {
    expect(anticipationKey({ kind: 'record_list' }, 'records.import_csv')).toBe('record_list::records.import_csv');
    expect(anticipationKey(null, null)).toBe('none::none');
  });

  it('returns the exact entry for the view and the last capability', () => {
    expect(suggest(map, { kind: 'record_list' }, 'records.import_csv').map((s) => s.hint)).toEqual(['Enrich the new records', 'Show the records']);
  });

  it("falls back to the view's none entry when nothing is listed after the last capability", () => {
    expect(suggest(map, { kind: 'record_list' }, 'enrich.batch').map((s) => s.capability)).toEqual(['records.import_csv']);
  });

  it('never returns more than three, and nothing for an unknown view or no map', () => {
    expect(suggest(map, { kind: 'record_detail', id: 'r1' }, null)).toHaveLength(3);
    expect(suggest(map, { kind: 'settings' }, null)).toEqual([]);
    expect(suggest(undefined, { kind: 'record_list' }, null)).toEqual([]);
  });

  it('gives the same array for the same moment, so a chip row does not re-render', () => {
    expect(suggest(map, { kind: 'record_list' }, 'records.import_csv')).toBe(suggest(map, { kind: 'record_list' }, 'records.import_csv'));
  });
});
