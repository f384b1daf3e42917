import { textResult, type ThreadEventInput } from '../../src/runtime';
import type { ScriptedWorkspace } from '../../src/components/testing/scriptedWorkspace';
import { scriptedStory } from '../scripted';

// A thread in German and one in Arabic for the language stories: what the user and the assistant
// wrote and the capabilities' titles are data, in the thread's language; every other word is the
// surface's own, from the story's messages. Two results say "and N more": one row more (one) and
// three items more (several: German "other", Arabic "few").

const driver = { id: 'offline', label: 'Offline model' };
const user = (id: string, text: string): ThreadEventInput => ({ type: 'message.created', message_id: id, role: 'user', text });
const reply = (id: string, text: string): ThreadEventInput[] => [
  { type: 'message.created', message_id: id, role: 'assistant', text, driver },
  { type: 'message.done', message_id: id },
];

interface Words {
  ask: string;
  listTitle: string;
  columns: [string, string];
  people: string[];
  towns: string[];
  tableSummary: string;
  searchTitle: string;
  listSummary: string;
  answer: string;
  remove: string;
  removeTitle: string;
  removeReason: string;
  hints: [string, string, string];
}

function scene(w: Words): ThreadEventInput[] {
  const rows = w.people.slice(0, 9).map((name, i) => ({ [w.columns[0]]: name, [w.columns[1]]: w.towns[i % w.towns.length]! }));
  return [
    user('u1', w.ask),
    { type: 'capability.started', invocation_id: 'inv1', capability: 'records.list', title: w.listTitle, args: {} },
    { type: 'capability.done', invocation_id: 'inv1', result: textResult(w.tableSummary, { rows }, { kind: 'table', summary: w.tableSummary }) },
    { type: 'capability.started', invocation_id: 'inv2', capability: 'records.towns', title: w.searchTitle, args: {} },
    { type: 'capability.done', invocation_id: 'inv2', result: textResult(w.listSummary, { towns: w.towns.slice(0, 11) }, { kind: 'list', summary: w.listSummary }) },
    ...reply('a1', w.answer),
    user('u2', w.remove),
    { type: 'approval.requested', approval_id: 'ap1', capability: 'records.delete', title: w.removeTitle, args: { ids: [4, 7] }, reason: w.removeReason },
  ];
}

function story(w: Words): ScriptedWorkspace {
  return scriptedStory(scene(w), {
    anticipation: {
      'record_list::none': [
        { capability: 'records.count', hint: w.hints[0] },
        { capability: 'records.enrich', hint: w.hints[1], prefill: { limit: 5 } },
        { capability: 'records.enrich', hint: w.hints[2], prefill: { limit: 10 } },
      ],
    },
  });
}

/** The German thread: a table with one row more than shown, a list with three more, an approval waiting. */
export const germanThread = () =>
  story({
    ask: 'Zeig mir die neuen Datensätze und ihre Städte.',
    listTitle: 'Datensätze auflisten',
    columns: ['name', 'stadt'],
    people: ['Anna Berger', 'Jonas Weber', 'Lea Fischer', 'Paul Wagner', 'Mia Becker', 'Felix Schulz', 'Emma Hoffmann', 'Lukas Koch', 'Sophie Richter'],
    towns: ['Berlin', 'Hamburg', 'München', 'Köln', 'Frankfurt', 'Stuttgart', 'Düsseldorf', 'Leipzig', 'Dortmund', 'Essen', 'Bremen'],
    tableSummary: '9 neue Datensätze',
    searchTitle: 'Städte suchen',
    listSummary: '11 Städte',
    answer: 'Es gibt **9 neue Datensätze** aus 11 Städten. Zwei davon sind Duplikate.',
    remove: 'Lösch die zwei Duplikate.',
    removeTitle: 'Datensätze löschen',
    removeReason: 'Löscht die Datensätze 4 und 7, Duplikate von 3 und 6.',
    hints: ['Datensätze zählen', '5 Datensätze anreichern', '10 Datensätze anreichern'],
  });

/** The Arabic thread: the same shape, right to left. */
export const arabicThread = () =>
  story({
    ask: 'اعرض لي السجلات الجديدة ومدنها.',
    listTitle: 'عرض السجلات',
    columns: ['الاسم', 'المدينة'],
    people: ['ليلى حسن', 'عمر خالد', 'سارة أحمد', 'يوسف علي', 'مريم سعيد', 'كريم ناصر', 'نور محمود', 'هدى سالم', 'طارق يوسف'],
    towns: ['القاهرة', 'دبي', 'عمّان', 'الرياض', 'بيروت', 'تونس', 'الدوحة', 'مسقط', 'الرباط', 'الكويت', 'المنامة'],
    tableSummary: '9 سجلات جديدة',
    searchTitle: 'البحث عن المدن',
    listSummary: '11 مدينة',
    answer: 'هناك **9 سجلات جديدة** من 11 مدينة. اثنان منها مكرران.',
    remove: 'احذف السجلين المكررين.',
    removeTitle: 'حذف السجلات',
    removeReason: 'يحذف السجلين 4 و7، وهما نسختان من 3 و6.',
    hints: ['عدّ السجلات', 'إثراء 5 سجلات', 'إثراء 10 سجلات'],
  });
