import type { ReactNode } from 'react';
import { useMessages } from '../messages/context';

export interface MarkdownLinkProps {
  /** Already passed through `safeUrl`: empty when the address was refused. */
  href: string | undefined;
  children?: ReactNode;
}

/**
 * A link in assistant text: opens in a new tab without giving the new page a
 * handle on this one. A refused address (javascript:, data:, …) keeps its text
 * and loses the link.
 * @example
 * <MarkdownLink href="https://example.com">docs</MarkdownLink>
 */
export function MarkdownLink({ href, children }: MarkdownLinkProps) {
  const m = useMessages().markdown;
  if (!href) {
    return (
      <span data-part="markdown-link" data-state="blocked" title={m.linkRemoved}>
        {children}
      </span>
    );
  }
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" data-part="markdown-link" data-state="allowed">
      {children}
    </a>
  );
}
