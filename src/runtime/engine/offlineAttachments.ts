import type { AttachmentRef } from '../events/messages';
import type { DriverChunk, ModelRequest } from '../model';
import { readMessage, type ReadContext } from './understand';

/**
 * The offline model and a message's files: it cannot look inside them, but "import this" with a
 * CSV attached is a request to run the registered import on that file, so it proposes the
 * capability the words "import <the file's name>" name (its postconditions apply when it runs, as
 * for any import). Any other file is acknowledged by name.
 */

/** Words that point at the attached file ("import this", "load the attachment", "bring it in"). */
const POINTS_AT_FILE = /\b(?:this|it|that|these|the (?:attached )?(?:file|attachment|csv|spreadsheet|table)|attached)\b/i;
const IMPORT = /\b(?:import|load|bring|ingest|upload|add)\b/i;

/** A proposal to import the message's CSV file, or null when the message asks for no such thing (or nothing imports CSV). */
export function importAttachment(text: string, files: readonly AttachmentRef[], request: ModelRequest, context: ReadContext): DriverChunk | null {
  const csv = files.find((f) => f.media_type === 'text/csv');
  if (!csv || !IMPORT.test(text) || !POINTS_AT_FILE.test(text)) return null;
  // Read as if the file had been named: the capability index finds the import and fills its file argument.
  const named = text.replace(POINTS_AT_FILE, csv.name);
  const reading = readMessage(named, context);
  if (reading.kind !== 'plan') return null;
  const step = reading.steps[0]!;
  if (!Object.values(step.args).includes(csv.name)) return null;
  // Proposed, never run at once: the user sees which file goes in before anything changes.
  return { type: 'propose', capability: step.capability.name, args: step.args, reason: `${step.capability.title} on the file you attached, ${csv.name}.` };
}

/** Words that acknowledge the message's files by name, said before the reply to its words. */
export function acknowledgeFiles(files: readonly AttachmentRef[]): string {
  const names = files.map((f) => `“${f.name}”`);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]!;
  return `I see you attached ${list}. The offline model cannot look inside files, so I can only go by your words.`;
}
