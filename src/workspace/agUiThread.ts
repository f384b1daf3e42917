import type { AbstractAgent } from '@ag-ui/client';
import type { Interrupt } from '@ag-ui/core';
import { createEventLog, type EventLog } from '../runtime/eventLog';

/** One thread of the AG-UI workspace: its agent, its event log, the tool calls and interrupts it has seen. */
export interface AgUiThread {
  /** Made on the thread's first message, once the AG-UI packages are loaded. */
  agent: AbstractAgent | null;
  log: EventLog;
  /** Tool calls by id: name and streamed arguments. */
  calls: Map<string, { name: string; args: string }>;
  /** The agent's own tool calls whose cards are open (no result yet): closed when a run ends without one. */
  open: Set<string>;
  /** The AG-UI message ids already shown as rows (or deliberately not shown), so a snapshot adds only what is new. */
  seen: Set<string>;
  /** Pending interrupts by id, from the last run. */
  interrupts: Map<string, Interrupt & { kind: 'approval' | 'question' }>;
  running: AbortController | null;
}

/** A thread with nothing in it yet. */
export function newAgUiThread(): AgUiThread {
  return { agent: null, log: createEventLog(), calls: new Map(), open: new Set(), seen: new Set(), interrupts: new Map(), running: null };
}

/** A tool call's streamed arguments as a value (`{}` when empty, `{ _unparsed }` when not JSON). */
export function parseArgs(text: string): unknown {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { _unparsed: text };
  }
}
