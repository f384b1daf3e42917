#!/usr/bin/env node
// @ts-check
// CSV ingest: reads a CSV from the data folder, validates each row against the
// records Table Schema, and inserts the valid ones into the records database.
// Usage: node import-csv.mjs <file.csv>   (database from RECORDS_DB, data folder from RECORDS_DATA)
// Exit codes: 0 done (even when rows were skipped: the caller's postconditions judge that),
// 2 bad usage or unreadable file.
import { readFileSync } from 'node:fs';
import { basename, resolve, sep } from 'node:path';
import { parse } from 'csv-parse/sync';
import { countRecords, insertRecords, openRecordsDb } from '../records/db.mjs';
import { recordSchema } from '../records/schema.mjs';
import { castRow } from '../records/tableSchema.mjs';

const [file, ...extra] = process.argv.slice(2);
const dbPath = process.env.RECORDS_DB;
const dataDir = resolve(process.env.RECORDS_DATA ?? new URL('../data/', import.meta.url).pathname);

/** @param {string} message @returns {never} */
function usage(message) {
  console.error(`import-csv: ${message}`);
  process.exit(2);
}

if (!file || extra.length) usage('give exactly one CSV file name, e.g. "customers.csv".');
if (!dbPath) usage('RECORDS_DB is not set.');
/** @type {string} */
const name = file;
const path = resolve(dataDir, name);
if (!path.startsWith(dataDir + sep) || basename(path) !== name || !name.endsWith('.csv')) {
  usage(`"${name}" is not a CSV file name in the data folder.`);
}

/** @type {string} */
let text = '';
try {
  text = readFileSync(path, 'utf8');
} catch (error) {
  usage(`cannot read ${name}: ${/** @type {Error} */ (error).message}`);
}

/** @type {Record<string, string>[]} */
let rows = [];
try {
  rows = parse(text, { columns: true, skip_empty_lines: true, trim: true, relax_column_count: true });
} catch (error) {
  usage(`${name} is not valid CSV: ${/** @type {Error} */ (error).message}`);
}

const header = Object.keys(rows[0] ?? {});
const unknown = header.filter((h) => !recordSchema.fields.some((f) => f.name === h));
if (unknown.length) console.error(`warning: ignoring unknown columns: ${unknown.join(', ')}`);

/** @type {Record<string, unknown>[]} */
const valid = [];
rows.forEach((cells, i) => {
  const cast = castRow(recordSchema, cells);
  if (cast.ok) valid.push(cast.record);
  else console.error(`row ${i + 2}: ${cast.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`);
});

const db = openRecordsDb(dbPath);
const before = countRecords(db);
const inserted = insertRecords(db, valid);
const after = countRecords(db);
db.close();

/** @param {number} n @param {string} one */
const plural = (n, one) => `${n} ${new Intl.PluralRules('en').select(n) === 'one' ? one : `${one}s`}`;
const skipped = rows.length - inserted;
// The first line is what the chat reports: one sentence.
console.log(`Imported ${plural(inserted, 'record')} from ${name}${skipped ? `; ${plural(skipped, 'row')} skipped` : ''}.`);
console.log(`read ${rows.length} rows: ${valid.length} valid, inserted ${inserted}`);
console.log(`records: ${before} -> ${after}`);
