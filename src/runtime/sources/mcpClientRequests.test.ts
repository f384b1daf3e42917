import { toNodeHandler } from '@modelcontextprotocol/node';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEventLog } from '../eventLog';
import type { EventOf, ThreadEvent } from '../events';
import { invoke } from '../invoke';
import { createRegistry } from '../registry';
import { startEverythingServer, type EverythingServer } from '../../test/everythingServer';
import { scriptedServer, type ScriptedServer } from '../../test/mcpScriptedServer';
import { defineMcpCapability } from './mcp';
import { elicitationOffMessage, samplingOffMessage, type McpClientRequestContext, type McpElicitation, type McpElicitationAnswer } from './mcpClientRequests';
import { createMcpConnection, type McpConnection, type McpConnectionOptions } from './mcpConnection';

async function run(connection: McpConnection, tool: string, args: unknown) {
  const registry = createRegistry([await defineMcpCapability(connection, { tool })]);
  const log = createEventLog();
  await invoke(`${connection.name}.${tool}`, args, { registry, emit: log.emit, threadKey: 'space/ada/t1' });
  const events = log.since() as ThreadEvent[];
  const started = events.find((e) => e.type === 'capability.started') as EventOf<'capability.started'>;
  return { events, last: events.at(-1)!, invocationId: started.invocation_id, text: JSON.stringify((events.at(-1) as { result?: unknown }).result ?? null) };
}

