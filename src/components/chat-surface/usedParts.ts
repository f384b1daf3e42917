// The parts of the assembled surface that load on use, one chunk (a page fetches it when the
// first of them is needed; see ../message/deferredMessageParts and ../composer/ComposerDictate):
// the actions under a finished reply, the editor of a message of the user's, the versions picker,
// dictation's engine and the queue of messages sent while a reply runs. One chunk rather than one
// each: every chunk a page loads costs its own request and compresses apart from the rest.
export { MessageActions } from '../message/MessageActions';
export { MessageEditor } from '../message/MessageEditor';
export { VersionsPicker } from '../message/VersionsPicker';
export { DictationEngine } from '../composer/dictationEngine';
export { MessageQueueRoot } from '../queue/MessageQueueRoot';
