import type { AnticipationMap } from 'chatsurface/runtime';

/**
 * What the demo suggests next, by `${view}::${last capability}`: looked up
 * synchronously, no model call. A chip runs its capability with its prefill.
 */
export const demoAnticipation: AnticipationMap = {
  'notes::none': [
    { capability: 'notes.add', hint: 'Note “call Ada”', prefill: { text: 'call Ada' } },
    { capability: 'clock.now', hint: 'What time is it?' },
  ],
  'notes::notes.add': [
    { capability: 'report.build', hint: 'Build a 3-section report', prefill: { sections: 3 } },
    { capability: 'notes.add', hint: 'Note “send the report”', prefill: { text: 'send the report' } },
  ],
  'notes::report.build': [{ capability: 'notes.add', hint: 'Note “report built”', prefill: { text: 'report built' } }],
  'reports::none': [
    { capability: 'report.build', hint: 'Build a 3-section report', prefill: { sections: 3 } },
    { capability: 'report.build', hint: 'Build a long report', prefill: { sections: 12 } },
  ],
  'reports::report.build': [{ capability: 'clock.now', hint: 'Stamp the time' }],
};
