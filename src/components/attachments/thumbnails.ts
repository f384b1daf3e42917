/** Images a browser shows safely as a thumbnail (never SVG: it is a document). Only the lazy parts use it (the chips, a message's files). */
export const THUMBNAIL_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
