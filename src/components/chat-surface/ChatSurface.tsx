import { useCallback, useState } from 'react';
import { useControllableState } from '../../hooks/useControllableState';
import { CastMember } from '../cast/CastMember';
import { CastRow } from '../cast/CastRow';
import { Composer } from '../composer/Composer';
import { Markdown } from '../markdown/Markdown';
import { ApprovalRow } from '../rows/ApprovalRow';
import { ArgsSummary } from '../rows/ArgsSummary';
import { ProposalRow } from '../rows/ProposalRow';
import { QuestionRow } from '../rows/QuestionRow';
import { StandingRow } from '../rows/StandingRow';
import { SkillOfferRow } from '../rows/SkillOfferRow';
import { ViolationRow } from '../rows/ViolationRow';
import { Slash } from '../slash/Slash';
import { Suggestions } from '../suggestions/Suggestions';
import { ErrorRow } from '../transcript/ErrorRow';
import { MessageRow } from '../transcript/MessageRow';
import { Transcript, type TranscriptProps } from '../transcript/Transcript';
import { TranscriptJump } from '../transcript/TranscriptJump';
import { TranscriptRow } from '../transcript/TranscriptRow';
import { ChatSurfaceRoot, type ChatSurfaceRootProps } from './ChatSurfaceRoot';
import { DriverBadge } from './DriverBadge';
import { EnsureQueryClient } from './EnsureQueryClient';

export interface ChatSurfaceProps extends Omit<ChatSurfaceRootProps, 'children' | 'threadId'> {
  /** The thread shown, when the host controls it. */
  threadId?: string;
  /** The first thread when uncontrolled. @default 'main' */
  defaultThreadId?: string;
  /** Told when the user starts a new thread (`/clear`) or switches back to an earlier one. */
  onThreadChange?: (threadId: string) => void;
  /** Called by Navigate skills with their target (a route or URL of the host app). */
  onNavigate?: (target: string) => void;
  /** Placeholder of the message box. @default 'Ask, or name what to run…' */
  placeholder?: string;
  /** Keep only the rows near the viewport in the DOM. @default true */
  virtualize?: boolean;
  /** Renders the transcript row at an index (see `Transcript`). @default (index) => <TranscriptRow index={index} /> */
  renderRow?: TranscriptProps['renderRow'];
}

/**
 * The assembled chat: driver badge and thread switcher, transcript, cast row,
 * suggested next verbs, the slash panels, the status row (harness, agent,
 * model) and the composer with its slash combobox (with Stop while a turn
 * runs), built from the same parts a host can recompose
 * (`ChatSurface.Root`, `ChatSurface.Transcript`, `Slash.Root`, …). Provides a
 * React Query client when the host has none.
 * @example
 * const workspace = createLocalWorkspace({ capabilities: [add] });
 * <ChatSurface workspace={workspace} activeView={{ kind: 'record_list' }} />
 */
function ChatSurfaceAssembled({ placeholder, virtualize, renderRow, threadId: threadProp, defaultThreadId = 'main', onThreadChange, onNavigate, ...props }: ChatSurfaceProps) {
  const [threadId, setThreadId] = useControllableState({ value: threadProp, defaultValue: defaultThreadId, onChange: onThreadChange });
  const [known, setKnown] = useState<readonly string[]>([threadId]);
  const threads = known.includes(threadId) ? known : [...known, threadId];
  const newThread = useCallback(() => {
    const id = `thread-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    setKnown((list) => [...(list.includes(threadId) ? list : [...list, threadId]), id]);
    setThreadId(id);
  }, [threadId, setThreadId]);
  return (
    <EnsureQueryClient>
      <ChatSurfaceRoot {...props} threadId={threadId}>
        <Slash.Root onNewThread={newThread} {...(onNavigate ? { onNavigate } : {})}>
          <header data-part="header">
            <DriverBadge />
            <Slash.ThreadSwitcher threads={threads} value={threadId} onValueChange={setThreadId} />
          </header>
          <Transcript {...(virtualize !== undefined ? { virtualize } : {})} {...(renderRow ? { renderRow } : {})} />
          <CastRow />
          <Suggestions.Root />
          <Slash.Panels />
          <Slash.StatusRow />
          <Composer.Root>
            <Composer.Input {...(placeholder !== undefined ? { placeholder } : {})} />
            <Composer.Stop />
            <Composer.Send />
          </Composer.Root>
        </Slash.Root>
      </ChatSurfaceRoot>
    </EnsureQueryClient>
  );
}
ChatSurfaceAssembled.displayName = 'ChatSurface';

export const ChatSurface = Object.assign(ChatSurfaceAssembled, {
  Root: ChatSurfaceRoot,
  DriverBadge,
  Transcript,
  TranscriptRow,
  TranscriptJump,
  MessageRow,
  Markdown,
  ErrorRow,
  ProposalRow,
  ApprovalRow,
  QuestionRow,
  ViolationRow,
  StandingRow,
  SkillOfferRow,
  ArgsSummary,
  CastRow,
  CastMember,
  Suggestions,
  Slash,
  Composer,
});
