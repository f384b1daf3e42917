import type { CapabilityResult } from './envelope';
import type { DriverInfo } from './events';
import type { CapabilityInfo } from './registry';

/** The conversation as a model sees it. */
export type ModelMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string }
  | { role: 'tool'; capability: string; title: string; args: unknown; result: CapabilityResult };

/** What a driver streams back: text to show, or a capability to run. */
export type DriverChunk = { type: 'text'; text: string } | { type: 'invoke'; capability: string; args: unknown };

export interface ModelRequest {
  messages: readonly ModelMessage[];
  /** The verbs this turn may use, in the registry's stable order. */
  capabilities: readonly CapabilityInfo[];
  signal: AbortSignal;
}

/** A model behind one small interface: the offline driver, Claude, or a host's own. */
export interface ModelDriver {
  /** Shown on the surface so users know which model answers. */
  info: DriverInfo;
  respond(request: ModelRequest): AsyncIterable<DriverChunk>;
}
