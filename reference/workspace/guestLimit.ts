/**
 * How many new guests the demo signs in: at most `perAddress` per client address in `windowMs`
 * (10,000 page loads from one address make a bounded number of guests), and at most `total` in
 * `windowMs` from everyone (a crowd of addresses cannot fill the session store either).
 */
export interface GuestLimits {
  /** @default 30 */
  perAddress?: number;
  /** @default 2000 */
  total?: number;
  /** @default 600000 (10 minutes) */
  windowMs?: number;
}

/** A guest the limits refuse: the page says so in words, with when to try again. */
export class GuestLimitError extends Error {
  override name = 'GuestLimitError';
  constructor(
    message: string,
    /** Seconds until a new guest may be signed in from there. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Counts sign-ins in a sliding window; `take(address)` throws `GuestLimitError` when one more is too many. */
export function createGuestLimiter(limits: GuestLimits = {}, now: () => number = Date.now) {
  const perAddress = limits.perAddress ?? 30;
  const total = limits.total ?? 2_000;
  const windowMs = limits.windowMs ?? 600_000;
  const byAddress = new Map<string, number[]>();
  const everyone: number[] = [];
  const prune = (times: number[], t: number) => {
    while (times.length && times[0]! <= t - windowMs) times.shift();
  };
  const wait = (oldest: number, t: number) => Math.max(1, Math.ceil((oldest + windowMs - t) / 1000));
  return {
    take(address: string): void {
      const t = now();
      prune(everyone, t);
      const mine = byAddress.get(address) ?? [];
      prune(mine, t);
      if (mine.length >= perAddress) {
        throw new GuestLimitError(`Too many new visitors from your address just now; try again in ${Math.ceil(wait(mine[0]!, t) / 60)} minutes.`, wait(mine[0]!, t));
      }
      if (everyone.length >= total) {
        throw new GuestLimitError('The demo is taking no more new visitors just now; try again in a few minutes.', wait(everyone[0]!, t));
      }
      mine.push(t);
      everyone.push(t);
      byAddress.set(address, mine);
      // Addresses whose window is empty are forgotten, so the table stays as small as the traffic.
      if (byAddress.size > 4 * perAddress + total) {
        for (const [a, times] of byAddress) {
          prune(times, t);
          if (times.length === 0) byAddress.delete(a);
        }
      }
    },
  };
}
