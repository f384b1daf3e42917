/**
 * What several server instances on one database share beyond the stores:
 * which instance writes each thread now (a lease that lasts as long as its
 * holder's heartbeat), word of every append and every cancel, and the end of
 * instances that died. One process alone needs none of it; the thread host
 * and the server use it when it is there.
 */
export interface Coordination {
  /** This instance's id (new for every process). */
  readonly instance: string;
  /** How long an instance may miss its heartbeat before the others count it dead, in ms. */
  readonly leaseMs: number;
  /**
   * Takes the thread's write lease: at once when it is free, this
   * instance's, or its holder is dead; otherwise waits until it is given
   * back or its holder dies. Rejects with the signal's reason when aborted.
   */
  acquire(key: string, signal?: AbortSignal): Promise<void>;
  /** The lease now, or false when a live instance holds it. */
  tryAcquire(key: string): Promise<boolean>;
  /** Gives the lease back (nothing happens when this instance does not hold it). */
  release(key: string): Promise<void>;
  /** The live instance holding the thread's lease, or null. */
  holder(key: string): Promise<string | null>;
  /** Hears each append on any instance: the thread and the seq of its last event (`*` for "any thread": re-read what you follow). */
  onAppend(listener: (key: string, seq: number) => void): () => void;
  /** Asks whichever instance runs `id` (a turn, an invocation) on the thread to stop it; every instance hears it. */
  requestCancel(key: string, id: string): Promise<void>;
  onCancel(listener: (key: string, id: string) => void): () => void;
  /** Hears dead instances once this one has freed their leases: their ids and the threads they held. */
  onReap(listener: (dead: { instances: readonly string[]; threads: readonly string[] }) => void): () => void;
  /** Stops the heartbeat, gives back every lease, stops listening. */
  close(): Promise<void>;
}
