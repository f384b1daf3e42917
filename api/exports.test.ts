import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The public API is a checked-in list: every value and type each entry point
 * exports. A change fails here until api/exports.json is updated on purpose
 * (`npm run api:update`).
 */
const listPath = new URL('./exports.json', import.meta.url);
const root = new URL('../', import.meta.url).pathname;
const entries: Record<string, string> = {
  '.': 'src/index.ts',
  './runtime': 'src/runtime/index.ts',
  './server': 'src/server/index.ts',
  './mcp': 'src/mcp.ts',
  './anthropic': 'src/anthropic.ts',
  './openai': 'src/openai.ts',
  './ag-ui': 'src/ag-ui.ts',
  './internal': 'src/internal.ts',
  './testing': 'src/testing.ts',
};

function exportsOf(): Record<string, string[]> {
  const files = Object.values(entries).map((f) => root + f);
  const program = ts.createProgram(files, { strict: true, jsx: ts.JsxEmit.ReactJSX, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [entry, file] of Object.entries(entries)) {
    const source = program.getSourceFile(root + file)!;
    const symbol = checker.getSymbolAtLocation(source)!;
    out[entry] = checker
      .getExportsOfModule(symbol)
      .map((s) => {
        const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
        return target.flags & ts.SymbolFlags.Value ? s.name : `type ${s.name}`;
      })
      .sort();
  }
  return out;
}

describe('public exports', () => {
  const actual = exportsOf();
  if (process.env.UPDATE_API === '1') writeFileSync(listPath, `${JSON.stringify(actual, null, 2)}\n`);
  const expected = JSON.parse(readFileSync(listPath, 'utf8')) as Record<string, string[]>;

  for (const entry of Object.keys(entries)) {
    it(`${entry} exports exactly what api/exports.json lists`, () => {
      expect(actual[entry]).toEqual(expected[entry]);
    });
  }

  it('the runtime entry stays what a host authors against: at most 60 values (the rest is chatsurface/internal)', () => {
    expect(actual['./runtime']!.filter((n) => !n.startsWith('type ')).length).toBeLessThanOrEqual(60);
  });

  it('the browser entry holds no AG-UI: that is chatsurface/ag-ui, with its packages as optional peers', () => {
    expect(actual['.']!.filter((n) => /agui/i.test(n))).toEqual([]);
    expect(actual['./ag-ui']).toContain('createAgUiWorkspace');
  });

  it('the runtime entry exports at run time exactly the values listed', async () => {
    const runtime = await import('../src/runtime/index');
    expect(Object.keys(runtime).sort()).toEqual(expected['./runtime']!.filter((n) => !n.startsWith('type ')));
  });

  it('package.json exports every entry point the list names, and the stylesheet', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };
    expect(Object.keys(pkg.exports).sort()).toEqual([...Object.keys(expected), './package.json', './styles.css'].sort());
  });
});
