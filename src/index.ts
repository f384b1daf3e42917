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
export { Message } from './components/message/Message';
export { MessageQueue } from './components/queue/MessageQueue';
export type { MessageQueueRootProps } from './components/queue/MessageQueueRoot';
export type { MessageQueueItemProps } from './components/queue/MessageQueueItem';
export type { QueuedMessage } from './components/queue/queueStore';
export type { MessageActionsProps } from './components/message/MessageActions';
export type { MessageCopyProps } from './components/message/MessageCopy';
export type { MessageRatingProps } from './components/message/MessageRating';
export type { MessageCommentProps } from './components/message/MessageComment';
export type { MessageRegenerateProps } from './components/message/MessageRegenerate';
export type { MessageEditProps } from './components/message/MessageEdit';
export type { MessageEditorProps } from './components/message/MessageEditor';
export { BranchPicker } from './components/branch-picker/BranchPicker';
export type { BranchPickerRootProps } from './components/branch-picker/BranchPickerRoot';
export type { BranchPickerStepProps } from './components/branch-picker/BranchPickerStep';
export type { BranchPickerCountProps } from './components/branch-picker/BranchPickerCount';
export { useEditLast, useMessageVersions, useReplyStart, useReplyVersions } from './hooks/useVersions';
export { ErrorRow } from './components/transcript/ErrorRow';
export { InvocationCard } from './components/invocation-card/InvocationCard';
export type { InvocationCardProps } from './components/invocation-card/InvocationCard';
export type { InvocationCardBodyProps } from './components/invocation-card/InvocationCardBody';
export type { CapabilityRenderer, CapabilityRendererProps, CapabilityRenderers, RenderedResult } from './components/invocation-card/rendererTypes';
export { Composer } from './components/composer/Composer';
export type { ComposerRootProps } from './components/composer/ComposerRoot';
export { CastRow } from './components/cast/CastRow';
export { CastMember } from './components/cast/CastMember';
export type { CastMemberProps } from './components/cast/CastMember';
export type { CastRowProps } from './components/cast/CastRow';
export type { ErrorRowProps } from './components/transcript/ErrorRow';
export type { MessageRowProps } from './components/transcript/MessageRow';
export type { TranscriptRowProps } from './components/transcript/TranscriptRow';
export { TranscriptJump } from './components/transcript/TranscriptJump';
export { TranscriptWelcome } from './components/transcript/TranscriptWelcome';
export type { TranscriptWelcomeProps } from './components/transcript/TranscriptWelcome';
export type { TranscriptJumpProps } from './components/transcript/TranscriptJump';
export { Markdown } from './components/markdown/Markdown';
export type { MarkdownProps } from './components/markdown/Markdown';
export { ProposalRow } from './components/rows/ProposalRow';
export type { ProposalRowProps } from './components/rows/ProposalRow';
export { ApprovalRow } from './components/rows/ApprovalRow';
export type { ApprovalRowProps } from './components/rows/ApprovalRow';
export { QuestionRow } from './components/rows/QuestionRow';
export type { QuestionRowProps } from './components/rows/QuestionRow';
export { ElicitationRow } from './components/rows/ElicitationRow';
export type { ElicitationRowProps } from './components/rows/ElicitationRow';
export { ViolationRow } from './components/rows/ViolationRow';
export type { ViolationRowProps } from './components/rows/ViolationRow';
export { StandingRow } from './components/rows/StandingRow';
export type { StandingRowProps } from './components/rows/StandingRow';
export { ArgsSummary } from './components/rows/ArgsSummary';
export type { ArgsSummaryProps } from './components/rows/ArgsSummary';
export { Suggestions } from './components/suggestions/Suggestions';
export { Slash } from './components/slash/Slash';
export type { SlashRootProps } from './components/slash/SlashRoot';
export type { SlashPanel } from './components/slash/context';
export type { StatusRowProps } from './components/slash/StatusRow';
export type { NodePickerProps } from './components/slash/NodePicker';
export type { ContentPanelProps } from './components/slash/ContentPanel';
export type { SkillMessageProps } from './components/slash/SkillMessage';
export type { ThreadSwitcherProps } from './components/slash/ThreadSwitcher';
// The user's thread list from the store (issue 40): what `workspace.threads` speaks, and its parts.
export { ThreadList } from './components/thread-list/ThreadList';
export type { ThreadListRootProps } from './components/thread-list/ThreadListRoot';
export type { ThreadListItemsProps } from './components/thread-list/ThreadListItems';
export type { ThreadListItemProps } from './components/thread-list/ThreadListItem';
export type { ThreadListState } from './components/thread-list/useThreadListModel';
export type { ThreadListQuery, ThreadPage, ThreadsApi, ThreadSummary } from './workspace/threadsProtocol';
export { SkillOfferRow } from './components/rows/SkillOfferRow';
export type { SkillOfferRowProps } from './components/rows/SkillOfferRow';
export { EnsureQueryClient } from './components/chat-surface/EnsureQueryClient';
export { nodeQueryKey } from './hooks/nodeQuery';
export { useNodeQuery } from './hooks/useNodeQuery';
export { useSkillDiscovery } from './hooks/useSkillDiscovery';
export { useComposerSelection } from './hooks/useComposerSelection';
export type { SuggestionsRootProps } from './components/suggestions/SuggestionsRoot';
export type { SuggestionChipProps } from './components/suggestions/SuggestionChip';
export type { ComposerInputProps } from './components/composer/ComposerInput';
export type { ComposerSendProps } from './components/composer/ComposerSend';
export type { ComposerStopProps } from './components/composer/ComposerStop';
export type { ComposerDictateProps } from './components/composer/ComposerDictate';
export type { ComposerAttachProps } from './components/composer/ComposerAttach';
export type { InvocationCardState } from './components/invocation-card/InvocationCardRoot';
export type { InvocationCardResultProps } from './components/invocation-card/InvocationCardResult';
export type { InvocationCardOutputProps } from './components/invocation-card/InvocationCardOutput';
export { useChatSurface } from './hooks/context';
export type { ChatSurfaceContextValue } from './hooks/context';
export { createThreadStore } from './hooks/threadStore';
export type { ThreadStore, ThreadStoreState } from './hooks/threadStore';
export {
  useActiveTurn,
  useActiveView,
  useAssistantActivity,
  useCast,
  useRetryText,
  useRow,
  useRowIds,
  useThreadSelector,
} from './hooks/useThread';
export type { AssistantActivity } from './hooks/useThread';
export { useCancel, useDecide, useInvoke, useSend, useStop } from './hooks/useActions';
export { useSuggestions } from './hooks/useSuggestions';
export { formatDuration, useElapsed } from './hooks/useElapsed';
export { useActionFocus } from './hooks/useActionFocus';
export type { ActionFocus } from './hooks/useActionFocus';
export { createLocalWorkspace } from './workspace/localWorkspace';
export type { LocalWorkspace, LocalWorkspaceOptions, ProviderHooks } from './workspace/localWorkspace';
export { RemoteWorkspaceError, createRemoteWorkspace } from './workspace/remoteWorkspace';
export type { RemoteWorkspace, RemoteWorkspaceOptions } from './workspace/remoteWorkspace';
export type {
  ComposerRequest,
  NodeQueryRequest,
  ProviderRequest,
  SaveSkillRequest,
  CancelRequest,
  DecisionRequest,
  FeedbackRequest,
  RegenerateRequest,
  VersionRequest,
  ViewRequest,
  InvokeRequest,
  SubscribeOptions,
  TurnRequest,
  AttachmentsApi,
  UploadRequest,
  WorkspaceAdapter,
  WorkspaceManifest,
} from './workspace/types';
// Users' own MCP servers (issue 17): what `workspace.connectors` speaks.
export type { ConnectMcpRequest, ConnectorsApi, ConnectorInfo } from './workspace/connectorsProtocol';

