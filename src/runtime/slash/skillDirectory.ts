import type { ActiveSkill } from '../model';
import { builtInNodes } from './builtinNodes';
import { BUILT_IN_SKILL_NODES } from './builtinSkillData';
import { createCatalog, type Catalog } from './catalog';
import type { CatalogNode } from './nodes';
import { SKILL_WORD, SkillFileError, skillNode } from './skillNode';

/** The discovery query: the user's, the space's and the platform's skills, in the catalog's order. */
export const SKILL_DISCOVERY_QUERY = 'namespace:{user}/Skill|{space}/Skill|Skill nodeType:Skill sort:order';

/** Where saved skills sort under `sort:order`: after the built-ins. */
const SAVED_ORDER = 100;

export interface SkillDirectoryOptions {
  /** The current user's id: `{user}` in queries, owner of private skills. @default 'me' */
  user?: string;
  /** The current space's id: `{space}` in queries. @default 'default' */
  space?: string;
  /** A catalog to share (two users of one space, a server). @default built-in skills and nodes plus `skills` */
  catalog?: Catalog;
  /** Extra nodes (a host's or a space's skills) added to the default catalog. Ignored with `catalog`. */
  skills?: readonly CatalogNode[];
}

export interface SaveSkillInput {
  /** The slash word, e.g. `import-and-enrich` (a leading slash is allowed). */
  id: string;
  description: string;
  instructions: string;
  /** `user`: private to the user (`{user}/Skill`); `space`: shared with the space (`{space}/Skill`). @default 'user' */
  scope?: 'user' | 'space';
}

/** One user's view of the slash skills: discovery, saving, and what the model is told. */
export interface SkillDirectory {
  readonly user: string;
  readonly space: string;
  readonly catalog: Catalog;
  /** Runs a node query for this user and space; throws `NodeQueryError` on a bad query. */
  query(q: string): CatalogNode[];
  /** Saves a skill node (validated like a skill file); it is discoverable at once. Throws `SkillFileError`. */
  save(input: SaveSkillInput): CatalogNode;
  /** A load-skill directive's skill (`/summarize`) with its instructions, or why it cannot be loaded. */
  load(name: string): ActiveSkill | string;
  /** An activated skill's instructions by node path, for the active-skills slab; null when gone or hidden. */
  active(path: string): ActiveSkill | null;
  /** The autoMount instruction skills as a prompt section, '' when none (deterministic). */
  advertised(): string;
  /** The picked agent (`Agent/researcher`) as a prompt section, '' when none or unknown. */
  agentNote(agentName: string | undefined): string;
}

/**
 * @example
 * const skills = createSkillDirectory({ user: 'alice', space: 'acme' });
 * skills.query(SKILL_DISCOVERY_QUERY); // → /agent, /model, …, alice's own skills
 */
export function createSkillDirectory(options: SkillDirectoryOptions = {}): SkillDirectory {
  const user = scopeId('user', options.user ?? 'me');
  const space = scopeId('space', options.space ?? 'default');
  const catalog = options.catalog ?? createCatalog([...BUILT_IN_SKILL_NODES, ...builtInNodes(), ...(options.skills ?? [])]);
  const context = { user, space };
  const visible = (node: CatalogNode | undefined) => (node && (node.owner === undefined || node.owner === user) ? node : undefined);
  const discover = () => catalog.query(SKILL_DISCOVERY_QUERY, context);

  return {
    user,
    space,
    catalog,
    query: (q) => catalog.query(q, context),
    save(input) {
      const word = typeof input.id === 'string' ? input.id.trim().replace(/^\//, '') : '';
      if (!SKILL_WORD.test(word)) {
        throw new SkillFileError(`"${String(input.id)}" cannot be a slash word: use 1–64 lowercase letters, digits or hyphens, starting with a letter or digit (e.g. "import-and-enrich").`);
      }
      const scope = input.scope ?? 'user';
      if (scope !== 'user' && scope !== 'space') throw new SkillFileError(`/${word}: scope must be "user" (private) or "space" (shared), not "${String(scope)}".`);
      if (typeof input.instructions !== 'string' || !input.instructions.trim()) {
        throw new SkillFileError(`/${word}: instructions are empty; say what the skill should do.`);
      }
      const taken = discover().find((s) => s.id === word);
      if (taken?.skill?.action) throw new SkillFileError(`/${word} is already a skill that ${actionWords(taken)}; choose another name.`);
      const namespace = scope === 'user' ? `${user}/Skill` : `${space}/Skill`;
      const node = skillNode(`${namespace}/${word}`, { name: `/${word}`, description: input.description, order: SAVED_ORDER }, input.instructions, namespace, scope === 'user' ? user : undefined);
      catalog.put(node);
      return node;
    },
    load(name) {
      const skill = discover().find((s) => `/${s.id}` === name);
      if (!skill) return `There is no ${name} skill here, so no instructions were loaded; the task went ahead without them.`;
      const body = skill.skill?.instructions;
      if (!body) return `${name} has no instructions to load (it ${actionWords(skill)}); the task went ahead without it.`;
      return { name: skill.path, title: skill.name, body };
    },
    active(path) {
      const node = visible(catalog.get(path));
      const body = node?.nodeType === 'Skill' ? node.skill?.instructions : undefined;
      return node && body ? { name: node.path, title: node.name, body } : null;
    },
    advertised() {
      const skills = discover().filter((s) => s.skill?.autoMount && s.skill.instructions);
      if (skills.length === 0) return '';
      const lines = skills.map((s) => `<skill name="${escape(s.name)}">${escape(s.description)}</skill>`);
      return [
        '<available_skills>',
        `Skills the user can load by typing a slash name and a task (e.g. "${skills[0]!.name} …"); the skill's instructions then join your context. When one fits a request, suggest it by its slash name.`,
        ...lines,
        '</available_skills>',
      ].join('\n');
    },
    agentNote(agentName) {
      if (!agentName) return '';
      const node = visible(catalog.get(agentName)) ?? visible(catalog.get(`Agent/${agentName}`));
      if (node?.nodeType !== 'Agent') return '';
      return `<agent name="${escape(node.name)}">Answer as the ${escape(node.name)} agent: ${escape(node.description)}</agent>`;
    },
  };
}

/** A user or space id goes into node paths: one segment, no braces or spaces. */
function scopeId(kind: 'user' | 'space', value: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_.@-]{1,128}$/.test(value)) {
    throw new Error(`The ${kind} id "${String(value)}" cannot name a namespace: use 1–128 letters, digits, ".", "_", "-" or "@".`);
  }
  return value;
}

function actionWords(skill: CatalogNode): string {
  const action = skill.skill?.action;
  if (!action) return 'holds instructions';
  switch (action.kind) {
    case 'Pick':
      return `opens the picker "${action.title}"`;
    case 'OpenContent':
      return 'opens content';
    case 'Navigate':
      return 'navigates';
    case 'Connect':
      return `connects ${action.provider}`;
    case 'Disconnect':
      return `disconnects ${action.provider}`;
    case 'NewThread':
      return 'starts a new thread';
    default:
      return action satisfies never;
  }
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
