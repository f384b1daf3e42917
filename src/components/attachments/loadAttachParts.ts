/** The upload code and the chips' list: one chunk, fetched when the first file is added (or the pointer is on Attach files). */
export const loadAttachParts = () => import('./attachParts');
