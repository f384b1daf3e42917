import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldAll, initialThreadState, messageVersions, replyVersions, type Row, type ThreadState, type UserRow } from '../fold';

/**
 * Versions under random edits, regenerations and switches over long threads (issue 40): the
 * events are written as the host writes them (each row stamped with the shown path's last reply),
 * against a model of the tree kept here. Folded in seq order, the shown rows are exactly the
 * model's shown path; folded in any arrival order, with repeats, the same rows are shown and the
 * same are on the shelf; no version is ever lost, and no group ever shows two.
 */

type Op = { kind: 'send' } | { kind: 'edit'; at: number } | { kind: 'regenerate'; at: number } | { kind: 'switch'; at: number; part: 'message' | 'reply'; to: number } | { kind: 'chip' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'send' as const }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('edit' as const), at: fc.nat(40) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('regenerate' as const), at: fc.nat(40) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('switch' as const), at: fc.nat(40), part: fc.constantFrom('message' as const, 'reply' as const), to: fc.nat(5) }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'chip' as const }), weight: 1 },
);

interface Node {
  id: string;
  rows: string[];
  /** A message node: the ids of its versions' groups are kept on the group. */
  children: string[];
  chosen: string | null;
}

/** The tree as the host sees it, and the log it writes. */
class Model {
  events: Record<string, unknown>[] = [];
  nodes = new Map<string, Node>([['root', { id: 'root', rows: [], children: [], chosen: null }]]);
  /** Message groups: first version → versions; the reply node each message shows. */
  versionsOf = new Map<string, string[]>();
  firstOf = new Map<string, string>();
  /** Every row ever made, by key. */
  made = new Set<string>();
  /** The capability of each chip's card, by key. */
  capabilities = new Map<string, string>();
  private n = 0;

  private emit(event: Record<string, unknown>) {
    this.events.push({ ...event, seq: this.events.length + 1, ts: this.events.length + 1 });
  }
  private id(prefix: string) {
    return `${prefix}${++this.n}`;
  }
  private node(id: string): Node {
    let node = this.nodes.get(id);
    if (!node) this.nodes.set(id, (node = { id, rows: [], children: [], chosen: null }));
    return node;
  }

  /** The shown path: [reply or root, message, reply, message, …]. */
  path(): string[] {
    const out = ['root'];
    let reply = this.node('root');
    while (reply.chosen) {
      const message = this.node(reply.chosen);
      out.push(message.id);
      if (!message.chosen) break;
      reply = this.node(message.chosen);
      out.push(reply.id);
    }
    return out;
  }
  tip(): string {
    return this.path().at(-1)!;
  }
  shownRows(): string[] {
    return this.path().flatMap((id) => this.node(id).rows);
  }
  shownMessages(): string[] {
    return this.path().filter((id) => this.nodes.get(id)?.rows[0]?.startsWith('user:') && this.firstOf.has(id));
  }

  private answer(reply: string, turn: string) {
    const id = this.id('a');
    this.emit({ type: 'turn.started', turn_id: turn });
    this.emit({ type: 'message.created', message_id: id, role: 'assistant', text: '', turn_id: turn, branch: reply });
    this.emit({ type: 'message.delta', message_id: id, delta: `answer ${id}` });
    this.emit({ type: 'message.done', message_id: id });
    this.emit({ type: 'model.message', turn_id: turn, message: { role: 'assistant', text: `answer ${id}` }, branch: reply });
    this.emit({ type: 'turn.done', turn_id: turn, outcome: 'answered' });
    this.node(reply).rows.push(`assistant:${id}`);
    this.made.add(`assistant:${id}`);
  }

  private message(parent: string, first: string | null): void {
    const id = this.id('u');
    const turn = this.id('t');
    const reply = `${id}.reply`;
    this.emit({ type: 'message.created', message_id: id, role: 'user', text: `ask ${id}`, turn_id: turn, branch: parent, ...(first ? { version_of: first } : {}) });
    this.made.add(`user:${id}`);
    const firstId = first ?? id;
    this.firstOf.set(id, firstId);
    this.versionsOf.set(firstId, [...(this.versionsOf.get(firstId) ?? []), id]);
    const node = this.node(id);
    node.rows.push(`user:${id}`);
    node.children.push(reply);
    node.chosen = reply;
    const parentNode = this.node(parent);
    parentNode.chosen = id;
    this.answer(reply, turn);
  }

  apply(op: Op): void {
    const messages = this.shownMessages();
    switch (op.kind) {
      case 'send':
        return this.message(this.tip(), null);
      case 'chip': {
        // A direct run (no turn): a card at the shown path's end.
        const id = this.id('i');
        const capability = ['records.count', 'records.enrich', 'report.build'][this.n % 3]!;
        this.emit({ type: 'capability.started', invocation_id: id, capability, title: 'Count', args: {}, branch: this.tip() });
        this.emit({ type: 'capability.done', invocation_id: id, result: { content: [{ type: 'text', text: 'ok' }] } });
        this.node(this.tip()).rows.push(`invocation:${id}`);
        this.made.add(`invocation:${id}`);
        this.capabilities.set(`invocation:${id}`, capability);
        return;
      }
      case 'edit': {
        if (!messages.length) return;
        const target = messages[op.at % messages.length]!;
        const path = this.path();
        return this.message(path[path.indexOf(target) - 1]!, this.firstOf.get(target)!);
      }
      case 'regenerate': {
        if (!messages.length) return;
        const target = messages[op.at % messages.length]!;
        const reply = this.id('r');
        this.emit({ type: 'reply.regenerated', message_id: target, reply_id: reply });
        const node = this.node(target);
        node.children.push(reply);
        node.chosen = reply;
        this.answer(reply, this.id('t'));
        return;
      }
      case 'switch': {
        if (!messages.length) return;
        const target = messages[op.at % messages.length]!;
        if (op.part === 'message') {
          const first = this.firstOf.get(target)!;
          const versions = this.versionsOf.get(first)!;
          const to = versions[op.to % versions.length]!;
          this.emit({ type: 'version.selected', part: 'message', message_id: first, version: to });
          const path = this.path();
          this.node(path[path.indexOf(target) - 1]!).chosen = to;
        } else {
          const node = this.node(target);
          const to = node.children[op.to % node.children.length]!;
          this.emit({ type: 'version.selected', part: 'reply', message_id: target, version: to });
          node.chosen = to;
        }
      }
    }
  }
}

