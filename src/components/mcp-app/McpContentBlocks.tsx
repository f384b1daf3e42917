import type { ComponentPropsWithRef } from 'react';
import type { ContentBlock } from '../../runtime/envelope';
import { mediaItems } from './mediaBlocks';
import { useMessages } from '../messages/context';

export interface McpContentBlocksProps extends ComponentPropsWithRef<'div'> {
  /** A result's content blocks; text blocks are left to the result summary. */
  blocks: readonly ContentBlock[];
  /** Names the pictures and sounds ("Chart: image 1") when a block brings no alt text of its own (`_meta.alt`). */
  title: string;
}

/**
 * Image, audio and resource blocks of an MCP result, as such: pictures
 * (sized, with alt text), audio players (named), resource links (name and
 * uri; a link only for `https:`), embedded text resources. Unsafe or
 * oversized blocks say why they are not shown. Renders nothing when a
 * result has text only.
 * @example
 * <McpContentBlocks blocks={result.content} title="Chart" />
 */
export function McpContentBlocks({ blocks, title, ...props }: McpContentBlocksProps) {
  const items = mediaItems(blocks, title, useMessages().media);
  if (!items.length) return null;
  return (
    <div {...props} data-part="mcp-content">
      {items.map((item, i) => {
        switch (item.kind) {
          case 'image':
            return <img key={i} data-part="mcp-image" src={item.src} alt={item.alt} loading="lazy" decoding="async" />;
          case 'audio':
            return <audio key={i} data-part="mcp-audio" controls preload="metadata" src={item.src} aria-label={item.label} />;
          case 'link':
            return (
              <p key={i} data-part="mcp-resource-link">
                {item.href ? (
                  <a href={item.href} target="_blank" rel="noopener noreferrer nofollow">
                    {item.name}
                  </a>
                ) : (
                  <span data-part="mcp-resource-name">{item.name}</span>
                )}{' '}
                <code data-part="mcp-resource-uri">{item.uri}</code>
                {item.description ? <span data-part="mcp-resource-description"> {item.description}</span> : null}
              </p>
            );
          case 'text':
            return (
              <figure key={i} data-part="mcp-resource-text">
                <figcaption>
                  <code>{item.uri}</code>
                </figcaption>
                <pre tabIndex={0}>{item.text}</pre>
              </figure>
            );
          default:
            return (
              <p key={i} data-part="mcp-content-refused">
                {item.message}
              </p>
            );
        }
      })}
    </div>
  );
}
McpContentBlocks.displayName = 'McpContentBlocks';
