import type { Row } from './rows';
import type { ThreadState } from './state';

/*
 * Row storage without a copy per event. A state's `rows` is a plain array;
 * folding from the newest state of an array appends to it and replaces in it
 * in place (so an event costs the same on a thread of 300 rows or 30,000),
 * and the state it was folded from keeps its own view: its `rows` becomes a
 * getter that, when read, rebuilds its rows once from the newer state's and
 * the undo record (length, and the rows overwritten), then stays a plain
 * array. Folding again from such an older state (a fork) copies. A state's
 * `ids` are handed on the same way (ids are only appended), and the position
 * index (`indexFor`) goes with the ids array. `Draft` decides when to write in
 * place (`writableInPlace`) and hands the arrays on at its end (`handOn`).
 */

/** What an older state needs to see its own rows once a newer state wrote into its array. */
export interface RowUndo {
  /** How many rows the older state had. */
  length: number;
  /** Its rows at the positions the newer state overwrote. */
  rows: Map<number, Row>;
}
/**
 * The state that owns a row array (the newest one reading it as a plain
 * array), kept on the array under a symbol: no WeakMap entry per event, which
 * the garbage collector would pay for.
 */
const OWNER = Symbol('chatsurface.rowsOwner');
type Owned = readonly unknown[] & { [OWNER]?: ThreadState };
const ownerOf = (rows: readonly unknown[]): ThreadState | undefined => (rows as Owned)[OWNER];
const setOwner = (rows: readonly unknown[], state: ThreadState): void => {
  // Not enumerable, so arrays compare and serialise as plain arrays (an assignment keeps that).
  if (Object.hasOwn(rows, OWNER)) (rows as { [OWNER]?: ThreadState })[OWNER] = state;
  else Object.defineProperty(rows, OWNER, { configurable: true, enumerable: false, writable: true, value: state });
};
/** An older state whose row array was handed on: the newer state and what it changed, on the state under a symbol. */
const LINK = Symbol('chatsurface.rowsLink');
interface RowLink {
  successor: ThreadState;
  undo: RowUndo;
}
type Linked = ThreadState & { [LINK]?: RowLink };

/**
 * An older state's ids after its array was handed on: the same array while
 * nothing was appended, else its first `length` entries (ids are only ever
 * appended), copied once.
 */
function pinIds(state: ThreadState, ids: readonly string[], length: number): void {
  Object.defineProperty(state, 'ids', {
    configurable: true,
    enumerable: true,
    get(this: ThreadState) {
      if (ids.length === length) return ids;
      const own = ids.slice(0, length);
      Object.defineProperty(this, 'ids', { configurable: true, enumerable: true, writable: false, value: own });
      return own;
    },
  });
}

function rowsGetter(this: Linked): readonly Row[] {
  return ownView(this);
}

function handOver(base: ThreadState, next: ThreadState, undo: RowUndo): void {
  setOwner(next.rows, next);
  Object.defineProperty(base, LINK, { configurable: true, enumerable: false, writable: true, value: { successor: next, undo } });
  Object.defineProperty(base, 'rows', { configurable: true, enumerable: true, get: rowsGetter });
}

/** The rows of a state that handed its array on: rebuilt from the newest state along the chain, then kept. */
function ownView(state: Linked): readonly Row[] {
  // Walk to the first state reading a plain array (no recursion: a chain can be long).
  const chain: RowUndo[] = [];
  let at: Linked = state;
  for (let link = at[LINK]; link; link = at[LINK]) {
    chain.push(link.undo);
    at = link.successor as Linked;
  }
  const rows = at.rows.slice();
  for (let k = chain.length - 1; k >= 0; k--) {
    const undo = chain[k]!;
    rows.length = undo.length;
    for (const [i, row] of undo.rows) rows[i] = row;
  }
  state[LINK] = undefined;
  Object.defineProperty(state, 'rows', { configurable: true, enumerable: true, writable: false, value: rows });
  return rows;
}

/**
 * Row positions by kind and id, cached per `ids` array and handed on to the
 * next state's array, so a batch never scans the transcript. Rows are never
 * removed or reordered, so an entry stays true for every later state; `find`
 * checks it anyway, which keeps states folded apart from one base correct.
 * A state without an entry (restored from JSON, say) is indexed once.
 */
const indexes = new WeakMap<readonly string[], Map<string, number>>();

export function indexFor(state: ThreadState): Map<string, number> {
  // Every empty thread shares initialThreadState's arrays: each gets its own index.
  if (state.rows.length === 0) return new Map();
  let index = indexes.get(state.ids);
  if (!index) {
    index = new Map();
    state.rows.forEach((row, i) => index!.set(`${row.kind}:${row.id}`, i));
    indexes.set(state.ids, index);
  }
  return index;
}

/**
 * True when `array` (a state's rows or ids) may be written in place by the state folded from
 * `state`: `state` is its newest reader and neither is frozen. Otherwise it is copied first.
 */
export function writableInPlace(state: ThreadState, array: readonly unknown[]): boolean {
  return array.length > 0 && ownerOf(array) === state && !Object.isFrozen(state) && !Object.isFrozen(array);
}

/**
 * Hands a batch's arrays from `base` on to `next`: `next` becomes their newest reader, and `base`
 * keeps its own view (its first `idsTaken` ids, its rows through `undo`). `index` goes with the
 * ids `next` has when they are a copy of its own.
 */
export function handOn(base: ThreadState, next: ThreadState, index: Map<string, number>, undo: RowUndo | null, idsTaken: number | null): void {
  const ids = next.ids;
  if (ids !== base.ids) {
    indexes.set(ids, index);
    setOwner(ids, next);
  } else if (ownerOf(ids) === base && !Object.isFrozen(base)) {
    // Appended in place, or shared untouched: the next state owns them; the base keeps its length.
    setOwner(ids, next);
    pinIds(base, ids, idsTaken ?? ids.length);
  }
  const rows = next.rows;
  if (undo) handOver(base, next, undo);
  else if (rows === base.rows && ownerOf(rows) === base && !Object.isFrozen(base)) {
    // Untouched rows, shared: the next state is their newest reader; the base keeps its view.
    handOver(base, next, { length: rows.length, rows: new Map() });
  } else if (rows !== base.rows) setOwner(rows, next);
}
