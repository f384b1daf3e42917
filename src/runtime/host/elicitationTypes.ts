// What `ThreadHost.elicit` takes and gives: types only, apart from `./elicitations` so the
// host's public shapes (`./hostTypes`) name them without importing its parts.
import type { ElicitationAction, ElicitationValue } from '../events';

/** A question to ask: the server's form or page, and where it comes from. */
export interface ElicitationAsk {
  /** The MCP server, by its name here. */
  server: string;
  /** The tool that was running. */
  tool?: string;
  /** The card of the call. */
  invocationId?: string;
  mode: 'form' | 'url';
  message: string;
  /** Form mode: the fields. */
  requestedSchema?: Record<string, unknown>;
  /** URL mode: the `https:` page and its host name (checked by the MCP client before it gets here). */
  url?: string;
  host?: string;
}

/** The user's answer as it goes back to the server. */
export interface ElicitationAnswer {
  action: ElicitationAction;
  content?: Record<string, ElicitationValue>;
}
