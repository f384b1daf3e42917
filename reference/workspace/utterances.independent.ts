/**
 * An utterance set written apart from the offline model (issue 42): what
 * someone trying the reference demo for the first time types, with typos,
 * follow-ups as short dialogues, corrections, requests the demo cannot do and
 * small talk, the fifteen sentences of the issue among them (`issue: true`).
 * It was written and scored before the model was tuned; no rule of the model
 * is keyed to one of its sentences.
 *
 * Each case starts from a fresh reference workspace on the records screen:
 * - `empty`: nothing imported
 * - `imported`: customers.csv imported, 4 records, none enriched
 * - `enriched`: customers.csv imported and enriched (3 Software, 1 Aerospace)
 * - `mixed`: `enriched`, then new-leads.csv imported: 6 records, 4 of them enriched
 *
 * `before` holds the user's earlier messages of a dialogue (sent first; a
 * proposal they leave stays undecided). What is expected of the last message:
 * - `action`: that capability runs, is proposed or waits for approval, with
 *   `args` among its arguments (`null`: the argument must not be set, e.g. a
 *   filter the user did not ask for);
 * - `steps`: the capabilities in that order, the user accepting each proposal
 *   and approval on the way;
 * - `none`: no capability at all; `reply` a pattern the reply must match.
 */
import type { Moment } from './utterances';

export type IndependentMoment = Exclude<Moment, 'proposed'> | 'mixed';

export type Expected =
  | { action: string; args?: Record<string, unknown>; reply?: RegExp }
  | { steps: { action: string; args?: Record<string, unknown> }[] }
  | { none: true; reply?: RegExp };

export type Kind = 'request' | 'typo' | 'follow-up' | 'correction' | 'cannot' | 'small-talk' | 'question' | 'multi-step' | 'accept' | 'missing';

export interface IndependentCase {
  kind: Kind;
  moment: IndependentMoment;
  before?: string[];
  text: string;
  expect: Expected;
  /** One of the fifteen sentences issue 42 lists. */
  issue?: true;
}

const LIST = 'records.list';
const ENRICH = 'enrich.batch';
const EXPORT = 'crm.export';
const IMPORT = 'records.import_csv';
const SEARCH = 'corpus.search';

