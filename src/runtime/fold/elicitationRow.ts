// The row of a running MCP tool's question: a type only, apart from its reducer (`./elicitations`)
// so the row types (`./rows`) name it without importing the fold.
import type { ElicitationClosed, ElicitationValue } from '../events';

/**
 * A running MCP tool's question for the user, as its row shows it: a form to fill in (`mode:
 * 'form'`, the fields of `requested_schema`) or a page to open (`mode: 'url'`, with its host).
 * `pending` until the user answers (accepted, declined, cancelled) or the call that asked ends
 * first (`closed`, with why).
 */
export interface ElicitationRow {
  kind: 'elicitation';
  id: string;
  /** The MCP server that asks, by its name here. */
  server: string;
  /** The tool that was running. */
  tool?: string;
  /** The card of the call it belongs to. */
  invocation_id?: string;
  turn_id?: string;
  mode: 'form' | 'url';
  /** What the server asks, in its words. */
  message: string;
  /** Form mode: the fields, a flat object schema. */
  requested_schema?: Record<string, unknown>;
  /** URL mode: the page to open, and its host name. */
  url?: string;
  host?: string;
  status: 'pending' | 'accepted' | 'declined' | 'cancelled' | 'closed';
  /** An accepted form's values, as they went to the server. */
  content?: Record<string, ElicitationValue>;
  /** Why it was closed without an answer. */
  closed?: ElicitationClosed;
}
