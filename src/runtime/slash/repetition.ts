import type { InvocationRow, Row } from '../fold';

/** A multi-step request the user made twice: worth saving as a skill. */
export interface Repetition {
  /** Capability names, in the order they ran. */
  sequence: string[];
  /** Their titles, for the offer's wording. */
  titles: string[];
  /** The turns that ran the sequence, oldest first. */
  turns: string[];
  /** A slash word to propose, e.g. `import-csv-then-enrich-records`. */
  suggestedName: string;
}

/**
 * Looks at the thread after a turn: when the latest turn ran the same
 * sequence of two or more capabilities as an earlier turn, returns it.
 * Only successful invocations count.
 * @example
 * const repeated = findRepetition(state.rows);
 */
export function findRepetition(rows: readonly Row[]): Repetition | null {
  const byTurn = new Map<string, InvocationRow[]>();
  for (const row of rows) {
    if (row.kind !== 'invocation' || !row.turn_id || row.state !== 'done') continue;
    const list = byTurn.get(row.turn_id);
    if (list) list.push(row);
    else byTurn.set(row.turn_id, [row]);
  }
  const turns = [...byTurn.entries()];
  const last = turns.at(-1);
  if (!last || last[1].length < 2) return null;
  const key = signature(last[1]);
  const earlier = turns.slice(0, -1).find(([, invocations]) => signature(invocations) === key);
  if (!earlier) return null;
  const sequence = last[1].map((r) => r.capability);
  const titles = last[1].map((r) => r.title);
  return { sequence, titles, turns: [earlier[0], last[0]], suggestedName: slug(titles.join(' then ')) };
}

function signature(invocations: readonly InvocationRow[]): string {
  return invocations.map((r) => r.capability).join('\u0000');
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 64)
      .replace(/-+$/, '') || 'my-skill'
  );
}
