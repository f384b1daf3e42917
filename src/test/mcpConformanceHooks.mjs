// Loaded with `node --import` before the MCP conformance CLI (`@modelcontextprotocol/conformance`
// 0.1.16): its bundle imports `globSync` from `fs`, which Node 20 does not have. Only its
// `tier-check` command calls it; the server scenarios never do. So the CLI's `fs` is Node's
// with a `globSync` that says so, and nothing else changes.
import { register } from 'node:module';

const shim =
  'data:text/javascript,' +
  encodeURIComponent(
    "import * as fs from 'node:fs'; export * from 'node:fs'; export default fs;" +
      "export const globSync = fs.globSync ?? (() => { throw new Error('globSync needs Node 22 (only the tier-check command uses it).'); });",
  );

const hooks = `export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) return { url: ${JSON.stringify(shim)}, shortCircuit: true };
  return next(specifier, context);
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
