import { useRef, type ComponentPropsWithRef } from 'react';
import { focusComposer, useSlash, type SlashPanel } from './context';
import { useMessages } from '../messages/context';

export interface SlashNoticeProps extends ComponentPropsWithRef<'div'> {
  notice: Extract<SlashPanel, { kind: 'notice' }>;
}

/**
 * A slash command's answer that is not a message: a skill's help, an unknown
 * word, a navigation or connection the app cannot make. Errors are alerts;
 * help and confirmations are status messages. Dismiss returns focus to the
 * message box. `data-tone` is info|error.
 * @example
 * <SlashNotice notice={{ kind: 'notice', tone: 'error', text: 'There is no /soup here.' }} />
 */
export function SlashNotice({ notice, ...props }: SlashNoticeProps) {
  const { closePanel } = useSlash('Notice');
  const root = useRef<HTMLDivElement>(null);
  const skill = notice.skill;
  const m = useMessages().slash;
  return (
    <div {...props} ref={root} role={notice.tone === 'error' ? 'alert' : 'status'} data-part="slash-notice" data-tone={notice.tone}>
      {skill ? (
        <p data-part="slash-notice-title">
          <strong>{skill.name}</strong>: {skill.description}.
          {skill.skill?.instructions && !skill.skill.action ? m.typeFollowedBy(skill.name) : ''}
        </p>
      ) : (
        <p data-part="slash-notice-text">{notice.text}</p>
      )}
      <button
        type="button"
        data-part="slash-notice-dismiss"
        aria-label={m.dismissLabel}
        onClick={() => {
          focusComposer(root.current);
          closePanel();
        }}
      >
        {m.dismiss}
      </button>
    </div>
  );
}
SlashNotice.displayName = 'Slash.Notice';
