import { APP_APPROVAL_PREFIX } from '../mcpApp';
import type { DoorApprovalHook } from './hostTypes';

// Apart from `./appSessions` (the sessions themselves), so a page's own workspace wires the hook
// at once and loads the sessions only when an MCP App first calls a tool.

/**
 * The host's `doorApprovals` with the app sessions' rows answered first: deciding one settles
 * the row and runs nothing (the waiting app call runs, or is told no); any other row is the
 * given hook's (or a chip's, with none).
 * @example
 * createThreadHost({ capabilities, doorApprovals: withAppApprovals(approvals.hook) });
 */
export function withAppApprovals(hook?: DoorApprovalHook): DoorApprovalHook {
  return {
    async decided(principal, approvalId, approved) {
      if (approvalId.startsWith(APP_APPROVAL_PREFIX)) return { settled: approved ? 'approved' : 'denied' };
      return hook ? hook.decided(principal, approvalId, approved) : null;
    },
  };
}
