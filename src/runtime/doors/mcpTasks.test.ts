import { describe, expect, it } from 'vitest';
import type { Job } from '../jobs';
import { clientSupportsTasks, followJobText, taskOfJob } from './mcpTasks';
import { InvalidCursor, pageOfTools, type McpToolDefinition } from './mcpTools';

const job = (over: Partial<Job>): Job => ({ id: 'inv_1', capability: 'site.crawl', threadKey: 'mcp:agent', status: 'running', createdAt: Date.UTC(2026, 6, 28), updatedAt: Date.UTC(2026, 6, 28, 0, 0, 5), ...over });

describe('a job as an MCP task', () => {
  it('running is working, with the progress message and the poll interval', () => {
    expect(taskOfJob(job({ progress: { progress: 2, total: 5, message: 'Crawling' } }), 1000)).toEqual({
      taskId: 'inv_1',
      status: 'working',
      statusMessage: 'Crawling (2/5)',
      createdAt: '2026-07-28T00:00:00.000Z',
      lastUpdatedAt: '2026-07-28T00:00:05.000Z',
      ttlMs: null,
      pollIntervalMs: 1000,
    });
    expect(taskOfJob(job({ status: 'queued' }), 1000).statusMessage).toBe('Queued.');
  });

  it('done is completed with the result; a failed job is completed with an isError result saying why; cancelled is cancelled', () => {
    expect(taskOfJob(job({ status: 'done', result: { content: [{ type: 'text', text: 'Crawled 3 pages.' }] } }), 1000)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Crawled 3 pages.' }], resultType: 'complete' },
    });
    const failed = taskOfJob(job({ status: 'failed', error: { code: 'handler_error', message: 'The site refused the crawler.' } }), 1000);
    expect(failed).toMatchObject({ status: 'completed', statusMessage: 'The site refused the crawler.', result: { isError: true, content: [{ type: 'text', text: 'The site refused the crawler.' }] } });
    expect(taskOfJob(job({ status: 'cancelled', error: { code: 'cancelled', message: 'Cancelled by the MCP client (tasks/cancel).' } }), 1000)).toMatchObject({
      status: 'cancelled',
      statusMessage: 'Cancelled by the MCP client (tasks/cancel).',
    });
    expect(taskOfJob(job({ status: 'cancelled' }), 1000)).not.toHaveProperty('result');
  });

  it('knows a client that declares the extension, and tells one that does not how to follow the job', () => {
    expect(clientSupportsTasks({ extensions: { 'io.modelcontextprotocol/tasks': {} } })).toBe(true);
    expect(clientSupportsTasks({ extensions: {} })).toBe(false);
    expect(clientSupportsTasks(undefined)).toBe(false);
    expect(followJobText('inv_1')).toBe(
      "Still running: job inv_1. It has not failed; it did not finish within this call's wait and runs on, so do not call the tool again. " +
        'Follow it with GET /v1/jobs/inv_1 (same key) or read the resource chatsurface://jobs/inv_1; the result appears there when the job is done.',
    );
  });
});

describe('tools/list pages', () => {
  const tools = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, title: name, description: name, inputSchema: { type: 'object' }, annotations: {} }) as McpToolDefinition);

  it('hands out pages with an opaque cursor until the last', () => {
    const first = pageOfTools(tools, undefined, 2);
    expect(first.tools.map((t) => t.name)).toEqual(['a', 'b']);
    const second = pageOfTools(tools, first.nextCursor, 2);
    expect(second.tools.map((t) => t.name)).toEqual(['c', 'd']);
    const last = pageOfTools(tools, second.nextCursor, 2);
    expect(last.tools.map((t) => t.name)).toEqual(['e']);
    expect(last.nextCursor).toBeUndefined();
    expect(pageOfTools(tools, undefined, 100)).toEqual({ tools });
  });

  it('refuses a cursor it did not give out', () => {
    expect(() => pageOfTools(tools, 'bogus', 2)).toThrow(InvalidCursor);
    expect(() => pageOfTools(tools, btoa('offset:99'), 2)).toThrow(/is not one this server gave out/);
  });
});
