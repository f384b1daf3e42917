import type { CatalogNode } from '../runtime/catalogNodes';
import type { ThreadRef } from '../runtime/stores/eventStore';
import { threadKey } from '../runtime/stores/eventStore';
import { ThreadLimitError } from '../runtime/host/threadHost';
import { spaceOf, type Principal } from '../runtime/principal';
import { SkillLimitError } from '../runtime/slash/skillDirectory';
import type { CapLimits, CapResult, CapStore } from '../runtime/stores/capStore';
import { addressOf } from './clientAddress';

/** Caps on one kind of thing beyond one user's. */
export interface CapOptions {
  /** How many one space may hold. */
  perSpace?: number;
  /** How many may be made from one client address (an IPv6 /64) within `addressWindowMs`. */
  perAddress?: number;
}

/** The defaults of `WorkspaceLimits`' caps (docs/server.md#limits). */
export const CAP_DEFAULTS = {
  threads: { perSpace: 100_000, perAddress: 5_000 },
  skills: { perSpace: 20_000, perAddress: 500 },
  addressWindowMs: 86_400_000,
} as const;

export interface ServerCapsOptions {
  threads?: CapOptions;
  skills?: CapOptions;
  /** @default 86400000 (a day) */
  addressWindowMs?: number;
  now?: () => number;
}

/**
 * The server's caps per space and per client address, counted in the
 * store: `admitThread` for the thread host, `admitSkill` for a principal's
 * skill directory. Each refuses in words saying which cap and what to do.
 * The client address is the one the asking request's principal carries
 * (`addressed` in clientAddress.ts); a principal without one counts per space only.
 */
export function serverCaps(store: CapStore, options: ServerCapsOptions = {}) {
  const now = options.now ?? Date.now;
  const windowMs = options.addressWindowMs ?? CAP_DEFAULTS.addressWindowMs;
  const limitsOf = (kind: 'threads' | 'skills'): CapLimits => ({
    perSpace: options[kind]?.perSpace ?? CAP_DEFAULTS[kind].perSpace,
    perAddress: options[kind]?.perAddress ?? CAP_DEFAULTS[kind].perAddress,
    windowMs,
  });
  const threads = limitsOf('threads');
  const skills = limitsOf('skills');
  const claim = async (kind: string, item: string, space: string, limits: CapLimits, by: Principal | undefined): Promise<CapResult> => {
    const address = by && addressOf(by);
    return store.claim({ kind, item, space, ...(address !== undefined ? { address } : {}), at: now() }, limits);
  };

  return {
    async admitThread(principal: Principal, ref: ThreadRef): Promise<void> {
      const result = await claim('thread', threadKey(ref), ref.space, threads, principal);
      if (result.ok) return;
      if (result.over === 'space') {
        throw new ThreadLimitError(
          result.limit,
          `This space already has ${result.count.toLocaleString('en-US')} threads, the most this workspace keeps for one space. Continue an existing thread, or ask the workspace's owner to raise the limit.`,
        );
      }
      const wait = seconds(result.retryAfterMs);
      throw new ThreadLimitError(
        result.limit,
        `${result.limit.toLocaleString('en-US')} new threads were started from your network address ${period(windowMs)}, the most this workspace allows. Continue an existing thread, or try again in ${spoken(wait)}.`,
        wait,
      );
    },
    admitSkill(principal: Principal) {
      const space = spaceOf(principal);
      // `by`: the saving request's principal (the directory is kept per user, made at some earlier request).
      return async (node: CatalogNode, by?: Principal): Promise<void> => {
        const result = await claim('skill', node.path, space, skills, by);
        if (result.ok) return;
        if (result.over === 'space') {
          throw new SkillLimitError(`${node.name}: this space already has ${result.count.toLocaleString('en-US')} saved skills, the most it may keep; save over one of them instead.`);
        }
        const wait = seconds(result.retryAfterMs);
        throw new SkillLimitError(
          `${node.name}: ${result.limit.toLocaleString('en-US')} skills were saved from your network address ${period(windowMs)}, the most this workspace allows; save over one of them, or try again in ${spoken(wait)}.`,
          wait,
        );
      };
    },
  };
}

const seconds = (ms: number | undefined) => Math.max(1, Math.ceil((ms ?? 60_000) / 1000));

/** "in the last 24 hours", "in the last 10 minutes". */
function period(ms: number): string {
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'in the last hour' : `in the last ${ms / 3_600_000} hours`;
  const minutes = Math.max(1, Math.round(ms / 60_000));
  return minutes === 1 ? 'in the last minute' : `in the last ${minutes} minutes`;
}

/** A wait in words a person reads: seconds, minutes or hours. */
function spoken(s: number): string {
  if (s < 120) return s === 1 ? '1 second' : `${s} seconds`;
  if (s < 7_200) return `${Math.ceil(s / 60)} minutes`;
  return `${Math.ceil(s / 3_600)} hours`;
}
