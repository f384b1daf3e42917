import type { ComponentPropsWithRef } from 'react';
import { McpContentBlocks } from '../mcp-app/McpContentBlocks';
import { useInvocationCard } from './context';

/**
 * The result's image, audio and resource blocks as such (sanitised, sized,
 * named); nothing for a text-only result. Resource links a `link` display
 * hint asks for are left to `InvocationCard.Result`. Hidden until the invocation is done.
 * @example
 * <InvocationCard.Media />
 */
export function InvocationCardMedia(props: ComponentPropsWithRef<'div'>) {
  const { row } = useInvocationCard('Media');
  if (row.state !== 'done' || !row.result) return null;
  // Links a `link` display hint asked for are listed by InvocationCard.Result already.
  const listed = row.result.display_hint?.kind === 'link';
  const blocks = listed ? row.result.content.filter((b) => b.type !== 'resource_link') : row.result.content;
  return <McpContentBlocks {...props} blocks={blocks} title={row.title} />;
}
InvocationCardMedia.displayName = 'InvocationCard.Media';
