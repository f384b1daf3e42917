import type { ComponentPropsWithRef } from 'react';
import { useInvocationCard } from './context';

export type InvocationCardTitleProps = ComponentPropsWithRef<'span'>;

/**
 * The capability's title (never its raw name), with its actor when it has one.
 * @example
 * <InvocationCard.Title />
 */
export function InvocationCardTitle(props: InvocationCardTitleProps) {
  const { row, titleId } = useInvocationCard('Title');
  return (
    // One line in the header (cut with an ellipsis on a narrow card): the whole title shows on hover.
    <span title={row.title} {...props} id={titleId} data-part="invocation-card-title">
      {row.actor?.glyph ? (
        <span data-part="actor-glyph" aria-hidden="true">
          {row.actor.glyph}
        </span>
      ) : null}
      {row.title}
    </span>
  );
}
InvocationCardTitle.displayName = 'InvocationCard.Title';
