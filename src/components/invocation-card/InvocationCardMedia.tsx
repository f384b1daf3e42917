import type { ComponentPropsWithRef } from 'react';
import { McpContentBlocks } from '../mcp-app/McpContentBlocks';
import { useInvocationCard } from './context';

/**
 * The result's image, audio and resource blocks as such (sanitised, sized,
 * named); nothing for a text-only result. Hidden until the invocation is done.
 * @example
 * <InvocationCard.Media />
 */
export function InvocationCardMedia(props: ComponentPropsWithRef<'div'>) {
  const { row } = useInvocationCard('Media');
  if (row.state !== 'done' || !row.result) return null;
  return <McpContentBlocks {...props} blocks={row.result.content} title={row.title} />;
}
InvocationCardMedia.displayName = 'InvocationCard.Media';
