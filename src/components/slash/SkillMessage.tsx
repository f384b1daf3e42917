import type { ComponentPropsWithRef } from 'react';
import type { UserRow } from '../../runtime/fold';
import { useMessages } from '../messages/context';
import { MessageFilesSlot } from '../message/MessageFilesSlot';

export interface SkillMessageProps extends ComponentPropsWithRef<'div'> {
  /** A user message that loads a skill (its `skill`, and its task as `text`). */
  row: UserRow;
}

/**
 * A user message that ran an instruction skill: a "/name" chip and the task,
 * instead of the raw directive. Other messages show as sent.
 * @example
 * <SkillMessage row={{ kind: 'user', id: 'm1', text: 'the records', skill: '/summarize' }} />
 */
export function SkillMessage({ row, ...props }: SkillMessageProps) {
  const { skill } = row;
  const m = useMessages().message;
  return (
    <div {...props} data-part="message" data-role="user" data-state="done" data-skill={skill}>
      <div data-part="message-bubble">
        <span data-part="message-author">{m.you}</span>
        <div data-part="message-text">
          {skill !== undefined ? (
            <>
              <span data-part="skill-chip" aria-label={m.skillChip(skill)}>
                {skill}
              </span>{' '}
              {row.text.trim()}
            </>
          ) : (
            row.text
          )}
        </div>
        {row.attachments?.length ? <MessageFilesSlot files={row.attachments} /> : null}
      </div>
    </div>
  );
}
SkillMessage.displayName = 'Slash.SkillMessage';
