import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventLog } from '../eventLog';
import type { EventOf, ThreadEvent } from '../events';
import { foldAll, initialThreadState } from '../fold';
import { invoke } from '../invoke';
import { createRegistry } from '../registry';
import { startEverythingServer, type EverythingServer } from '../../test/everythingServer';
import { newTask, scriptedServer, type ScriptedTask } from '../../test/mcpScriptedServer';
import { defineMcpCapability } from './mcp';
import { createMcpConnection, type McpConnection } from './mcpConnection';

async function run(registry: ReturnType<typeof createRegistry>, name: string, args: unknown, signal?: AbortSignal) {
  const log = createEventLog();
  const result = await invoke(name, args, { registry, emit: log.emit, threadKey: 't1', ...(signal ? { signal } : {}) });
  return { result, events: log.since() as ThreadEvent[] };
}

const only = <T extends ThreadEvent['type']>(events: readonly ThreadEvent[], type: T) => events.filter((e) => e.type === type) as EventOf<T>[];

const TASKS = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

/**
 * A 2025-11-25 server with one task-only tool, `build`: each `tasks/get` moves the task along the
 * script (`steps`: status messages, then `done` / `fail` / `hold`), at `pollInterval` ms.
 */
function buildServer(script: { steps: string[]; end: 'done' | 'fail' | 'hold'; pollInterval?: number; taskSupport?: 'required' | 'optional' }) {
  const tasks = new Map<string, ScriptedTask>();
  const polls: number[] = [];
  let made = 0;
  let step = 0;
  const server = scriptedServer({
    capabilities: TASKS,
    tools: [
      {
        name: 'build',
        description: 'Builds the site (runs as a task).',
        inputSchema: { type: 'object', properties: { target: { type: 'string' } } },
        execution: { taskSupport: script.taskSupport ?? 'required' },
      },
    ],
    handle: (method, params) => {
      if (method === 'tools/call') {
        if (!params.task) throw { code: -32601, message: 'Tool build requires task augmentation' };
        const task = newTask(`task-${++made}`, script.pollInterval ?? 20);
        tasks.set(task.taskId, task);
        step = 0;
        return { task };
      }
      const task = tasks.get(params.taskId as string);
      if (!task) throw { code: -32602, message: `No task ${String(params.taskId)}` };
      if (method === 'tasks/get') {
        polls.push(Date.now());
        if (task.status === 'working') {
          if (step < script.steps.length) task.statusMessage = script.steps[step++];
          else if (script.end === 'done') task.status = 'completed';
          else if (script.end === 'fail') Object.assign(task, { status: 'failed', statusMessage: 'The build ran out of disk space.' });
        }
        task.lastUpdatedAt = new Date().toISOString();
        return task;
      }
      if (method === 'tasks/result') {
        if (task.status !== 'completed') throw { code: -32603, message: 'not done' };
        return { content: [{ type: 'text', text: 'Built 12 pages.' }], structuredContent: { pages: 12 } };
      }
      if (method === 'tasks/cancel') {
        task.status = 'cancelled';
        return task;
      }
      throw { code: -32601, message: `Method not found: ${method}` };
    },
  });
  return { server, tasks, polls, connection: createMcpConnection({ name: 'site', transport: server.transport, protocol: 'legacy', timeoutMs: 2_000 }) };
}

