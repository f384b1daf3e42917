import * as z from 'zod/mini';
import type { AnticipationMap } from '../../runtime/anticipation';
import type { CapabilityResult } from '../../runtime/envelope';
import type { DriverInfo } from '../../runtime/events';
import type { McpAppResource } from '../../runtime/mcpApp';
import type { CapabilityInfo } from '../../runtime/registry';
import type { CatalogNode } from '../../runtime/catalogNodes';
import type { ConnectorInfo } from '../connectorsProtocol';

/**
 * What the workspace protocol's routes answer. The server's replies are
 * typed by these and the client checks each answer against them: the
 * envelope field by field, a payload the kit defines elsewhere (a capability
 * result, a catalog node) only as far as being an object.
 */

/** A JSON object the kit's own types describe; checked only for being an object. */
const payload = <T extends object>() => z.custom<T>((value) => typeof value === 'object' && value !== null && !Array.isArray(value));

/** What every write answers: the seq of the thread's last event (the client waits until its stream has it). */
export const WriteAnswer = z.object({ lastSeq: z.number() });
export type WriteAnswer = z.infer<typeof WriteAnswer>;

export const ManifestAnswer = z.object({
  capabilities: z.array(payload<CapabilityInfo>()),
  driver: payload<DriverInfo>(),
  alignment: z.enum(['strict', 'loose']),
  anticipation: payload<AnticipationMap>(),
  /** The optional adapter methods (and extras such as `mcpServers`) this server offers. */
  features: z.optional(z.array(z.string())),
  /** The signed-in user. */
  user: z.optional(z.string()),
  /** With the `attachments` feature: how many files one message may carry. */
  attachments: z.optional(z.object({ maxPerMessage: z.number() })),
});
export { ATTACHMENTS_FEATURE } from './features';
export const InvokeAnswer = z.object({ result: payload<CapabilityResult>(), lastSeq: z.number() });
export const CancelAnswer = z.object({ cancelled: z.string() });
export const NodesAnswer = z.object({ nodes: z.array(payload<CatalogNode>()) });
export const SkillAnswer = z.object({ node: payload<CatalogNode>() });
export const AppViewAnswer = z.custom<McpAppResource>((value) => typeof value === 'object' && value !== null && typeof value.html === 'string');
export const AppToolCallAnswer = z.object({ result: payload<CapabilityResult>(), invocationId: z.optional(z.string()) });
export const ConnectorsAnswer = z.object({ servers: z.array(payload<ConnectorInfo>()) });
export const ConnectorAnswer = z.object({ server: payload<ConnectorInfo>() });
export const ConnectorRemovedAnswer = z.object({ removed: z.string() });

/** The one error body of every route: `{ error: { code, message, issues? } }`. */
export const ErrorAnswer = z.object({ error: z.object({ code: z.optional(z.string()), message: z.optional(z.string()) }) });
