import { describe, expect, it } from 'vitest';
import { createProtocolClient, type SendRequest } from './client';


/** A `send` that records each request and answers with the next canned JSON. */
function recording(answers: unknown[]) {
  const sent: string[] = [];
  const send: SendRequest = async (method, path, body) => {
    sent.push(`${method} ${path} ${body === undefined ? '-' : JSON.stringify(body)}`);
    return { status: 200, json: answers.shift() };
  };
  return { sent, call: createProtocolClient(send, (message, status) => Object.assign(new Error(message), { status })) };
}

describe('createProtocolClient', () => {
  it('fills path parameters (encoded), the query and the body from the route, and returns the answer', async () => {
    const { sent, call } = recording([{ lastSeq: 4 }, { nodes: [] }, { removed: 'my server' }]);
    expect(await call('decide', { params: { threadId: 't 1' }, body: { id: 'p1', decision: 'accept' } })).toEqual({ lastSeq: 4 });
    expect(await call('query', { query: { q: 'nodeType:Skill sort:order', threadId: 't1' } })).toEqual({ nodes: [] });
    expect(await call('disconnectConnector', { params: { label: 'my server' } })).toEqual({ removed: 'my server' });
    expect(sent).toEqual([
      'POST /v1/threads/t%201/decisions {"id":"p1","decision":"accept"}',
      'GET /v1/nodes?q=nodeType%3ASkill%20sort%3Aorder&threadId=t1 -',
      // A write without a body still sends JSON: the server's cross-site guard takes nothing else.
      'DELETE /v1/mcp-servers/my%20server {}',
    ]);
  });

  it('rejects an answer that does not fit the route, naming the route', async () => {
    const { call } = recording([{ lastSeq: 'soon' }, { result: 'not an object', lastSeq: 1 }]);
    await expect(call('send', { params: { threadId: 't1' }, body: { text: 'hi' } })).rejects.toThrow(/POST \/v1\/threads\/:threadId\/turns is not what the protocol says/);
    await expect(call('invoke', { body: { threadId: 't1', capability: 'a.b' } })).rejects.toMatchObject({ status: 200 });
  });

  it("reads a node query's answer by hand, and one that does not fit goes to the route's schema, which names it", async () => {
    const node = { id: 'default/Skill/review', nodeType: 'Skill', name: '/review' };
    const { call } = recording([{ nodes: [node], extra: 1 }, { nodes: [node, 'not a node'] }]);
    expect(await call('query', { query: { q: 'nodeType:Skill' } })).toEqual({ nodes: [node] });
    await expect(call('query', { query: { q: 'nodeType:Skill' } })).rejects.toThrow(/GET \/v1\/nodes is not what the protocol says/);
  });
});
