import { createContext, useContext, type MouseEvent, type ReactNode } from 'react';

/**
 * A reply's numbered citation markers, inside its markdown. The reply's text gets a link
 * `[n](#chatsurface-source-n)` after each cited span (`citationMarkdown`, components/message):
 * plain markdown, so the parser places it wherever the span ends (a paragraph, a list item, a
 * table cell) and nothing else about the text changes. `ParsedBlock` hands such a link here (not to `MarkdownLink`),
 * which draws the marker "[n]" from the reply's sources (this context); without them (a model
 * that wrote such a link itself) it is only its text.
 */

/** What a link's address starts with when it is a citation marker. */
export const CITATION_HREF = '#chatsurface-source-';

/** What the reply gives its markers: a marker's accessible name and the id of its source, by number. */
export interface CitationMarkerTargets {
  /** The marker's accessible name ("Source 1: Nature guide"); null when the reply has no source `n`. */
  label(n: number): string | null;
  /** The id of source `n`'s item in the reply's list of sources. */
  target(n: number): string;
}

export const CitationMarkers = createContext<CitationMarkerTargets | null>(null);

/** The source a marker's address names (`#chatsurface-source-3` → 3), or null for any other address. */
export function citationNumber(href: string | undefined): number | null {
  if (!href?.startsWith(CITATION_HREF)) return null;
  const n = Number(href.slice(CITATION_HREF.length));
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * The marker after a cited span: a superscript link "[n]" named after its source; activating it
 * moves focus (and the view) to the source in the list under the reply.
 * @example
 * <CitationMarker n={1}>1</CitationMarker>
 */
export function CitationMarker({ n, children }: { n: number; children?: ReactNode }) {
  const targets = useContext(CitationMarkers);
  const label = targets?.label(n) ?? null;
  if (!targets || label === null) return <span data-part="citation-marker" data-state="unknown">{children}</span>;
  const id = targets.target(n);
  const go = (event: MouseEvent<HTMLAnchorElement>) => {
    const source = document.getElementById(id);
    if (!source) return;
    event.preventDefault();
    source.focus();
  };
  return (
    <sup data-part="citation-marker">
      <a href={`#${id}`} aria-label={label} onClick={go}>
        [{n}]
      </a>
    </sup>
  );
}
CitationMarker.displayName = 'ChatSurface.CitationMarker';
