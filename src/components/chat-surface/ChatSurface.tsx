import { CastMember } from '../cast/CastMember';
import { CastRow } from '../cast/CastRow';
import { Composer } from '../composer/Composer';
import { Markdown } from '../markdown/Markdown';
import { ApprovalRow } from '../rows/ApprovalRow';
import { ArgsSummary } from '../rows/ArgsSummary';
import { ProposalRow } from '../rows/ProposalRow';
import { QuestionRow } from '../rows/QuestionRow';
import { StandingRow } from '../rows/StandingRow';
import { ViolationRow } from '../rows/ViolationRow';
import { Suggestions } from '../suggestions/Suggestions';
import { ErrorRow } from '../transcript/ErrorRow';
import { MessageRow } from '../transcript/MessageRow';
import { Transcript } from '../transcript/Transcript';
import { TranscriptJump } from '../transcript/TranscriptJump';
import { TranscriptRow } from '../transcript/TranscriptRow';
import { ChatSurfaceRoot, type ChatSurfaceRootProps } from './ChatSurfaceRoot';
import { DriverBadge } from './DriverBadge';

export interface ChatSurfaceProps extends Omit<ChatSurfaceRootProps, 'children'> {
  /** Placeholder of the message box. @default 'Ask, or name what to run…' */
  placeholder?: string;
  /** Keep only the rows near the viewport in the DOM. @default true */
  virtualize?: boolean;
}

/**
 * The assembled chat: driver badge, transcript, cast row, suggested next
 * verbs and composer (with Stop while a turn runs), built from the same parts
 * a host can recompose (`ChatSurface.Root`, `ChatSurface.Transcript`, …).
 * @example
 * const workspace = createLocalWorkspace({ capabilities: [add] });
 * <ChatSurface workspace={workspace} activeView={{ kind: 'record_list' }} />
 */
function ChatSurfaceAssembled({ placeholder, virtualize, ...props }: ChatSurfaceProps) {
  return (
    <ChatSurfaceRoot {...props}>
      <header data-part="header">
        <DriverBadge />
      </header>
      <Transcript {...(virtualize !== undefined ? { virtualize } : {})} />
      <CastRow />
      <Suggestions.Root />
      <Composer.Root>
        <Composer.Input {...(placeholder !== undefined ? { placeholder } : {})} />
        <Composer.Stop />
        <Composer.Send />
      </Composer.Root>
    </ChatSurfaceRoot>
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
  ArgsSummary,
  CastRow,
  CastMember,
  Suggestions,
});
