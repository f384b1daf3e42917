import type { CapabilityResult, DisplayHint } from './envelope';

/**
 * Making and reading a capability result, apart from its schema
 * (`envelope.ts`): the page reads results with no zod loaded.
 */

/** A successful result with one text block and, optionally, structured content. */
export function textResult(
  text: string,
  structuredContent?: Record<string, unknown>,
  display_hint?: DisplayHint,
): CapabilityResult {
  const result: CapabilityResult = { content: [{ type: 'text', text }] };
  if (structuredContent !== undefined) result.structuredContent = structuredContent;
  if (display_hint !== undefined) result.display_hint = display_hint;
  return result;
}

/** A tool-level error result (MCP `isError: true`), visible to the model and the user. */
export function errorResult(message: string): CapabilityResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** The plain text of a result: its text blocks joined, other blocks named. */
export function resultText(result: CapabilityResult): string {
  return result.content
    .map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'resource_link':
          return block.title ?? block.name;
        case 'resource':
          return 'text' in block.resource ? block.resource.text : block.resource.uri;
        case 'image':
        case 'audio':
          return `[${block.type} ${block.mimeType}]`;
        default:
          return block satisfies never;
      }
    })
    .join('\n');
}