// MCP Apps and MCP content blocks in cards (#17).
export { McpAppFrame } from './components/mcp-app/McpAppFrame';
export type { AppBridgeModule, McpAppFrameProps, McpAppFrameState } from './components/mcp-app/McpAppFrame';
export { McpContentBlocks } from './components/mcp-app/McpContentBlocks';
export type { McpContentBlocksProps } from './components/mcp-app/McpContentBlocks';
export type { InvocationCardAppProps } from './components/invocation-card/InvocationCardApp';
export type { AppToolCallRequest, AppViewRequest } from './workspace/types';
// Sub-threads (issue 15)
export { SubThreadRow } from './components/rows/SubThreadRow';
export type { SubThreadRowProps } from './components/rows/SubThreadRow';
export { SubThreadSummaryRow } from './components/rows/SubThreadSummaryRow';
export type { SubThreadSummaryRowProps } from './components/rows/SubThreadSummaryRow';
export { SubThreadOriginRow } from './components/rows/SubThreadOriginRow';
export type { SubThreadOriginRowProps } from './components/rows/SubThreadOriginRow';
export { useThreadNavigation } from './components/chat-surface/threadNavigation';
export type { ThreadNavigation } from './components/chat-surface/threadNavigation';
// The surface's words and language (issue 39): every word the kit shows, English by default.
export { defaultMessages } from './components/messages/defaults';
export type { ChatSurfaceMessages, MessagesOverride } from './components/messages/defaults';
export { MessagesProvider, useLocale, useMessages } from './components/messages/context';
export type { MessagesProviderProps } from './components/messages/context';
export { plural } from './components/messages/plural';
export type { PluralCategory, PluralForms } from './components/messages/plural';
