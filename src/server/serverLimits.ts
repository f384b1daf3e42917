import type { AppCallLimits } from '../runtime/host/mcpAppAccess';

/**
 * The server's limits beyond a principal's own (docs/server.md#limits): caps
 * counted per space and per client address as well as per user, so a new
 * guest cookie does not reset them; the request limit shared by every
 * instance on the database; an MCP App view's tool calls.
 */
export interface WorkspaceLimits {
  /** Tool calls one card's MCP App view may make without the user: a burst, then a steady rate (429 beyond, nothing run). @default { burst: 10, perMinute: 60 } */
  appCalls?: Omit<AppCallLimits, 'now'>;
  /** Saved skills kept in memory at most: a user's and a space's are read when first needed and the least recently used dropped beyond this. @default 10000 */
  skillsInMemory?: number;
}
