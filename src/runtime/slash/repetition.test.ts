import { describe, expect, it } from 'vitest';
import type { InvocationRow, Row } from '../fold';
import { findRepetition } from './repetition';

const inv = (id: string, turn: string, capability: string, title: string, state: InvocationRow['state'] = 'done'): InvocationRow => ({
  kind: 'invocation', id, turn_id: turn, capability, title, args: {}, state, output: '', outputTruncated: false,
});
const user = (id: string): Row => ({ kind: 'user', id, text: 'import and enrich' });

describe('findRepetition', () => {
  it('offers a skill when the latest turn repeats an earlier multi-step sequence', () => {
    const rows: Row[] = [
      user('u1'), inv('i1', 't1', 'records.import_csv', 'Import CSV'), inv('i2', 't1', 'enrich.batch', 'Enrich records'),
      user('u2'), inv('i3', 't2', 'records.list', 'List records'),
      user('u3'), inv('i4', 't3', 'records.import_csv', 'Import CSV'), inv('i5', 't3', 'enrich.batch', 'Enrich records'),
    ];
    expect(findRepetition(rows)).toEqual({
      sequence: ['records.import_csv', 'enrich.batch'],
      titles: ['Import CSV', 'Enrich records'],
      turns: ['t1', 't3'],
      suggestedName: 'import-csv-then-enrich-records',
    });
  });

  it('stays quiet for single steps, different orders, failed runs, or when the latest turn is new', () => {
    expect(findRepetition([inv('a', 't1', 'x', 'X'), inv('b', 't2', 'x', 'X')])).toBeNull();
    expect(findRepetition([inv('a', 't1', 'x', 'X'), inv('b', 't1', 'y', 'Y'), inv('c', 't2', 'y', 'Y'), inv('d', 't2', 'x', 'X')])).toBeNull();
    expect(findRepetition([inv('a', 't1', 'x', 'X'), inv('b', 't1', 'y', 'Y', 'failed'), inv('c', 't2', 'x', 'X'), inv('d', 't2', 'y', 'Y')])).toBeNull();
    expect(findRepetition([inv('a', 't1', 'x', 'X'), inv('b', 't1', 'y', 'Y'), inv('c', 't2', 'x', 'X'), inv('d', 't2', 'y', 'Y'), inv('e', 't3', 'z', 'Z'), inv('f', 't3', 'w', 'W')])).toBeNull();
  });
});
