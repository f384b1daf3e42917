import type { Principal } from '../runtime/principal';
import { spaceOf } from '../runtime/principal';
import { createRegistry, type Registry } from '../runtime/registry';
import type { ConnectorOwner, Connector } from '../runtime/stores/connectorStore';
import { closeEntry, type Entry } from './connectorEntry';

/** One owner's servers in this process, and the capability overlay made of their tools. */
export interface Owned {
  entries: Map<string, Entry>;
  registry: Registry;
  /** A read of the store in flight. */
  loading: Promise<void> | null;
  /** When the store was last read for this owner (0: never). */
  checkedAt: number;
}

export const ownerOf = (principal: Principal): ConnectorOwner => ({ user: principal.user, space: spaceOf(principal) });
export const keyOf = (owner: ConnectorOwner) => `${owner.space}\u0000${owner.user}`;

/** The per-principal records: one small record per user who asked, the oldest idle ones dropped past `maxOwners`. */
export interface OwnerTable {
  /** The owner's record, made when missing. */
  owned(owner: ConnectorOwner): Owned;
  /** The owner's record, if there is one. */
  peek(owner: ConnectorOwner): Owned | undefined;
  /** Every entry of every owner, and the table emptied. */
  drain(): Entry[];
}

export function createOwnerTable(maxOwners: number): OwnerTable {
  const owners = new Map<string, Owned>();
  return {
    owned(owner) {
      const key = keyOf(owner);
      let o = owners.get(key);
      if (!o) {
        owners.set(key, (o = { entries: new Map(), registry: createRegistry(), loading: null, checkedAt: 0 }));
        // One small record per user who asked; past a few thousand, the oldest with no server connected go first.
        if (owners.size > maxOwners) {
          for (const [k, other] of owners) {
            if (owners.size <= maxOwners) break;
            if (other !== o && other.entries.size === 0 && !other.loading) owners.delete(k);
          }
        }
      }
      return o;
    },
    peek: (owner) => owners.get(keyOf(owner)),
    drain() {
      const all = [...owners.values()].flatMap((o) => [...o.entries.values()]);
      owners.clear();
      return all;
    },
  };
}

/** The owner's capability overlay, made again from its entries' tools. */
export function rebuild(o: Owned): void {
  o.registry = createRegistry([...o.entries.values()].flatMap((e) => e.capabilities));
}

/**
 * Brings the owner's entries in line with what is stored (the database is the
 * truth: several instances may serve one user): connects what is new there,
 * drops what is gone, then rebuilds the overlay.
 */
export async function syncWithStore(o: Owned, stored: readonly Connector[], reopen: (connector: Connector) => Promise<Entry>): Promise<void> {
  const wanted = new Map(stored.map((c) => [c.label, c]));
  for (const [label, e] of [...o.entries]) {
    if (wanted.get(label)?.createdAt !== e.connector.createdAt) {
      o.entries.delete(label);
      void closeEntry(e);
    }
  }
  const fresh = await Promise.all(stored.filter((c) => !o.entries.has(c.label)).map(reopen));
  for (const e of fresh) if (!o.entries.has(e.connector.label)) o.entries.set(e.connector.label, e);
  rebuild(o);
  o.checkedAt = Date.now();
}
