import type { AppCallLimits } from '../runtime/host/mcpAppAccess';
import type { ClientAddressOptions } from './clientAddress';
import type { CapOptions } from './serverCaps';

/**
 * The server's limits beyond a principal's own (docs/server.md#limits): caps
 * counted per space and per client address as well as per user, so a new
 * guest cookie does not reset them; saved skills in memory; an MCP App
 * view's tool calls. (The request limit is the meter's, shared through the
 * database: `Principal.requestsPerMinute`.)
 */
export interface WorkspaceLimits extends ClientAddressOptions {
  /** New threads beyond one user's `maxThreadsPerUser` (429 `thread_limit` beyond). @default { perSpace: 100000, perAddress: 5000 } a day */
  threads?: CapOptions;
  /** New saved skills beyond one user's 200 (429 `skill_limit` beyond). @default { perSpace: 20000, perAddress: 500 } a day */
  skills?: CapOptions;
  /** The window of the per-address caps, in ms. @default 86400000 (a day) */
  addressWindowMs?: number;
  /** Tool calls one card's MCP App view may make without the user: a burst, then a steady rate (429 beyond, nothing run). @default { burst: 10, perMinute: 60 } */
  appCalls?: Omit<AppCallLimits, 'now'>;
  /** Saved skills kept in memory at most: a user's and a space's are read when first needed and the least recently used dropped beyond this. @default 10000 */
  skillsInMemory?: number;
}
