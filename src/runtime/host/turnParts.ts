// What the thread host needs only once something runs: a model turn, a decision, a capability
// call. The host loads this module on the first send, decision or call (`import()`), so a page
// that shows the chat (transcript, slash list, composer) carries none of the turn loop, the
// capability runner or the postcondition checks until the user does something with it. On a
// server the first turn loads it once from disk.
export { decisionsFor, resumeTurn, takeTurn } from '../turn';
export { runHarnessTurn } from './harnessTurn';
export { invoke } from '../invoke';
export { confirmationReason } from '../engine/alignment';
export { requestOf } from '../engine/loop';
export { localChatCalls } from './chatCalls';
export { draftSkillOffer } from '../slash/offers';
// zod's JSON Schema converter: a page's own registry converts its capabilities' schemas with it once it is in (`./schemasOnUse`).
export { toJsonSchema } from '../registry';
