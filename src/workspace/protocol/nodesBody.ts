import type { CatalogNode } from '../../runtime/catalogNodes';

/**
 * The answer of a node query (`GET /v1/nodes`: the slash skills, pickers),
 * `{ nodes: [ {…}, … ] }`, read by hand: what `NodesAnswer` (`answers.ts`)
 * accepts and returns, without zod, so a page that looks its skills up when
 * the user steps into the message box does not load the protocol's schemas
 * for it (they come with the first send). `nodesBody.test.ts` holds the two
 * to the same answers; a body this refuses goes to the schema, which says
 * what is wrong.
 */
export function readNodesBody(body: unknown): { nodes: CatalogNode[] } | null {
  if (!isObject(body) || !Array.isArray(body.nodes)) return null;
  // Each node is checked as the schema checks it: an object, its fields the kit's own type.
  for (const node of body.nodes) if (!isObject(node)) return null;
  return { nodes: [...(body.nodes as CatalogNode[])] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
