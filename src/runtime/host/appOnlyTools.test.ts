import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability, type CapabilityDescriptor } from '../capability';
import { textResult } from '../results';
import type { ModelDriver } from '../model';
import { createThreadHost } from './threadHost';

/** An MCP tool with a view, callable by `visibility` (MCP Apps). */
const mcpTool = (name: string, visibility: ('model' | 'app')[]): CapabilityDescriptor => ({
  ...defineCapability({ name, title: name, description: `${name}.`, kind: 'read', input: z.object({}), handler: async () => textResult(`${name} ran`) }),
  source: {
    type: 'mcp',
    server: 'clock',
    tool: name,
    handler: async () => textResult(`${name} ran`),
    app: { resourceUri: `ui://clock/${name}.html`, visibility, read: async () => { throw new Error('not read in this test'); } },
  } as CapabilityDescriptor['source'],
});

/** An app-only tool that names no view of its own (the system monitor's `poll-system-stats`): `visibility` on the source. */
const appOnlyWithoutView = (name: string): CapabilityDescriptor => {
  const tool = mcpTool(name, ['app']);
  const { app: _view, ...source } = tool.source as Extract<CapabilityDescriptor['source'], { type: 'mcp' }>;
  return { ...tool, source: { ...source, visibility: ['app'] } };
};

describe('createThreadHost: MCP Apps tool visibility', () => {
  it('offers the model every tool but those only an app view may call', async () => {
    const offered: string[][] = [];
    const driver: ModelDriver = {
      info: { id: 'scripted', label: 'Scripted' },
      async *respond(request) {
        offered.push(request.capabilities.map((c) => c.name));
        yield { type: 'text', text: 'Done.' };
      },
    };
    const host = createThreadHost({
      capabilities: [mcpTool('clock.get-time', ['model', 'app']), mcpTool('clock.refresh', ['app']), mcpTool('clock.model-only', ['model']), appOnlyWithoutView('clock.poll')],
      driver,
    });
    await host.send({ user: 'alice' }, { threadId: 't', text: 'what time is it?' });
    expect(offered).toEqual([['clock.get-time', 'clock.model-only']]);
    // The app's own call (a chip-like invoke) still reaches it: only the model's list leaves it out.
    const result = await host.invoke({ user: 'alice' }, { threadId: 't', capability: 'clock.refresh', args: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'clock.refresh ran' }]);
  });
});
