// The English words of a reply's sources (issue 41); they are `defaultMessages.citations`, kept
// apart from defaults.ts only for its length.

/** The sources a reply cites: numbered markers in its text and the list under it. */
export const citationWords = {
  /** The list's heading under the reply. */
  heading: 'Sources',
  /** A marker's accessible name: which source it leads to. */
  marker: (n: number, title: string) => `Source ${n}: ${title}`,
  /** A source without a title. */
  untitled: (n: number) => `Source ${n}`,
  /** Where a PDF's passage is (pages from 1). */
  pages: (first: number, last: number) => (first === last ? `page ${first}` : `pages ${first}–${last}`),
  /** Where a passage of a document or search result made of blocks is (from 1). */
  passages: (first: number, last: number) => (first === last ? `passage ${first}` : `passages ${first}–${last}`),
  /** Where a plain-text document's passage is (characters from 1). */
  characters: (first: number, last: number) => `characters ${first}–${last}`,
  /** A source a capability's result linked to, which no span of the reply cites. */
  linked: 'linked by a tool',
};
