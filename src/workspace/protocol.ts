import * as z from 'zod/mini';
import { ActiveViewSchema, ComposerSchema } from '../runtime/events';

/**
 * The workspace protocol between `createRemoteWorkspace` and
 * `createWorkspaceServer`, written once: its paths and the bodies each route
 * takes. The client builds requests from these; the server validates with them.
 */

/** A thread id: chosen by the client, unique within its user. */
export const THREAD_ID = /^[A-Za-z0-9_.-]{1,128}$/;
const threadId = z.string().check(z.regex(THREAD_ID, 'A thread id is 1–128 characters from A–Z a–z 0–9 _ . -'));

export const paths = {
  manifest: '/v1/manifest',
  turns: (id: string) => `/v1/threads/${encodeURIComponent(id)}/turns`,
  events: (id: string) => `/v1/threads/${encodeURIComponent(id)}/events`,
  view: (id: string) => `/v1/threads/${encodeURIComponent(id)}/view`,
  decisions: (id: string) => `/v1/threads/${encodeURIComponent(id)}/decisions`,
  composer: (id: string) => `/v1/threads/${encodeURIComponent(id)}/composer`,
  providers: (id: string) => `/v1/threads/${encodeURIComponent(id)}/providers`,
  invocations: '/v1/invocations',
  cancel: (id: string) => `/v1/invocations/${encodeURIComponent(id)}/cancel`,
  nodes: (threadIdValue: string, q: string) => `/v1/nodes?q=${encodeURIComponent(q)}&threadId=${encodeURIComponent(threadIdValue)}`,
  skills: '/v1/skills',
} as const;

export const TurnBody = z.object({
  text: z.string().check(z.trim(), z.minLength(1, 'Type a message first.'), z.maxLength(20_000)),
  /** Optional: the view and selections to apply before the turn. */
  activeView: z.optional(ActiveViewSchema),
  composer: z.optional(ComposerSchema),
});
export const ViewBody = z.object({ view: ActiveViewSchema });
export const InvokeBody = z.object({ threadId, capability: z.string().check(z.minLength(1), z.maxLength(128)), args: z.optional(z.unknown()) });
export const CancelBody = z.object({ threadId });
export const ComposerBody = z.object({ composer: ComposerSchema });
export const SkillBody = z.object({
  threadId,
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  description: z.string().check(z.minLength(1), z.maxLength(1024)),
  instructions: z.string().check(z.minLength(1), z.maxLength(20_000)),
  scope: z.optional(z.enum(['user', 'space'])),
});
export const ProviderBody = z.object({ provider: z.string().check(z.minLength(1), z.maxLength(128)), action: z.enum(['connect', 'disconnect']) });
export const DecisionBody = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(256)),
  decision: z.enum(['accept', 'dismiss', 'approve', 'deny', 'answer']),
  answer: z.optional(z.string().check(z.maxLength(20_000))),
});

/** What every write answers: the seq of the thread's last event (the client waits until its stream has it). */
export interface WriteAnswer {
  lastSeq: number;
}

/** The optional adapter methods a server offers (listed in the manifest's `features`). */
export const OPTIONAL_METHODS = ['query', 'setComposer', 'saveSkill', 'connect', 'disconnect', 'readApp', 'callAppTool'] as const;

/** MCP Apps: a finished card's `ui://` view, and the tool calls made from inside it. */
export const appPaths = {
  view: (threadIdValue: string, invocationId: string) => `/v1/threads/${encodeURIComponent(threadIdValue)}/invocations/${encodeURIComponent(invocationId)}/app`,
  calls: (threadIdValue: string, invocationId: string) =>
    `/v1/threads/${encodeURIComponent(threadIdValue)}/invocations/${encodeURIComponent(invocationId)}/app/calls`,
} as const;
export const AppToolCallBody = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(128)),
  arguments: z.optional(z.record(z.string(), z.unknown())),
});
