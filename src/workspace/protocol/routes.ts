import type * as z from 'zod/mini';
import { AuthorizeMcpAnswer, AuthorizeMcpBody, CompleteMcpSignInAnswer, CompleteMcpSignInBody, ConnectMcpBody } from '../connectorsProtocol';
import { ArchiveThreadBody, RenameThreadBody, ThreadAnswer, ThreadDeletedAnswer, ThreadListParams, ThreadPageAnswer } from '../threadsProtocol';
import {
  AppToolCallAnswer,
  AppViewAnswer,
  CancelAnswer,
  InvokeAnswer,
  ManifestAnswer,
  ConnectorAnswer,
  ConnectorRemovedAnswer,
  ConnectorsAnswer,
  NodesAnswer,
  SkillAnswer,
  WriteAnswer,
} from './answers';
import { AppToolCallBody, CancelBody, ComposerBody, DecisionBody, FeedbackBody, InvokeBody, NodeQuery, ProviderBody, RegenerateBody, SkillBody, TurnBody, VersionBody, ViewBody } from '../../runtime/requests';

/**
 * One route of the workspace protocol: `createWorkspaceServer` mounts it
 * (validating `body` and `query`, replying with `answer`) and
 * `createRemoteWorkspace` calls it (the input and the answer typed from it).
 * A `:threadId` in the path is checked against the thread-id rule.
 */
export interface JsonRoute {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: z.ZodMiniType;
  query?: z.ZodMiniType;
  answer: z.ZodMiniType;
}

/** The thread's event stream: server-sent events, not JSON (`eventStreamWriter.ts` writes it, `eventStreamReader.ts` reads it). */
export interface StreamRoute {
  method: 'GET';
  path: string;
  stream: true;
}

const route = <const R extends JsonRoute | StreamRoute>(definition: R): R => definition;

/** The workspace protocol: every route `createRemoteWorkspace` calls, by the adapter method it serves. */
export const routes = {
  manifest: route({ method: 'GET', path: '/v1/manifest', answer: ManifestAnswer }),
  send: route({ method: 'POST', path: '/v1/threads/:threadId/turns', body: TurnBody, answer: WriteAnswer }),
  events: route({ method: 'GET', path: '/v1/threads/:threadId/events', stream: true }),
  setView: route({ method: 'POST', path: '/v1/threads/:threadId/view', body: ViewBody, answer: WriteAnswer }),
  decide: route({ method: 'POST', path: '/v1/threads/:threadId/decisions', body: DecisionBody, answer: WriteAnswer }),
  feedback: route({ method: 'POST', path: '/v1/threads/:threadId/feedback', body: FeedbackBody, answer: WriteAnswer }),
  regenerate: route({ method: 'POST', path: '/v1/threads/:threadId/regenerations', body: RegenerateBody, answer: WriteAnswer }),
  showVersion: route({ method: 'POST', path: '/v1/threads/:threadId/versions', body: VersionBody, answer: WriteAnswer }),
  setComposer: route({ method: 'POST', path: '/v1/threads/:threadId/composer', body: ComposerBody, answer: WriteAnswer }),
  /** Connect and disconnect, told apart by the body's `action`. */
  provider: route({ method: 'POST', path: '/v1/threads/:threadId/providers', body: ProviderBody, answer: WriteAnswer }),
  invoke: route({ method: 'POST', path: '/v1/invocations', body: InvokeBody, answer: InvokeAnswer }),
  /** `:id` is an invocation id or a turn id. */
  cancel: route({ method: 'POST', path: '/v1/invocations/:id/cancel', body: CancelBody, answer: CancelAnswer }),
  query: route({ method: 'GET', path: '/v1/nodes', query: NodeQuery, answer: NodesAnswer }),
  saveSkill: route({ method: 'POST', path: '/v1/skills', body: SkillBody, answer: SkillAnswer }),
  readApp: route({ method: 'GET', path: '/v1/threads/:threadId/invocations/:invocationId/app', answer: AppViewAnswer }),
  callAppTool: route({ method: 'POST', path: '/v1/threads/:threadId/invocations/:invocationId/app/calls', body: AppToolCallBody, answer: AppToolCallAnswer }),
  listConnectors: route({ method: 'GET', path: '/v1/mcp-servers', answer: ConnectorsAnswer }),
  connectConnector: route({ method: 'POST', path: '/v1/mcp-servers', body: ConnectMcpBody, answer: ConnectorAnswer }),
  disconnectConnector: route({ method: 'DELETE', path: '/v1/mcp-servers/:label', answer: ConnectorRemovedAnswer }),
  /** Signing in to a user's OAuth-protected MCP server: the page to open, then what its redirect brought back. */
  authorizeConnector: route({ method: 'POST', path: '/v1/mcp-servers/:label/authorize', body: AuthorizeMcpBody, answer: AuthorizeMcpAnswer }),
  completeConnectorSignIn: route({ method: 'POST', path: '/v1/mcp-servers/oauth/complete', body: CompleteMcpSignInBody, answer: CompleteMcpSignInAnswer }),
  /** The caller's threads, newest activity first (`q` searches, `archived=true` lists the archived ones). */
  listThreads: route({ method: 'GET', path: '/v1/threads', query: ThreadListParams, answer: ThreadPageAnswer }),
  renameThread: route({ method: 'POST', path: '/v1/threads/:threadId/title', body: RenameThreadBody, answer: ThreadAnswer }),
  archiveThread: route({ method: 'POST', path: '/v1/threads/:threadId/archived', body: ArchiveThreadBody, answer: ThreadAnswer }),
  /** Stops what runs in the thread, then removes its events for good. */
  deleteThread: route({ method: 'DELETE', path: '/v1/threads/:threadId', answer: ThreadDeletedAnswer }),
} as const;

/** The optional adapter methods a server offers (listed in the manifest's `features`). */
export const OPTIONAL_METHODS = ['query', 'feedback', 'regenerate', 'showVersion', 'setComposer', 'saveSkill', 'connect', 'disconnect', 'readApp', 'callAppTool'] as const;

/** The `:name` parameters of a path, as an object of strings. */
export type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/** The names of a path's `:name` parameters, in order. */
export function paramNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
}

/** A route's path with its parameters filled in (each one URI-encoded). */
export function pathOf<Path extends string>(path: Path, params: ParamsOf<Path>): string {
  const values = new Map<string, string>(Object.entries(params));
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(values.get(name) ?? ''));
}

/** What a call of the route sends: its path parameters, body and query, each only when the route has one. */
export type CallInput<R extends JsonRoute> = (keyof ParamsOf<R['path']> extends never ? unknown : { params: ParamsOf<R['path']> }) &
  (R extends { body: infer B extends z.ZodMiniType } ? { body: z.input<B> } : unknown) &
  (R extends { query: infer Q extends z.ZodMiniType } ? { query: z.input<Q> } : unknown);

/** What the route answers, as the client reads it. */
export type AnswerOf<R extends JsonRoute> = z.output<R['answer']>;
