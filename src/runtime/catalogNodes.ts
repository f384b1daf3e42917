import * as z from 'zod/mini';

/** What a slash skill does in the chat. */
export const SkillActionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('Pick'),
    /** The picker's node query, e.g. `namespace:Agent nodeType:Agent sort:order`. */
    query: z.string().check(z.minLength(1)),
    /** The composer field the picked node's path is written to. */
    field: z.enum(['harness', 'agentName', 'modelName']),
    /** The picker's title. */
    title: z.string().check(z.minLength(1)),
  }),
  z.object({ kind: z.literal('OpenContent'), contentPath: z.string().check(z.minLength(1)) }),
  z.object({ kind: z.literal('Navigate'), contentPath: z.optional(z.string().check(z.minLength(1))) }),
  z.object({ kind: z.literal('Connect'), provider: z.string().check(z.minLength(1)) }),
  z.object({ kind: z.literal('Disconnect'), provider: z.string().check(z.minLength(1)) }),
  z.object({ kind: z.literal('NewThread') }),
  /** Opens the form of the user's own MCP servers, their connectors (connect, list, disconnect). */
  z.object({ kind: z.literal('Connectors') }),
]);
export type SkillAction = z.infer<typeof SkillActionSchema>;

/** A skill node's content: an instruction, an action, or both. */
export const SkillDefinitionSchema = z.object({
  /** How-to loaded on demand (the SKILL.md body). */
  instructions: z.optional(z.string()),
  action: z.optional(SkillActionSchema),
  /** Advertise name and description to the model up front. @default true */
  autoMount: z._default(z.boolean(), true),
  /** Run in a nested sub-thread. @default false */
  launchesSubThread: z._default(z.boolean(), false),
});
export type SkillDefinition = z.infer<typeof SkillDefinitionSchema>;

export type NodeType = 'Skill' | 'Agent' | 'Model' | 'Harness';

/**
 * An entry of the workspace's node catalog: a skill, an agent, a model or a
 * harness. Its path is `{namespace}/{id}`; the id is the slash word for skills.
 */
export interface CatalogNode {
  /** `Skill/agent`, `acme/Skill/triage`, `alice/Skill/weekly`, `Agent/researcher`. */
  path: string;
  namespace: string;
  /** Last path segment; a skill's slash word. */
  id: string;
  nodeType: NodeType;
  name: string;
  description: string;
  /** Lower sorts first under `sort:order`. @default 0 */
  order?: number;
  /** Extra words the combobox filters on. */
  keywords?: string[];
  /** Set on a user's private node: only that user sees it. */
  owner?: string;
  /** For skills. */
  skill?: SkillDefinition;
  /** For command-line harnesses: the slash commands the harness handles itself (e.g. `login`). */
  commands?: string[];
}

/** Builds a node from its path, deriving namespace and id. */
export function catalogNode(path: string, fields: Omit<CatalogNode, 'path' | 'namespace' | 'id'>): CatalogNode {
  const cut = path.lastIndexOf('/');
  if (cut <= 0 || cut === path.length - 1) throw new Error(`Node path "${path}" must look like "namespace/id".`);
  return { path, namespace: path.slice(0, cut), id: path.slice(cut + 1), ...fields };
}
