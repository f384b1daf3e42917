// Run by `npm run build` after `tsc -p tsconfig.build.json`: the sources import relative modules
// without extensions (Bundler resolution), and tsc copies those specifiers into the declarations
// unchanged, which `moduleResolution: node16/nodenext` refuses (TS2834) and `skipLibCheck` turns into
// `any`. This gives every relative specifier in dist/types its full file name, as Node resolves it:
// `./events` → `./events.js`, `../../runtime` → `../../runtime/index.js`.
// The specifiers are found by TypeScript's own parser (imports, exports, `import("…")` types and
// module declarations), not by a pattern over the text; comments and everything else stay as emitted.
// A specifier with no declaration file behind it fails the build.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = resolve(root, process.argv[2] ?? 'dist/types');

const files = [];
const collect = (path) => {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) collect(full);
    else if (entry.name.endsWith('.d.ts')) files.push(full);
  }
};
collect(dir);

/** The `.js` specifier Node would load for `spec` written in `file`, or null when nothing is there. */
function fullSpecifier(file, spec) {
  const target = resolve(dirname(file), spec);
  const jsFree = target.replace(/\.(js|mjs|cjs)$/, '');
  let found = null;
  if (/\.(js|mjs|cjs)$/.test(spec) && existsSync(`${jsFree}.d.ts`)) return spec;
  if (existsSync(`${target}.d.ts`)) found = `${target}.js`;
  else if (existsSync(target) && statSync(target).isDirectory() && existsSync(join(target, 'index.d.ts'))) found = join(target, 'index.js');
  if (!found) return null;
  const out = relative(dirname(file), found).split('\\').join('/');
  return out.startsWith('.') ? out : `./${out}`;
}

const problems = [];
let rewritten = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  /** @type {{ start: number; end: number; spec: string }[]} */
  const edits = [];
  const consider = (literal) => {
    if (!literal || !ts.isStringLiteralLike(literal) || !literal.text.startsWith('.')) return;
    const spec = fullSpecifier(file, literal.text);
    if (spec === null) problems.push(`${relative(root, file)}: '${literal.text}' has no declaration file`);
    else if (spec !== literal.text) edits.push({ start: literal.getStart(source) + 1, end: literal.getEnd() - 1, spec });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) consider(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) consider(node.argument.literal);
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) consider(node.name);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) consider(node.moduleReference.expression);
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!edits.length) continue;
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.spec + out.slice(edit.end);
  writeFileSync(file, out);
  rewritten += edits.length;
}

if (problems.length) {
  console.error(`Declarations with unresolved relative imports:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(`declarations: ${rewritten} relative specifiers given their .js file names in ${files.length} files`);
