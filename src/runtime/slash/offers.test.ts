import { describe, expect, it } from 'vitest';
import type { InvocationRow, Row } from '../fold';
import { draftSkillOffer, readOfferAnswer } from './offers';

const inv = (id: string, turn: string, capability: string, title: string, args: unknown = {}): InvocationRow => ({
  kind: 'invocation', id, turn_id: turn, capability, title, args, state: 'done', output: '', outputTruncated: false,
});
const twice: Row[] = [
  inv('i1', 't1', 'records.import_csv', 'Import CSV', { file: 'a.csv' }), inv('i2', 't1', 'enrich.batch', 'Enrich records'),
  inv('i3', 't2', 'records.import_csv', 'Import CSV', { rows: 3, file: 'b.csv' }), inv('i4', 't2', 'enrich.batch', 'Enrich records', { limit: 5 }),
];

describe('draftSkillOffer', () => {
  it('drafts a skill from the repeated sequence, with the latest arguments as examples', () => {
    expect(draftSkillOffer(twice)).toEqual({
      sequence: ['records.import_csv', 'enrich.batch'],
      titles: ['Import CSV', 'Enrich records'],
      name: 'import-csv-then-enrich-records',
      description: 'Runs Import CSV, then Enrich records.',
      turn_id: 't2',
      instructions: [
        'Run these steps in order, one after another, and report what each one did in plain words:',
        '1. Import CSV (records.import_csv)',
        '2. Enrich records (enrich.batch)',
        '',
        "Take the arguments from the user's task. Last time they were:",
        '- Import CSV: {"file":"b.csv","rows":3}',
        '- Enrich records: {"limit":5}',
      ].join('\n'),
    });
  });

  it('offers a sequence once per thread, whatever became of the offer', () => {
    for (const status of ['pending', 'saved', 'dismissed'] as const) {
      const offer: Row = { kind: 'skill_offer', id: 'o1', sequence: ['records.import_csv', 'enrich.batch'], titles: [], name: 'x', description: '', status };
      expect(draftSkillOffer([...twice, offer])).toBeNull();
    }
    const other: Row = { kind: 'skill_offer', id: 'o1', sequence: ['a', 'b'], titles: [], name: 'x', description: '', status: 'saved' };
    expect(draftSkillOffer([...twice, other])).not.toBeNull();
  });

  it('stays quiet without a repetition', () => {
    expect(draftSkillOffer(twice.slice(0, 3))).toBeNull();
  });
});

describe('readOfferAnswer', () => {
  it.each([
    [undefined, { id: 'proposed', scope: 'user' }],
    ['', { id: 'proposed', scope: 'user' }],
    ['weekly-import', { id: 'weekly-import', scope: 'user' }],
    ['/Weekly Import', { id: 'weekly-import', scope: 'user' }],
    ['user:mine', { id: 'mine', scope: 'user' }],
    ['space', { id: 'proposed', scope: 'space' }],
    ['Space: team-import', { id: 'team-import', scope: 'space' }],
  ])('%j → %j', (answer, expected) => {
    expect(readOfferAnswer(answer, 'proposed')).toEqual(expected);
  });

  it('refuses a name that cannot be a slash word, saying the offer is still open', () => {
    expect(() => readOfferAnswer('space:so!', 'proposed')).toThrow('"so!" cannot be a slash word: use 1–64 lowercase letters, digits or hyphens (e.g. "weekly-import"). The offer is still open.');
  });
});