describe('MCP task-augmented tools (2025-11-25 tasks), a scripted server', () => {
  it('a task-only tool is created, polled at its pollInterval, and its status messages become progress; the result comes from tasks/result', async () => {
    const { server, polls, connection } = buildServer({ steps: ['Fetching pages', 'Rendering', 'Uploading'], end: 'done', pollInterval: 60 });
    const registry = createRegistry([await defineMcpCapability(connection, { tool: 'build' })]);
    const { events } = await run(registry, 'site.build', { target: 'prod' });
    expect(events.at(-1)).toMatchObject({ type: 'capability.done', result: { content: [{ type: 'text', text: 'Built 12 pages.' }], structuredContent: { pages: 12 } } });
    expect(only(events, 'capability.progress').map((e) => e.message)).toEqual(['Fetching pages', 'Rendering', 'Uploading']);
    const methods = server.received.map((r) => r.method).filter((m) => m !== 'initialize' && m !== 'tools/list');
    expect(methods[0]).toBe('tools/call');
    expect(server.received.find((r) => r.method === 'tools/call')!.params).toMatchObject({ name: 'build', arguments: { target: 'prod' }, task: {} });
    expect(methods.filter((m) => m === 'tasks/get').length).toBeGreaterThanOrEqual(4);
    expect(methods.at(-1)).toBe('tasks/result');
    const gaps = polls.slice(1).map((at, i) => at - polls[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(45);
    await connection.close();
  });

  it('Stop sends tasks/cancel: the card is cancelled and so is the task on the server', async () => {
    const { server, tasks, connection } = buildServer({ steps: ['Fetching pages'], end: 'hold' });
    const registry = createRegistry([await defineMcpCapability(connection, { tool: 'build' })]);
    const controller = new AbortController();
    const running = run(registry, 'site.build', {}, controller.signal);
    await expect.poll(() => server.received.filter((r) => r.method === 'tasks/get').length).toBeGreaterThan(2);
    controller.abort(new Error('Cancelled by the user.'));
    const { events } = await running;
    expect(foldAll(initialThreadState, events).rows[0]).toMatchObject({ state: 'cancelled' });
    await expect.poll(() => server.received.filter((r) => r.method === 'tasks/cancel').map((r) => r.params.taskId)).toEqual(['task-1']);
    expect(tasks.get('task-1')!.status).toBe('cancelled');
    await connection.close();
  });

  it('a failed task is an error card that says why, in words', async () => {
    const { connection } = buildServer({ steps: ['Fetching pages'], end: 'fail' });
    const registry = createRegistry([await defineMcpCapability(connection, { tool: 'build' })]);
    const { events } = await run(registry, 'site.build', {});
    expect(events.at(-1)).toMatchObject({
      type: 'capability.error',
      recoverable: false,
      error: { code: 'task_failed', message: 'The MCP server "site" could not finish build: The build ran out of disk space.' },
    });
    await connection.close();
  });

  it('a server gone mid-task is a recoverable error', async () => {
    const { server, connection } = buildServer({ steps: ['Fetching pages'], end: 'hold' });
    const registry = createRegistry([await defineMcpCapability(connection, { tool: 'build' })]);
    const running = run(registry, 'site.build', {});
    await expect.poll(() => server.received.filter((r) => r.method === 'tasks/get').length).toBeGreaterThan(1);
    server.goAway();
    const { events } = await running;
    const last = events.at(-1) as EventOf<'capability.error'>;
    expect(last).toMatchObject({ type: 'capability.error', recoverable: true, error: { code: 'unavailable' } });
    expect(last.error.message).toBe('The MCP server "site" went away while build ran as a task, so its result is not known. Try again when it is back.');
    await connection.close();
  });

  it('an optional tool runs as a task by default, and as a plain call with asTask: false', async () => {
    const { server, connection } = buildServer({ steps: [], end: 'done', taskSupport: 'optional' });
    const asTask = createRegistry([await defineMcpCapability(connection, { tool: 'build' })]);
    expect((await run(asTask, 'site.build', {})).events.at(-1)).toMatchObject({ type: 'capability.done' });
    expect(server.received.some((r) => r.method === 'tasks/result')).toBe(true);
    const plain = createRegistry([await defineMcpCapability(connection, { tool: 'build', asTask: false })]);
    const { events } = await run(plain, 'site.build', {});
    expect(events.at(-1)).toMatchObject({ type: 'capability.error', error: { code: 'mcp_error', message: expect.stringContaining('requires task augmentation') } });
    await connection.close();
  });
});

describe('MCP task-augmented tools: server-everything 2026.8.31', () => {
  let everything: EverythingServer;
  let connection: McpConnection;
  beforeAll(async () => {
    everything = await startEverythingServer();
    connection = createMcpConnection({ name: 'everything', url: everything.url });
  });
  afterAll(async () => {
    await connection.close();
    await everything.stop();
  });

  it('simulate-research-query (taskSupport: required) runs from the chat as a task: its stages are progress, the report is the result', async () => {
    const tools = await connection.listTools();
    expect(tools.find((t) => t.name === 'simulate-research-query')).toMatchObject({ execution: { taskSupport: 'required' } });
    const registry = createRegistry([await defineMcpCapability(connection, { tool: 'simulate-research-query' })]);
    const { events } = await run(registry, 'everything.simulate-research-query', { topic: 'tide pools' });
    const done = events.at(-1) as EventOf<'capability.done'>;
    expect(done.type).toBe('capability.done');
    expect(JSON.stringify(done.result)).toContain('# Research Report: tide pools');
    // The protocol's stamps (the related task) are not part of the result.
    expect(done.result).not.toHaveProperty('_meta');
    expect(only(events, 'capability.progress').map((e) => e.message)).toEqual(
      expect.arrayContaining(['Gathering sources...', 'Analyzing content...', 'Synthesizing findings...', 'Generating report...']),
    );
  }, 20_000);
});