describe('sampling and elicitation against server-everything 2026.8.31', () => {
  let everything: EverythingServer;
  const connections: McpConnection[] = [];
  const connect = (options: Partial<McpConnectionOptions> = {}) => {
    const connection = createMcpConnection({ name: 'everything', url: everything.url, ...options });
    connections.push(connection);
    return connection;
  };
  beforeAll(async () => {
    everything = await startEverythingServer();
  });
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await everything.stop();
  });

  it('without handlers the client declares neither capability, so the server lists no sampling or elicitation tools', async () => {
    const names = (await connect().listTools()).map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('trigger-sampling-request');
    expect(names).not.toContain('trigger-elicitation-request');
    expect(names).not.toContain('trigger-url-elicitation');
  });

  it('with a sampling handler the server asks the host’s model, and the handler knows which invocation asked', async () => {
    const asked: { request: unknown; context: McpClientRequestContext }[] = [];
    const connection = connect({
      sampling: async (request, context) => {
        asked.push({ request, context });
        return { model: 'host-model', role: 'assistant', content: { type: 'text', text: 'Tide pools are rocky pools by the sea.' } };
      },
    });
    expect((await connection.listTools()).map((t) => t.name)).toContain('trigger-sampling-request');
    const { last, text, invocationId } = await run(connection, 'trigger-sampling-request', { prompt: 'tide pools' });
    expect(last.type).toBe('capability.done');
    expect(text).toContain('Tide pools are rocky pools by the sea.');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.request).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: expect.stringContaining('tide pools') } }] });
    expect(asked[0]!.context).toMatchObject({ server: 'everything', call: { tool: 'trigger-sampling-request', invocationId, threadKey: 'space/ada/t1' } });
  });

  describe('with an elicit handler', () => {
    const questions: McpElicitation[] = [];
    const contexts: McpClientRequestContext[] = [];
    let answer: (request: McpElicitation) => McpElicitationAnswer = () => ({ action: 'decline' });
    let connection: McpConnection;
    beforeAll(() => {
      connection = connect({
        elicit: async (request, context) => {
          questions.push(request);
          contexts.push(context);
          return answer(request);
        },
      });
    });

    it('declares elicitation (form and url): the server lists its elicitation tools', async () => {
      const names = (await connection.listTools()).map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['trigger-elicitation-request', 'trigger-url-elicitation']));
    });

    it('a form: the handler gets the message and schema; accepted content goes back to the server', async () => {
      answer = () => ({ action: 'accept', content: { name: 'Ada Lovelace', integer: 7, untitledMultipleSelectEnum: ['Piano'] } });
      const { last, text, invocationId } = await run(connection, 'trigger-elicitation-request', {});
      expect(last.type).toBe('capability.done');
      expect(text).toContain('- Name: Ada Lovelace');
      expect(text).toContain('- Favorite Integer: 7');
      expect(questions.at(-1)).toMatchObject({ mode: 'form', message: 'Please provide inputs for the following fields:', requestedSchema: { required: ['name'] } });
      expect(contexts.at(-1)!.call).toMatchObject({ tool: 'trigger-elicitation-request', invocationId });
    });

    it('accepted content that does not fit the schema is not sent: the server hears why, naming the field', async () => {
      answer = () => ({ action: 'accept', content: { name: 'Ada', integer: 500 } });
      const { text, last } = await run(connection, 'trigger-elicitation-request', {});
      expect(JSON.stringify(last)).toContain('\\"Integer\\" does not fit');
      expect(text).not.toContain('Favorite Integer: 500');
      answer = () => ({ action: 'accept', content: { integer: 5 } });
      expect(JSON.stringify((await run(connection, 'trigger-elicitation-request', {})).last)).toContain('\\"String\\" is required');
      answer = () => ({ action: 'accept', content: { name: 'Ada', shoeSize: 9 } });
      expect(JSON.stringify((await run(connection, 'trigger-elicitation-request', {})).last)).toContain('a field \\"shoeSize\\" the server did not ask for');
    });

    it('a decline goes back as a decline', async () => {
      answer = () => ({ action: 'decline' });
      expect((await run(connection, 'trigger-elicitation-request', {})).text).toContain('User declined to provide the requested information');
    });

    it('a URL: the handler gets the https link and its host name; an http link never reaches it', async () => {
      answer = () => ({ action: 'accept' });
      const asked = questions.length;
      const { text } = await run(connection, 'trigger-url-elicitation', { url: 'https://accounts.example.com/consent?x=1', message: 'Sign in to continue.' });
      expect(questions.at(-1)).toMatchObject({ mode: 'url', url: 'https://accounts.example.com/consent?x=1', host: 'accounts.example.com', message: 'Sign in to continue.' });
      expect(text).toContain('User completed the URL elicitation flow');
      const plain = await run(connection, 'trigger-url-elicitation', { url: 'http://accounts.example.com/consent', message: 'Sign in.' });
      expect(questions.length).toBe(asked + 1);
      expect(JSON.stringify(plain.last)).toContain('This workspace opens only https:// links without a user name or password in them');
      const disguised = await run(connection, 'trigger-url-elicitation', { url: 'https://accounts.example.com@evil.example/consent', message: 'Sign in.' });
      expect(JSON.stringify(disguised.last)).toContain('This workspace opens only https:// links without a user name or password in them');
      expect(questions.length).toBe(asked + 1);
    });

    it('a task that needs clarification (simulate-research-query, ambiguous) asks through the handler, tied to its task, and finishes with the answer', async () => {
      answer = () => ({ action: 'accept', content: { interpretation: 'snake' } });
      const { last, text, invocationId } = await run(connection, 'simulate-research-query', { topic: 'python', ambiguous: true });
      expect(last.type).toBe('capability.done');
      expect(text).toContain('# Research Report: python (snake)');
      expect(questions.at(-1)).toMatchObject({ mode: 'form', message: expect.stringContaining('could have multiple interpretations') });
      expect(contexts.at(-1)!.call).toMatchObject({ tool: 'simulate-research-query', invocationId, taskId: expect.any(String) });
    }, 20_000);
  });
});