export const INDEPENDENT: readonly IndependentCase[] = [
  // The fifteen sentences of the issue.
  { kind: 'typo', moment: 'imported', text: 'enrihc the new records', expect: { action: ENRICH }, issue: true },
  { kind: 'follow-up', moment: 'mixed', before: ['who still hasn\'t been enriched?'], text: 'and the ones from last week?', expect: { none: true, reply: /week|date|when/i }, issue: true },
  { kind: 'small-talk', moment: 'empty', text: "how's your day going?", expect: { none: true }, issue: true },
  { kind: 'correction', moment: 'empty', before: ['import customers.csv'], text: 'sorry, I meant new-leads.csv', expect: { action: IMPORT, args: { file: 'new-leads.csv' } }, issue: true },
  { kind: 'small-talk', moment: 'mixed', text: 'thanks!', expect: { none: true }, issue: true },
  { kind: 'cannot', moment: 'mixed', text: 'can you dedupe the records?', expect: { none: true, reply: /duplicate|dedup/i }, issue: true },
  { kind: 'cannot', moment: 'mixed', text: 'delete Barbara Liskov', expect: { none: true, reply: /delete/i }, issue: true },
  { kind: 'question', moment: 'mixed', text: "who still hasn't been enriched?", expect: { action: LIST, args: { enriched: false }, reply: /\b2\b|two/i }, issue: true },
  { kind: 'cannot', moment: 'enriched', text: 'send a follow-up email to Grace Hopper', expect: { none: true, reply: /e-?mail/i }, issue: true },
  { kind: 'cannot', moment: 'enriched', text: 'export only the software ones to the CRM', expect: { none: true, reply: /software/i }, issue: true },
  { kind: 'missing', moment: 'empty', text: 'import a csv file', expect: { none: true, reply: /which file/i }, issue: true },
  { kind: 'request', moment: 'empty', text: 'Import CSV new-leads.csv.', expect: { action: IMPORT, args: { file: 'new-leads.csv' } }, issue: true },
  { kind: 'multi-step', moment: 'empty', text: 'import customers.csv and then enrich them', expect: { steps: [{ action: IMPORT, args: { file: 'customers.csv' } }, { action: ENRICH }] }, issue: true },
  { kind: 'request', moment: 'mixed', text: 'summarize the records right now', expect: { action: LIST, reply: /\b6\b/ }, issue: true },
  { kind: 'request', moment: 'mixed', text: 'List records', expect: { action: LIST, args: { enriched: null }, reply: /^(?![\s\S]*:\.)/ }, issue: true },

  // Plain requests, in a newcomer's words.
  { kind: 'request', moment: 'empty', text: 'import customers.csv please', expect: { action: IMPORT, args: { file: 'customers.csv' } } },
  { kind: 'request', moment: 'empty', text: 'can you load new-leads.csv for me', expect: { action: IMPORT, args: { file: 'new-leads.csv' } } },
  { kind: 'request', moment: 'empty', text: 'I have a file called customers.csv, bring it in', expect: { action: IMPORT, args: { file: 'customers.csv' } } },
  { kind: 'request', moment: 'empty', text: 'upload "customers.csv"', expect: { action: IMPORT, args: { file: 'customers.csv' } } },
  { kind: 'request', moment: 'empty', text: 'Please import the file broken.csv!', expect: { action: IMPORT, args: { file: 'broken.csv' } } },
  { kind: 'request', moment: 'empty', text: 'show me all the records', expect: { action: LIST, args: { enriched: null } } },
  { kind: 'request', moment: 'imported', text: 'show the records', expect: { action: LIST, args: { enriched: null } } },
  { kind: 'request', moment: 'mixed', text: 'list the first 3 records', expect: { action: LIST, args: { limit: 3 } } },
  { kind: 'request', moment: 'mixed', text: 'show me just the enriched ones', expect: { action: LIST, args: { enriched: true } } },
  { kind: 'request', moment: 'mixed', text: 'show me the ones that are not enriched', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'request', moment: 'mixed', text: 'list pending records', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'request', moment: 'imported', text: 'enrich everything', expect: { action: ENRICH } },
  { kind: 'request', moment: 'imported', text: 'enrich all records', expect: { action: ENRICH } },
  { kind: 'request', moment: 'mixed', text: 'enrich only the new ones', expect: { action: ENRICH, args: { unscored: true } } },
  { kind: 'request', moment: 'mixed', text: 'score the records that are still pending', expect: { action: ENRICH, args: { unscored: true } } },
  { kind: 'request', moment: 'imported', text: 'enrich two records', expect: { action: ENRICH, args: { limit: 2 } } },
  { kind: 'request', moment: 'imported', text: 'can you add industry info to my contacts', expect: { action: ENRICH } },
  { kind: 'request', moment: 'enriched', text: 'push everything to the CRM', expect: { action: EXPORT } },
  { kind: 'request', moment: 'enriched', text: 'export the records to crm', expect: { action: EXPORT } },
  { kind: 'request', moment: 'enriched', text: 'I want to send my enriched contacts to the CRM', expect: { action: EXPORT } },
  { kind: 'request', moment: 'empty', text: 'search the notes for churn', expect: { action: SEARCH, args: { query: 'churn' } } },
  { kind: 'request', moment: 'empty', text: 'look up the CRM export rules in the notes', expect: { action: SEARCH } },
  { kind: 'request', moment: 'empty', text: 'find the onboarding checklist', expect: { action: SEARCH } },
  { kind: 'request', moment: 'empty', text: 'plan an ingestion run for me', expect: { action: 'crawl-fetch-ingest' } },
  { kind: 'request', moment: 'mixed', text: 'show 2 records', expect: { action: LIST, args: { limit: 2 } } },
  { kind: 'request', moment: 'imported', text: 'enrich 80 records', expect: { none: true, reply: /50/ } },
  { kind: 'request', moment: 'mixed', text: 'show me 500 records', expect: { none: true, reply: /100/ } },

  // Typos.
  { kind: 'typo', moment: 'empty', text: 'imprt customers.csv', expect: { action: IMPORT, args: { file: 'customers.csv' } } },
  { kind: 'typo', moment: 'empty', text: 'improt new-leads.csv', expect: { action: IMPORT, args: { file: 'new-leads.csv' } } },
  { kind: 'typo', moment: 'imported', text: 'shwo me the recrods', expect: { action: LIST } },
  { kind: 'typo', moment: 'mixed', text: 'lsit the enriched records', expect: { action: LIST, args: { enriched: true } } },
  { kind: 'typo', moment: 'imported', text: 'enrcih the records', expect: { action: ENRICH } },
  { kind: 'typo', moment: 'imported', text: 'pls enrich the reocrds', expect: { action: ENRICH } },
  { kind: 'typo', moment: 'enriched', text: 'exprot to the crm', expect: { action: EXPORT } },
  { kind: 'typo', moment: 'enriched', text: 'export to teh CRM', expect: { action: EXPORT } },
  { kind: 'typo', moment: 'mixed', text: 'how many recods do I have?', expect: { action: LIST, reply: /\b6\b/ } },
  { kind: 'typo', moment: 'mixed', text: 'which ones are not enrichd yet?', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'typo', moment: 'empty', text: 'serch the notes for enrichment', expect: { action: SEARCH } },
  { kind: 'typo', moment: 'empty', text: 'import customer.csv', expect: { none: true, reply: /customers\.csv/ } },
  { kind: 'typo', moment: 'empty', text: 'helo', expect: { none: true } },
  { kind: 'typo', moment: 'mixed', text: 'thnaks', expect: { none: true } },
  { kind: 'typo', moment: 'imported', text: 'enirch pending recs', expect: { action: ENRICH, args: { unscored: true } } },

  // Questions about the data: answered from a read.
  { kind: 'question', moment: 'mixed', text: 'how many records are there?', expect: { action: LIST, reply: /\b6\b/ } },
  { kind: 'question', moment: 'mixed', text: 'how many are enriched?', expect: { action: LIST, reply: /\b4\b/ } },
  { kind: 'question', moment: 'mixed', text: 'are all my records enriched?', expect: { action: LIST, reply: /\b4\b|\b2\b/ } },
  { kind: 'question', moment: 'imported', text: 'has anything been enriched yet?', expect: { action: LIST } },
  { kind: 'question', moment: 'mixed', text: 'which records still need enriching?', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'question', moment: 'mixed', text: 'which ones are done?', expect: { action: LIST, args: { enriched: true } } },
  { kind: 'question', moment: 'empty', text: 'do I have any records?', expect: { action: LIST, reply: /\bno\b|\b0\b/i } },
  { kind: 'question', moment: 'enriched', text: "what's in my list right now?", expect: { action: LIST } },
  { kind: 'question', moment: 'mixed', text: 'who is waiting for enrichment?', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'question', moment: 'mixed', text: 'who hasn\'t been scored?', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'question', moment: 'mixed', text: 'which records are without enrichment?', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'question', moment: 'mixed', text: 'what records haven\'t been enriched yet', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'question', moment: 'mixed', text: 'what do the notes say about churn?', expect: { action: SEARCH } },
  { kind: 'question', moment: 'empty', text: 'what are the rules for exporting to the CRM?', expect: { action: SEARCH } },
  { kind: 'question', moment: 'mixed', text: 'how many records are in Germany?', expect: { none: true, reply: /countr|german/i } },
  { kind: 'question', moment: 'enriched', text: 'which companies are in aerospace?', expect: { none: true, reply: /industr|aerospace/i } },
  { kind: 'question', moment: 'mixed', text: 'what can you do?', expect: { none: true, reply: /Import CSV/ } },
  { kind: 'question', moment: 'empty', text: 'what is this?', expect: { none: true } },
  { kind: 'question', moment: 'mixed', text: 'what should I do now?', expect: { none: true, reply: /enrich/i } },
  { kind: 'question', moment: 'mixed', text: 'what happened so far?', expect: { none: true, reply: /Import CSV/ } },

  // Follow-ups, as short dialogues.
  { kind: 'follow-up', moment: 'mixed', before: ['how many records are pending?'], text: 'and the enriched ones?', expect: { action: LIST, args: { enriched: true } } },
  { kind: 'follow-up', moment: 'mixed', before: ['show me the enriched records'], text: 'what about the others?', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'follow-up', moment: 'mixed', before: ['which records are not enriched yet?'], text: 'ok enrich them', expect: { action: ENRICH, args: { unscored: true } } },
  { kind: 'follow-up', moment: 'mixed', before: ["who still hasn't been enriched?"], text: 'enrich those', expect: { action: ENRICH, args: { unscored: true } } },
  { kind: 'follow-up', moment: 'mixed', before: ['list the records'], text: 'just the first 2', expect: { action: LIST, args: { limit: 2 } } },
  { kind: 'follow-up', moment: 'mixed', before: ['show me the pending records'], text: 'and how many are there?', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'follow-up', moment: 'mixed', before: ['how many records do I have?'], text: 'and how many of them are enriched?', expect: { action: LIST, reply: /\b4\b/ } },
  { kind: 'follow-up', moment: 'enriched', before: ['show the enriched records'], text: 'great, now send them to the CRM', expect: { action: EXPORT } },
  { kind: 'follow-up', moment: 'mixed', before: ['show me the records from the US'], text: 'ok then show them all', expect: { action: LIST, args: { enriched: null } } },
  { kind: 'follow-up', moment: 'mixed', before: ['search the notes for churn'], text: 'and for onboarding?', expect: { action: SEARCH } },
  { kind: 'follow-up', moment: 'mixed', before: ['which records are enriched?'], text: 'and the ones that came in this month?', expect: { none: true } },
  { kind: 'follow-up', moment: 'mixed', before: ['list the enriched records'], text: 'now the pending ones', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'follow-up', moment: 'imported', before: ['enrich the records'], text: 'only 2 of them', expect: { action: ENRICH, args: { limit: 2 } } },
  { kind: 'follow-up', moment: 'empty', before: ['import a file'], text: 'customers.csv', expect: { action: IMPORT, args: { file: 'customers.csv' } } },
  { kind: 'follow-up', moment: 'empty', before: ['I want to import something'], text: 'new-leads.csv please', expect: { action: IMPORT, args: { file: 'new-leads.csv' } } },
  { kind: 'follow-up', moment: 'mixed', before: ['how many records are enriched?'], text: 'and which aren\'t?', expect: { action: LIST, args: { enriched: false } } },

  // Corrections.
  { kind: 'correction', moment: 'mixed', before: ['show me the pending records'], text: 'no, I meant the enriched ones', expect: { action: LIST, args: { enriched: true } } },
  { kind: 'correction', moment: 'mixed', before: ['show me the enriched records'], text: 'sorry, the pending ones', expect: { action: LIST, args: { enriched: false } } },
  { kind: 'correction', moment: 'empty', text: 'import customers.csv, no wait, new-leads.csv', expect: { action: IMPORT, args: { file: 'new-leads.csv' } } },
  { kind: 'correction', moment: 'imported', before: ['enrich 3 records'], text: 'actually make it 2', expect: { action: ENRICH, args: { limit: 2 } } },
  { kind: 'correction', moment: 'mixed', before: ['list 5 records'], text: 'I meant 3', expect: { action: LIST, args: { limit: 3 } } },
  { kind: 'correction', moment: 'empty', before: ['import customer.csv'], text: 'oops, customers.csv', expect: { action: IMPORT, args: { file: 'customers.csv' } } },
  { kind: 'correction', moment: 'mixed', before: ['export to the CRM'], text: 'wait, not yet', expect: { none: true } },
  { kind: 'correction', moment: 'imported', before: ['enrich the records'], text: 'no, don\'t', expect: { none: true } },
  { kind: 'correction', moment: 'empty', text: 'import new-leads.csv - sorry, broken.csv', expect: { action: IMPORT, args: { file: 'broken.csv' } } },

  // Several steps in one message.
  { kind: 'multi-step', moment: 'empty', text: 'import new-leads.csv then enrich them', expect: { steps: [{ action: IMPORT, args: { file: 'new-leads.csv' } }, { action: ENRICH }] } },
  { kind: 'multi-step', moment: 'empty', text: 'Import customers.csv, enrich the records and export them to the CRM', expect: { steps: [{ action: IMPORT, args: { file: 'customers.csv' } }, { action: ENRICH }, { action: EXPORT }] } },
  { kind: 'multi-step', moment: 'imported', text: 'enrich the records and then show me the list', expect: { steps: [{ action: ENRICH }, { action: LIST }] } },
  { kind: 'multi-step', moment: 'mixed', text: 'enrich the pending ones and then export to the CRM', expect: { steps: [{ action: ENRICH, args: { unscored: true } }, { action: EXPORT }] } },
  { kind: 'multi-step', moment: 'empty', text: 'first import customers.csv, after that list the records', expect: { steps: [{ action: IMPORT, args: { file: 'customers.csv' } }, { action: LIST }] } },
  { kind: 'multi-step', moment: 'empty', text: 'import customers.csv and new-leads.csv', expect: { steps: [{ action: IMPORT, args: { file: 'customers.csv' } }, { action: IMPORT, args: { file: 'new-leads.csv' } }] } },
  { kind: 'multi-step', moment: 'imported', text: 'enrich them and email the results to my boss', expect: { none: true, reply: /e-?mail/i } },
  { kind: 'multi-step', moment: 'empty', text: 'import customers.csv and delete the duplicates', expect: { none: true, reply: /duplicate|delete/i } },

  // Accepting and declining.
  { kind: 'accept', moment: 'imported', text: 'yes please do that', expect: { action: ENRICH } },
  { kind: 'accept', moment: 'imported', text: 'sure, go for it', expect: { action: ENRICH } },
  { kind: 'accept', moment: 'empty', text: 'yep, the first one', expect: { action: IMPORT, args: { file: 'customers.csv' } } },
  { kind: 'accept', moment: 'enriched', text: 'ok let\'s do the export', expect: { action: EXPORT } },
  { kind: 'accept', moment: 'imported', before: ['score the records'], text: 'yes', expect: { action: ENRICH } },
  { kind: 'accept', moment: 'imported', before: ['score the records'], text: 'sounds good', expect: { action: ENRICH } },
  { kind: 'accept', moment: 'imported', before: ['score the records'], text: 'nah', expect: { none: true } },
  { kind: 'accept', moment: 'imported', text: 'no thanks', expect: { none: true } },
  { kind: 'accept', moment: 'enriched', text: 'not now', expect: { none: true } },
  { kind: 'accept', moment: 'mixed', before: ['export only the software ones to the CRM'], text: 'ok, export them all then', expect: { action: EXPORT } },
  { kind: 'accept', moment: 'imported', text: 'the second one please', expect: { action: LIST, args: { enriched: false } } },

  // A required detail missing: asked for in words.
  { kind: 'missing', moment: 'empty', text: 'import a file', expect: { none: true, reply: /which file/i } },
  { kind: 'missing', moment: 'empty', text: 'I want to import some contacts', expect: { none: true, reply: /which file/i } },
  { kind: 'missing', moment: 'empty', text: 'search the notes', expect: { none: true, reply: /\?/ } },
  { kind: 'missing', moment: 'empty', text: 'upload my spreadsheet', expect: { none: true, reply: /which file/i } },
  { kind: 'missing', moment: 'mixed', text: 'import', expect: { none: true, reply: /which file/i } },

  // Requests the demo cannot do: said back, nothing run.
  { kind: 'cannot', moment: 'mixed', text: 'remove the duplicates', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'delete all records', expect: { none: true, reply: /delete/i } },
  { kind: 'cannot', moment: 'mixed', text: 'add a new record for Linus Torvalds', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'change Grace Hopper\'s email to grace@navy.example', expect: { none: true } },
  { kind: 'cannot', moment: 'enriched', text: 'email Ada Lovelace', expect: { none: true, reply: /e-?mail/i } },
  { kind: 'cannot', moment: 'enriched', text: 'call Katherine Johnson tomorrow', expect: { none: true } },
  { kind: 'cannot', moment: 'enriched', text: 'export the aerospace records to the CRM', expect: { none: true, reply: /aerospace/i } },
  { kind: 'cannot', moment: 'enriched', text: 'export only Grace Hopper to the CRM', expect: { none: true } },
  { kind: 'cannot', moment: 'enriched', text: 'export to salesforce', expect: { none: true, reply: /salesforce|CRM/i } },
  { kind: 'cannot', moment: 'mixed', text: 'enrich just the US records', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'show me the software companies', expect: { none: true, reply: /software/i } },
  { kind: 'cannot', moment: 'mixed', text: 'sort the records by company', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'merge Ada and Grace', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'undo the last import', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'download the records as excel', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'print the list', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'schedule a meeting with Radia', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'translate the notes into French', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'rename Orbit Labs to Orbit Inc', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'show records added last week', expect: { none: true } },
  { kind: 'cannot', moment: 'empty', text: 'import https://example.com/leads.csv', expect: { none: true } },
  { kind: 'cannot', moment: 'empty', text: 'import ../../etc/passwd', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'drop the records table', expect: { none: true } },
  { kind: 'cannot', moment: 'mixed', text: 'clear everything', expect: { none: true } },

  // Small talk, greetings, thanks and noise.
  { kind: 'small-talk', moment: 'empty', text: 'hi', expect: { none: true } },
  { kind: 'small-talk', moment: 'empty', text: 'good morning!', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'hey there, how are you?', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'thank you so much', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'cool, that worked', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'who are you?', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'are you a robot?', expect: { none: true } },
  { kind: 'small-talk', moment: 'empty', text: 'what\'s the weather like?', expect: { none: true } },
  { kind: 'small-talk', moment: 'empty', text: 'tell me something funny', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'bye', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'ok', expect: { none: true } },
  { kind: 'small-talk', moment: 'empty', text: 'lol', expect: { none: true } },
  { kind: 'small-talk', moment: 'empty', text: '???', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'this is pretty neat', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'I love this', expect: { none: true } },
  { kind: 'small-talk', moment: 'empty', text: 'what is 2 + 2?', expect: { none: true } },
  { kind: 'small-talk', moment: 'empty', text: 'qwerty', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'you\'re slow', expect: { none: true } },
  { kind: 'small-talk', moment: 'mixed', text: 'never mind', expect: { none: true } },
  { kind: 'small-talk', moment: 'empty', text: 'can you help me?', expect: { none: true } },
];
