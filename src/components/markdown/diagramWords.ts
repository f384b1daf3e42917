/** The words of a ```mermaid diagram in a reply (`defaultMessages.diagram`, spread in through replyWords.ts). */
export const diagramWords = {
  /** The diagram frame's accessible name (its title). */
  name: 'Diagram',
  /** The toggle under a drawn diagram that shows its source (`aria-expanded` says whether it shows). */
  showSource: 'Show source',
  /** Said while the diagram is drawn (its source shows meanwhile). */
  drawing: 'Drawing the diagram…',
  /** The note under a diagram's source when the page has no diagram renderer (the optional `mermaid` package). */
  unavailable: 'Diagrams cannot be drawn here, so this one is shown as its source.',
  /** The note under a diagram's source when drawing it failed: the renderer's reason. */
  failed: (reason: string) => `This diagram could not be drawn (${reason}), so it is shown as its source.`,
};
