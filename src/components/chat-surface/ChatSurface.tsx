import { CastMember } from '../cast/CastMember';
import { CastRow } from '../cast/CastRow';
import { Composer } from '../composer/Composer';
import { ErrorRow } from '../transcript/ErrorRow';
import { MessageRow } from '../transcript/MessageRow';
import { Transcript } from '../transcript/Transcript';
import { TranscriptRow } from '../transcript/TranscriptRow';
import { ChatSurfaceRoot, type ChatSurfaceRootProps } from './ChatSurfaceRoot';
import { DriverBadge } from './DriverBadge';

export interface ChatSurfaceProps extends Omit<ChatSurfaceRootProps, 'children'> {
  /** Placeholder of the message box. @default 'Ask, or name what to run…' */
  placeholder?: string;
}

/**
 * The assembled chat: driver badge, transcript, cast row and composer, built
 * from the same parts a host can recompose (`ChatSurface.Root`, `ChatSurface.Transcript`, …).
 * @example
 * const workspace = createLocalWorkspace({ capabilities: [add] });
 * <ChatSurface workspace={workspace} />
 */
function ChatSurfaceAssembled({ placeholder, ...props }: ChatSurfaceProps) {
  return (
    <ChatSurfaceRoot {...props}>
      <header data-part="header">
        <DriverBadge />
      </header>
      <Transcript />
      <CastRow />
      <Composer.Root>
        <Composer.Input {...(placeholder !== undefined ? { placeholder } : {})} />
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
  MessageRow,
  ErrorRow,
  CastRow,
  CastMember,
});
