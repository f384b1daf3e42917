import { describe, expect, it } from 'vitest';
import { NodesAnswer } from './answers';
import { readNodesBody } from './nodesBody';

describe('readNodesBody', () => {
  const skill = { id: 'default/Skill/review', nodeType: 'Skill', name: '/review', skill: { instructions: 'Read it.' } };
  // Bodies a server (or something in its place) may answer a node query with.
  const bodies: unknown[] = [
    { nodes: [] },
    { nodes: [skill, { id: 'x' }] },
    { nodes: [skill], next: 'ignored', total: 1 },
    { nodes: [skill, null] },
    { nodes: [skill, ['an', 'array']] },
    { nodes: [skill, 'a string'] },
    { nodes: [7] },
    { nodes: {} },
    { nodes: null },
    { nodes: 'none' },
    {},
    { error: { code: 'not_found' } },
    [],
    [skill],
    null,
    '<html>Not found</html>',
    42,
    undefined,
  ];

  it('reads every body as NodesAnswer does: the same refusals, the same nodes, nothing else kept', () => {
    for (const body of bodies) {
      const parsed = NodesAnswer.safeParse(body);
      expect(readNodesBody(body), JSON.stringify(body)).toEqual(parsed.success ? parsed.data : null);
    }
  });

  it('gives the nodes as they came, in a list of its own', () => {
    const body = { nodes: [skill] };
    const read = readNodesBody(body)!;
    expect(read.nodes[0]).toBe(skill);
    expect(read.nodes).not.toBe(body.nodes);
  });
});
