/** The words of a capability call while the model writes it (`defaultMessages.calls`, spread in through replyWords.ts). */
export const callWords = {
  /** A card's status line while the model writes the call's arguments, before it runs. */
  writing: 'Writing arguments…',
};
