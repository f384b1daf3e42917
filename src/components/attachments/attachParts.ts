/** The composer's attachment parts loaded on first use (a file chosen, pasted or dropped): the upload code and the chips. */
export { addFiles, removeFile } from './uploads';
export { AttachmentTray } from './AttachmentTray';
