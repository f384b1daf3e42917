import type { ComponentPropsWithRef } from 'react';
import type { ContentBlock } from '../../runtime/envelope';
import { deferred } from '../deferred/deferred';
import type { McpContentBlocksProps } from '../mcp-app/McpContentBlocks';
import { useInvocationCard } from './context';

/** The blocks' code loads the first time a result has a picture, a sound or a resource: text-only pages do not carry it. */
const contentBlocks = deferred<McpContentBlocksProps>(() => import('../mcp-app/McpContentBlocks').then((m) => m.McpContentBlocks), 'McpContentBlocks', null, 'media');
const isMedia = (b: ContentBlock) => b.type !== 'text';

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
  if (!blocks.some(isMedia)) return null;
  return <contentBlocks.Part {...props} blocks={blocks} title={row.title} />;
}
InvocationCardMedia.displayName = 'InvocationCard.Media';