describe('a server that asks without the capability (scripted)', () => {
  let server: ScriptedServer;
  let connection: McpConnection;
  beforeAll(() => {
    server = scriptedServer({
      tools: [
        { name: 'ask-model', description: 'Asks the client for a sampling.', inputSchema: { type: 'object' } },
        { name: 'ask-user', description: 'Asks the client for an elicitation.', inputSchema: { type: 'object' } },
        { name: 'never-answers', description: 'Hangs.', inputSchema: { type: 'object' } },
      ],
      handle: async (method, params) => {
        if (method !== 'tools/call') throw { code: -32601, message: 'Method not found' };
        if (params.name === 'never-answers') return new Promise(() => undefined);
        const answer =
          params.name === 'ask-model'
            ? await server.ask('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 })
            : await server.ask('elicitation/create', { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
        return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
      },
    });
    connection = createMcpConnection({ name: 'lab', transport: server.transport, protocol: 'legacy' });
  });
  afterAll(() => connection.close());

  it('sampling without a handler is refused in plain words', async () => {
    const { text } = await run(connection, 'ask-model', {});
    expect(JSON.parse(JSON.parse(text).content[0].text)).toEqual({ error: { code: -32601, message: samplingOffMessage('lab') } });
    expect(samplingOffMessage('lab')).toBe(
      'This workspace does not let MCP servers ask its model to write anything (sampling is turned off here), so the request from "lab" was not sent to a model.',
    );
  });

  it('elicitation without a handler is refused in plain words', async () => {
    const { text } = await run(connection, 'ask-user', {});
    expect(JSON.parse(JSON.parse(text).content[0].text)).toEqual({ error: { code: -32601, message: elicitationOffMessage('lab') } });
  });

  it('the call’s wait for an answer stops while the user answers: a slow answer is no timeout, a silent server still is', async () => {
    const patient = createMcpConnection({
      name: 'lab',
      transport: server.transport,
      protocol: 'legacy',
      timeoutMs: 100,
      elicit: async () => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    const { last, text } = await run(patient, 'ask-user', {});
    expect(last.type).toBe('capability.done');
    expect(JSON.parse(JSON.parse(text).content[0].text)).toEqual({ result: { action: 'accept', content: { name: 'Ada' } } });
    const silent = await run(patient, 'never-answers', {});
    expect(silent.last).toMatchObject({ type: 'capability.error', recoverable: true, error: { code: 'timeout', message: 'The MCP server "lab" did not answer in time to run never-answers.' } });
    await patient.close();
  });
});

describe('2026-07-28: a server asks through input_required (SDK v2 server over HTTP)', () => {
  let http: Server;
  let url: string;
  beforeAll(async () => {
    const handler = toNodeHandler(
      createMcpHandler(() => {
        const mcp = new McpServer({ name: 'deployer', version: '1.0.0' });
        const confirmation = z.object({ confirm: z.boolean() });
        mcp.registerTool('deploy', { description: 'Deploys after the user confirms.', inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
          const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmation);
          if (answer === undefined && !ctx.mcpReq.inputResponses?.confirm) {
            return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: confirmation }) } });
          }
          return { content: [{ type: 'text', text: answer?.confirm ? `Deployed to ${env}.` : `Not deployed: ${JSON.stringify(ctx.mcpReq.inputResponses?.confirm)}` }] };
        });
        return mcp;
      }),
    );
    http = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('the same elicit handler answers, tied to the call', async () => {
    const asked: { request: McpElicitation; context: McpClientRequestContext }[] = [];
    const connection = createMcpConnection({
      name: 'deployer',
      url,
      elicit: async (request, context) => {
        asked.push({ request, context });
        return { action: 'accept', content: { confirm: true } };
      },
    });
    const { last, text, invocationId } = await run(connection, 'deploy', { env: 'staging' });
    expect(connection.era).toBe('modern');
    expect(last.type).toBe('capability.done');
    expect(text).toContain('Deployed to staging.');
    expect(asked[0]).toMatchObject({ request: { mode: 'form', message: 'Deploy to staging?' }, context: { call: { tool: 'deploy', invocationId } } });
    await connection.close();
  });

  it('without a handler the client does not declare elicitation, and the server refuses the call saying so', async () => {
    const connection = createMcpConnection({ name: 'deployer', url });
    const { last } = await run(connection, 'deploy', { env: 'staging' });
    expect(last).toMatchObject({
      type: 'capability.error',
      error: { code: 'mcp_error', message: expect.stringMatching(/^The MCP server "deployer" refused to run deploy: .*client capabilities do not declare/) },
    });
    await connection.close();
  });
});
