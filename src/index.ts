// The browser entry: components, hooks and workspaces. No server code, no SDK.
export { ChatSurface } from './components/chat-surface/ChatSurface';
export type { ChatSurfaceProps } from './components/chat-surface/ChatSurface';
export { ChatSurfaceRoot } from './components/chat-surface/ChatSurfaceRoot';
export type { ChatSurfaceRootProps } from './components/chat-surface/ChatSurfaceRoot';
export { DriverBadge } from './components/chat-surface/DriverBadge';
export { Transcript } from './components/transcript/Transcript';
export type { TranscriptProps } from './components/transcript/Transcript';
export { TranscriptRow } from './components/transcript/TranscriptRow';
export { MessageRow } from './components/transcript/MessageRow';
export { ErrorRow } from './components/transcript/ErrorRow';
export { InvocationCard } from './components/invocation-card/InvocationCard';
export type { InvocationCardProps } from './components/invocation-card/InvocationCard';
export { Composer } from './components/composer/Composer';
export type { ComposerRootProps } from './components/composer/ComposerRoot';
export { CastRow } from './components/cast/CastRow';
export { CastMember } from './components/cast/CastMember';
export { useChatSurface } from './hooks/context';
export type { ChatSurfaceContextValue } from './hooks/context';
export { createThreadStore } from './hooks/threadStore';
export type { ThreadStore, ThreadStoreState } from './hooks/threadStore';
export { useCast, useRow, useRowIds, useThreadSelector } from './hooks/useThread';
export { useCancel, useInvoke, useSend } from './hooks/useActions';
export { createLocalWorkspace } from './workspace/localWorkspace';
export type { LocalWorkspace, LocalWorkspaceOptions } from './workspace/localWorkspace';
export type {
  ComposerRequest,
  NodeQueryRequest,
  ProviderRequest,
  SaveSkillRequest,
  CancelRequest,
  DecisionRequest,
  ViewRequest,
  InvokeRequest,
  SubscribeOptions,
  TurnRequest,
  WorkspaceAdapter,
  WorkspaceManifest,
} from './workspace/types';
