#!/usr/bin/env node
// The largest source files and the longest functions of src/, in lines (issue 38: no file over
// 500 lines, no function over 150).
//
//   node scripts/sizes.mjs            prints the 15 largest files and the 15 longest functions
//   node scripts/sizes.mjs --top 30   prints 30 of each
//   node scripts/sizes.mjs --check    prints only what is over a limit; exits 1 when anything is
//
// Counted: every .ts and .tsx file under src/ but tests (*.test.*), store suites (*.suite.ts),
// test support (src/test/), stories and the data tables listed below. A function is a function
// declaration, a method (constructors and accessors too), an arrow function or a function
// expression; its lines run from its first line to its last, nested functions included, and
// each nested function is counted again on its own, under its own name.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const FILE_LIMIT = 500;
export const FUNCTION_LIMIT = 150;

/** Files that are data (tables of words, schemas written out), not logic: not counted. */
export const DATA_TABLES = ['runtime/slash/builtinSkillData.ts'];

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Whether a path under src/ is counted. */
export function counted(path) {
  return !/\.(test|stories|suite)\.tsx?$/.test(path) && !path.startsWith('test/') && !DATA_TABLES.includes(path);
}

/** A readable name for a function node: its own, or the variable, property or call it sits in. */
function nameOf(node, file) {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name))) return parent.name.text;
  if (parent && ts.isPropertyDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(file);
    return `(callback of ${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee})`;
  }
  if (parent && ts.isExportAssignment(parent)) return 'default';
  return '(anonymous)';
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node);

/** The functions of one file's text, each with its name, first line and length in lines. */
export function functionsOf(path, text) {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out = [];
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      out.push({ path, name: nameOf(node, file), line: first, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** Lines of a text, as an editor numbers them (a last line without a newline counts). */
export function lineCount(text) {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Every counted file with its lines, and every function in them; both longest first. */
export function measure() {
  const files = [];
  const functions = [];
  for (const absolute of sourceFiles(src)) {
    const path = relative(src, absolute).replace(/\\/g, '/');
    if (!counted(path)) continue;
    const text = readFileSync(absolute, 'utf8');
    files.push({ path, lines: lineCount(text) });
    functions.push(...functionsOf(path, text));
  }
  files.sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path));
  functions.sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path) || a.line - b.line);
  return { files, functions };
}

/** What is over a limit: files over FILE_LIMIT lines, functions over FUNCTION_LIMIT lines. */
export function check() {
  const { files, functions } = measure();
  return {
    files: files.filter((f) => f.lines > FILE_LIMIT),
    functions: functions.filter((f) => f.lines > FUNCTION_LIMIT),
  };
}

function print(title, rows, format) {
  console.log(title);
  if (rows.length === 0) console.log('  (none)');
  for (const row of rows) console.log(`  ${format(row)}`);
}

const fileRow = (f) => `${String(f.lines).padStart(5)}  src/${f.path}`;
const functionRow = (f) => `${String(f.lines).padStart(5)}  ${f.name}  src/${f.path}:${f.line}`;

function main(argv) {
  if (argv.includes('--check')) {
    const over = check();
    print(`Files over ${FILE_LIMIT} lines:`, over.files, fileRow);
    print(`Functions over ${FUNCTION_LIMIT} lines:`, over.functions, functionRow);
    return over.files.length + over.functions.length > 0 ? 1 : 0;
  }
  const at = argv.indexOf('--top');
  const top = at >= 0 ? Number(argv[at + 1]) : 15;
  const { files, functions } = measure();
  print(`The ${top} largest files of src/ (lines; ${files.length} counted, limit ${FILE_LIMIT}):`, files.slice(0, top), fileRow);
  print(`The ${top} longest functions (lines; ${functions.length} counted, limit ${FUNCTION_LIMIT}):`, functions.slice(0, top), functionRow);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
