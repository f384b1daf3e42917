import type * as z from 'zod/mini';
import { paths, type ParamsOf } from './paths';
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

const route = <const R extends JsonRoute>(definition: R): R => definition;

export { paramNames, pathOf, paths, type ParamsOf, type RouteName } from './paths';

/** The workspace protocol: every route `createRemoteWorkspace` calls, by the adapter method it serves. */
export const routes = {
  manifest: route({ ...paths.manifest, answer: ManifestAnswer }),
  send: route({ ...paths.send, body: TurnBody, answer: WriteAnswer }),
  events: paths.events,
  setView: route({ ...paths.setView, body: ViewBody, answer: WriteAnswer }),
  decide: route({ ...paths.decide, body: DecisionBody, answer: WriteAnswer }),
  feedback: route({ ...paths.feedback, body: FeedbackBody, answer: WriteAnswer }),
  regenerate: route({ ...paths.regenerate, body: RegenerateBody, answer: WriteAnswer }),
  showVersion: route({ ...paths.showVersion, body: VersionBody, answer: WriteAnswer }),
  setComposer: route({ ...paths.setComposer, body: ComposerBody, answer: WriteAnswer }),
  /** Connect and disconnect, told apart by the body's `action`. */
  provider: route({ ...paths.provider, body: ProviderBody, answer: WriteAnswer }),
  invoke: route({ ...paths.invoke, body: InvokeBody, answer: InvokeAnswer }),
  /** `:id` is an invocation id or a turn id. */
  cancel: route({ ...paths.cancel, body: CancelBody, answer: CancelAnswer }),
  query: route({ ...paths.query, query: NodeQuery, answer: NodesAnswer }),
  saveSkill: route({ ...paths.saveSkill, body: SkillBody, answer: SkillAnswer }),
  readApp: route({ ...paths.readApp, answer: AppViewAnswer }),
  callAppTool: route({ ...paths.callAppTool, body: AppToolCallBody, answer: AppToolCallAnswer }),
  listConnectors: route({ ...paths.listConnectors, answer: ConnectorsAnswer }),
  connectConnector: route({ ...paths.connectConnector, body: ConnectMcpBody, answer: ConnectorAnswer }),
  disconnectConnector: route({ ...paths.disconnectConnector, answer: ConnectorRemovedAnswer }),
  /** Signing in to a user's OAuth-protected MCP server: the page to open, then what its redirect brought back. */
  authorizeConnector: route({ ...paths.authorizeConnector, body: AuthorizeMcpBody, answer: AuthorizeMcpAnswer }),
  completeConnectorSignIn: route({ ...paths.completeConnectorSignIn, body: CompleteMcpSignInBody, answer: CompleteMcpSignInAnswer }),
  /** The caller's threads, newest activity first (`q` searches, `archived=true` lists the archived ones). */
  listThreads: route({ ...paths.listThreads, query: ThreadListParams, answer: ThreadPageAnswer }),
  renameThread: route({ ...paths.renameThread, body: RenameThreadBody, answer: ThreadAnswer }),
  archiveThread: route({ ...paths.archiveThread, body: ArchiveThreadBody, answer: ThreadAnswer }),
  /** Stops what runs in the thread, then removes its events for good. */
  deleteThread: route({ ...paths.deleteThread, answer: ThreadDeletedAnswer }),
} as const;

/** The optional adapter methods a server offers (listed in the manifest's `features`). */
export const OPTIONAL_METHODS = ['query', 'feedback', 'regenerate', 'showVersion', 'setComposer', 'saveSkill', 'connect', 'disconnect', 'readApp', 'callAppTool'] as const;

/** What a call of the route sends: its path parameters, body and query, each only when the route has one. */
export type CallInput<R extends JsonRoute> = (keyof ParamsOf<R['path']> extends never ? unknown : { params: ParamsOf<R['path']> }) &
  (R extends { body: infer B extends z.ZodMiniType } ? { body: z.input<B> } : unknown) &
  (R extends { query: infer Q extends z.ZodMiniType } ? { query: z.input<Q> } : unknown);

/** What the route answers, as the client reads it. */
export type AnswerOf<R extends JsonRoute> = z.output<R['answer']>;
