import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Processor } from 'unified';

/**
 * GitHub-flavoured markdown for reading: tables, task lists, strikethrough,
 * autolinks and footnotes. It is remark-gfm's parsing half (the same
 * `micromark-extension-gfm` syntax and `mdast-util-gfm` tree builders that
 * remark-gfm registers); remark-gfm also registers a markdown *serializer*
 * (`mdast-util-to-markdown`, ~7 KB gzip) that a renderer never calls, so the
 * surface leaves it out of the host page.
 */
export function remarkGfmParse(this: Processor): void {
  const data = this.data() as {
    micromarkExtensions?: unknown[];
    fromMarkdownExtensions?: unknown[];
  };
  (data.micromarkExtensions ??= []).push(gfm());
  (data.fromMarkdownExtensions ??= []).push(gfmFromMarkdown());
}