const keys = (rows: readonly Row[]) => rows.map((r) => `${r.kind}:${r.id}`);

/** Every event once, in a shuffled order, some repeated; the deltas of one message keep their order. */
function arrange(events: readonly Record<string, unknown>[], order: readonly number[], dups: readonly [number, number][]): unknown[] {
  const out = order.map((i) => events[i]!);
  if (events.length) for (const [from, to] of dups) out.splice(to % (out.length + 1), 0, events[from % events.length]!);
  return out;
}

const caseArb = fc.array(opArb, { minLength: 1, maxLength: 60 }).chain((ops) => {
  const model = new Model();
  for (const op of ops) model.apply(op);
  const n = model.events.length;
  return fc.record({
    model: fc.constant(model),
    order: fc.shuffledSubarray(
      model.events.map((_, i) => i),
      { minLength: n, maxLength: n },
    ),
    dups: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 5 }),
    cut: fc.nat(n),
  });
});

function checkShown(state: ThreadState, model: Model) {
  // Exactly the model's shown path, in order; ids match rows.
  expect(keys(state.rows)).toEqual(model.shownRows());
  // The chips follow the version on screen: the last capability is the last shown run's (chips run in seq order here).
  const runs = model.shownRows().filter((key) => model.capabilities.has(key));
  expect(state.lastCapability).toBe(runs.length ? model.capabilities.get(runs.at(-1)!)! : null);
  expect(state.ids).toEqual(state.rows.map((r) => r.id));
  // Never lose a version: every row made is shown or on the shelf, exactly once.
  const shelf = Object.keys(state.versions!.shelf);
  expect([...keys(state.rows), ...shelf].sort()).toEqual([...model.made].sort());
  // Never two of one group: a shown message's picker says which one, and its group's count is right.
  for (const row of state.rows) {
    if (row.kind !== 'user') continue;
    const first = model.firstOf.get(row.id)!;
    const versions = model.versionsOf.get(first)!;
    const position = messageVersions(state.versions, row as UserRow);
    if (versions.length > 1) expect(position).toMatchObject({ count: versions.length, index: versions.indexOf(row.id) + 1 });
    else expect(position).toBeNull();
    const replies = model.nodes.get(row.id)!.children;
    const reply = replyVersions(state.versions, row.id);
    if (replies.length > 1) expect(reply).toMatchObject({ count: replies.length, version: model.nodes.get(row.id)!.chosen });
    else expect(reply).toBeNull();
  }
}

describe('versions: random edits, regenerations and switches (property)', () => {
  it('in seq order the shown rows are the shown path; in any order, with repeats, the same rows are shown and shelved', () => {
    fc.assert(
      fc.property(caseArb, ({ model, order, dups, cut }) => {
        const reference = foldAll(initialThreadState, model.events);
        checkShown(reference, model);
        const arrival = arrange(model.events, order, dups);
        // In two batches (a replay, then live events), and one by one for a part.
        const shuffled = foldAll(foldAll(initialThreadState, arrival.slice(0, cut)), arrival.slice(cut));
        expect(new Set(keys(shuffled.rows))).toEqual(new Set(keys(reference.rows)));
        expect(Object.keys(shuffled.versions!.shelf).sort()).toEqual(Object.keys(reference.versions!.shelf).sort());
        expect(shuffled.versions!.groups).toEqual(reference.versions!.groups);
        expect(shuffled.lastCapability).toBe(reference.lastCapability);
        expect(shuffled.rows.filter((r) => r.kind === 'assistant')).toEqual(expect.arrayContaining(reference.rows.filter((r) => r.kind === 'assistant')));
        // In batches of any size as they arrive, and one by one (each batch lays out only what it
        // changes): the same rows shown and shelved, the same chips and cast.
        const size = Math.max(1, cut % 7);
        let batched = initialThreadState;
        for (let i = 0; i < arrival.length; i += size) batched = foldAll(batched, arrival.slice(i, i + size));
        const single1 = arrival.reduce<ThreadState>((s, e) => foldAll(s, [e]), initialThreadState);
        for (const state of [batched, single1]) {
          expect(new Set(keys(state.rows))).toEqual(new Set(keys(reference.rows)));
          expect(Object.keys(state.versions!.shelf).sort()).toEqual(Object.keys(reference.versions!.shelf).sort());
          expect(state.lastCapability).toBe(reference.lastCapability);
          expect(state.ids).toEqual(state.rows.map((r) => r.id));
          expect(Object.keys(state.open).sort()).toEqual(Object.keys(reference.open).sort());
        }
        // Folded event by event in seq order: the same as in one batch.
        const single = model.events.reduce<ThreadState>((s, e) => foldAll(s, [e]), initialThreadState);
        expect(keys(single.rows)).toEqual(keys(reference.rows));
      }),
      { numRuns: 300 },
    );
  });
});
