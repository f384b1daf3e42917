import type { ComponentPropsWithRef } from 'react';
import type { UserRow } from '../../runtime/fold';
import { parseLoadSkill } from '../../runtime/slash/dispatch';

export interface SkillMessageProps extends ComponentPropsWithRef<'div'> {
  /** A user message sent with a load-skill directive (`[load_skill /name]` then the task). */
  row: UserRow;
}

/**
 * A user message that ran an instruction skill: a "/name" chip and the task,
 * instead of the raw directive. Other messages show as sent.
 * @example
 * <SkillMessage row={{ kind: 'user', id: 'm1', text: '[load_skill /summarize]\nthe records' }} />
 */
export function SkillMessage({ row, ...props }: SkillMessageProps) {
  const loaded = parseLoadSkill(row.text);
  return (
    <div {...props} data-part="message" data-role="user" data-state="done" data-skill={loaded?.name}>
      <div data-part="message-bubble">
        <span data-part="message-author">You</span>
        <div data-part="message-text">
          {loaded ? (
            <>
              <span data-part="skill-chip" aria-label={`Skill ${loaded.name}`}>
                {loaded.name}
              </span>{' '}
              {loaded.task}
            </>
          ) : (
            row.text
          )}
        </div>
      </div>
    </div>
  );
}
SkillMessage.displayName = 'Slash.SkillMessage';
