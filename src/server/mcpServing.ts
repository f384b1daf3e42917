import { ProtocolError, ProtocolErrorCode, type CompleteResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Principal } from '../runtime/principal';
import { parseLevel, type LogLevels } from './mcpLogging';
import { completePromptArgument, getPrompt, listPrompts, type SkillsOf } from './mcpPrompts';
import { completeJobId, JOB_RESOURCE_TEMPLATE, jobResourceTemplates, listJobResources, readJobResource, type JobResourcesDeps } from './mcpResources';

/** What the MCP door serves beside its tools: prompts (the principal's skills), resources (its jobs), completion, logging. */
export interface McpServingDeps extends JobResourcesDeps {
  /** The principal's slash skills; without it no prompts are served. */
  skillsOf?: SkillsOf;
  /** The 2025-era `logging/setLevel` levels, by caller. */
  levels: LogLevels;
  principalOf(ctx: ServerContext): Principal;
}

/** The capabilities the door declares for them (both eras). */
export function servingCapabilities(deps: Pick<McpServingDeps, 'skillsOf'>): Record<string, object> {
  return { resources: {}, completions: {}, logging: {}, ...(deps.skillsOf ? { prompts: {} } : {}) };
}

/** Completions answered at most (MCP's limit). */
const MAX_COMPLETIONS = 100;

const SetLevelParams = z.looseObject({ level: z.unknown() });

/**
 * Registers `prompts/list`, `prompts/get`, `resources/list`, `resources/templates/list`,
 * `resources/read`, `completion/complete` and (2025 eras) `logging/setLevel` on a server built
 * for one era. Every answer is for the request's own principal: its skills, its jobs.
 */
export function registerServing(server: Server, era: 'legacy' | 'modern', deps: McpServingDeps): void {
  const { skillsOf, principalOf } = deps;
  if (skillsOf) {
    server.setRequestHandler('prompts/list', async (_request, ctx) => listPrompts(await skillsOf(principalOf(ctx))));
    server.setRequestHandler('prompts/get', async (request, ctx) => getPrompt(await skillsOf(principalOf(ctx)), request.params.name, request.params.arguments));
  }
  server.setRequestHandler('resources/list', (_request, ctx) => listJobResources(deps, principalOf(ctx)));
  server.setRequestHandler('resources/templates/list', () => jobResourceTemplates());
  server.setRequestHandler('resources/read', (request, ctx) => readJobResource(deps, principalOf(ctx), request.params.uri));
  server.setRequestHandler('completion/complete', async (request, ctx): Promise<CompleteResult> => {
    const { ref, argument } = request.params;
    const principal = principalOf(ctx);
    let values: string[];
    if (ref.type === 'ref/prompt') {
      if (!skillsOf) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No prompt "${ref.name}" here.`);
      values = completePromptArgument(await skillsOf(principal), ref.name, argument.name, argument.value);
    } else if (ref.uri === JOB_RESOURCE_TEMPLATE && argument.name === 'id') {
      values = await completeJobId(deps, principal, argument.value);
    } else {
      values = [];
    }
    // MCP caps `values` at 100; `total` and `hasMore` say how many more there were.
    return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
  });
  if (era === 'legacy') {
    // Served statelessly, so the level is kept for the caller's next requests (see `LogLevels`); -32602 for a level MCP has not.
    server.setRequestHandler('logging/setLevel', { params: SetLevelParams }, (params, ctx) => {
      deps.levels.set(principalOf(ctx), parseLevel(params.level));
      return {};
    });
  }
}
