import type { ActiveSkill } from '../model';
import { SCOPES, type Principal } from '../principal';
import type { SkillStore } from '../stores/skillStore';
import { builtInNodes } from './builtinNodes';
import { BUILT_IN_SKILL_NODES } from './builtinSkillData';
import { createCatalog, type Catalog } from './catalog';
import type { CatalogNode } from '../catalogNodes';
import { SKILL_WORD, SkillFileError, skillNode } from './skillNode';

/** The discovery query: the user's, the space's and the platform's skills, in the catalog's order. */
export const SKILL_DISCOVERY_QUERY = 'namespace:{user}/Skill|{space}/Skill|Skill nodeType:Skill sort:order';

/** Where saved skills sort under `sort:order`: after the built-ins. */
const SAVED_ORDER = 100;

/** A save refused by a cap (one user's, a space's, an address's): a `SkillFileError` a server answers with 429. */
export class SkillLimitError extends SkillFileError {
  override name = 'SkillLimitError';
  constructor(
    message: string,
    /** Seconds until a save may fit (sent as `Retry-After`), when the cap counts a recent period. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** How big a saved skill may be, and how many one user may keep. */
export const SKILL_LIMITS = {
  /** Characters of a description. */
  description: 1_024,
  /** Characters of the instructions. */
  instructions: 20_000,
  /** Private skills (`{user}/Skill`) per user. */
  perUser: 200,
} as const;

/**
 * The nodes that were saved at run time (or loaded from a store), as opposed
 * to the built-in and host nodes a catalog holds: only these may be replaced
 * by a save. Kept by node identity, so directories sharing a catalog agree.
 */
const savedNodes = new WeakSet<CatalogNode>();

/** Store writes in order per store, whichever directory started them. */
const storeWrites = new WeakMap<SkillStore, Promise<unknown>>();

export interface SkillDirectoryOptions {
  /** The current user's id: `{user}` in queries, owner of private skills. @default 'me' */
  user?: string;
  /** The current space's id: `{space}` in queries. @default 'default' */
  space?: string;
  /** A catalog to share (two users of one space, a server). @default built-in skills and nodes plus `skills` */
  catalog?: Catalog;
  /** Extra nodes (a host's or a space's skills) added to the default catalog. Ignored with `catalog`. */
  skills?: readonly CatalogNode[];
  /**
   * The principal's scopes: saving to `{space}/Skill` needs `skills:space`
   * (`SCOPES.spaceSkills`). A server passes `principal.scopes ?? []`.
   * @default undefined: no check, the user may write the space's skills (a single-user, in-page workspace)
   */
  scopes?: readonly string[];
  /**
   * Where saved skills are kept beyond this process; every save writes
   * through to it. Load what it holds into the shared catalog once, with
   * `loadStoredSkills(catalog, store)`, before serving. @default none: saved skills live as long as the catalog
   */
  store?: SkillStore;
  /**
   * Asked before a new saved skill (not a replacement) is written to the
   * store: throw a `SkillLimitError` to refuse it in words, and the save is
   * undone (the server's caps per space and per client address). `by` is
   * the principal of the request saving it, when the caller passed one to
   * `save` or `persist` (a server counts its client address). @default none
   */
  admitSkill?: (node: CatalogNode, by?: Principal) => void | Promise<void>;
  /** Hears a store write that failed after a synchronous `save` (the save was undone). @default console.error */
  onStoreError?: (error: unknown) => void;
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
  /**
   * Saves a skill node (validated like a skill file); it is discoverable at
   * once, and written through to the store. Throws `SkillFileError` for a bad
   * skill, a namespace the user may not write, a path another user's skill or
   * a workspace skill holds, or a limit (`SKILL_LIMITS`). If the store write
   * fails later, the save is undone; `persist` lets the caller wait for it.
   * `by`, the principal of the request saving it, goes to `admitSkill`.
   */
  save(input: SaveSkillInput, by?: Principal): CatalogNode;
  /** `save`, resolved once the store has the skill; rejects (the save undone) when the store write fails. Same as `save` without a store. */
  persist(input: SaveSkillInput, by?: Principal): Promise<CatalogNode>;
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
  const { store, scopes, admitSkill } = options;
  const canWriteSpace = scopes === undefined || scopes.includes(SCOPES.spaceSkills);
  const onStoreError = options.onStoreError ?? ((error: unknown) => console.error('[chatsurface] skill store write failed:', error));
  const context = { user, space };
  const visible = (node: CatalogNode | undefined) => (node && (node.owner === undefined || node.owner === user) ? node : undefined);
  const discover = () => catalog.query(SKILL_DISCOVERY_QUERY, context);

  /** Validates and puts the node in the catalog; returns it with the node it replaced. */
  const place = (input: SaveSkillInput): { node: CatalogNode; previous: CatalogNode | undefined } => {
    const word = typeof input.id === 'string' ? input.id.trim().replace(/^\//, '') : '';
    if (!SKILL_WORD.test(word)) {
      throw new SkillFileError(`"${String(input.id)}" cannot be a slash word: use 1–64 lowercase letters, digits or hyphens, starting with a letter or digit (e.g. "import-and-enrich").`);
    }
    const scope = input.scope ?? 'user';
    if (scope !== 'user' && scope !== 'space') throw new SkillFileError(`/${word}: scope must be "user" (private) or "space" (shared), not "${String(scope)}".`);
    if (scope === 'space' && !canWriteSpace) {
      throw new SkillFileError(`/${word}: saving a skill for the whole space ("${space}/Skill") needs the "${SCOPES.spaceSkills}" scope, which "${user}" does not have; save it as your own skill instead.`);
    }
    if (typeof input.description === 'string' && input.description.trim().length > SKILL_LIMITS.description) {
      throw new SkillFileError(`/${word}: the description has ${input.description.trim().length} characters; keep it to ${SKILL_LIMITS.description.toLocaleString('en-US')} or fewer.`);
    }
    if (typeof input.instructions !== 'string' || !input.instructions.trim()) {
      throw new SkillFileError(`/${word}: instructions are empty; say what the skill should do.`);
    }
    if (input.instructions.trim().length > SKILL_LIMITS.instructions) {
      throw new SkillFileError(`/${word}: the instructions have ${input.instructions.trim().length} characters; keep them to ${SKILL_LIMITS.instructions.toLocaleString('en-US')} or fewer.`);
    }
    const taken = discover().find((s) => s.id === word);
    if (taken?.skill?.action) throw new SkillFileError(`/${word} is already a skill that ${actionWords(taken)}; choose another name.`);
    const namespace = scope === 'user' ? `${user}/Skill` : `${space}/Skill`;
    const owner = scope === 'user' ? user : undefined;
    const path = `${namespace}/${word}`;
    const previous = catalog.get(path);
    if (previous && !savedNodes.has(previous)) {
      throw new SkillFileError(`/${word}: "${path}" is one of this workspace's own skills, not a saved one, and cannot be replaced; choose another name.`);
    }
    if (previous && previous.owner !== owner) {
      throw new SkillFileError(`/${word}: "${path}" already holds ${previous.owner === undefined ? "a skill of the space" : "another user's skill"}, which cannot be replaced from here; choose another name.`);
    }
    if (owner !== undefined && !previous) {
      const mine = catalog.run({ namespaces: [namespace], nodeTypes: ['Skill'], sort: null, words: [], limit: null }, context).filter((n) => n.owner === user && savedNodes.has(n));
      if (mine.length >= SKILL_LIMITS.perUser) {
        throw new SkillLimitError(`/${word}: "${user}" already has ${mine.length} saved skills, the most one user may keep (${SKILL_LIMITS.perUser}); save over one of them instead.`);
      }
    }
    const node = skillNode(path, { name: `/${word}`, description: input.description, order: SAVED_ORDER }, input.instructions, namespace, owner);
    savedNodes.add(node);
    catalog.put(node);
    return { node, previous };
  };

  /** Writes the node to the store after the writes before it; undoes the save when the write fails. */
  const writeThrough = (node: CatalogNode, previous: CatalogNode | undefined, by: Principal | undefined): Promise<void> => {
    if (!store) return Promise.resolve();
    const written = (storeWrites.get(store) ?? Promise.resolve()).then(async () => {
      if (!previous && admitSkill) await admitSkill(node, by);
      return store.put(node);
    });
    const settled = written.then(
      () => undefined,
      () => undefined,
    );
    storeWrites.set(store, settled);
    void settled.then(() => {
      if (storeWrites.get(store) === settled) storeWrites.delete(store);
    });
    return written.then(
      () => undefined,
      (error: unknown) => {
        if (catalog.get(node.path) === node) {
          if (previous) catalog.put(previous);
          else catalog.remove(node.path);
        }
        if (error instanceof SkillFileError) throw error;
        throw new SkillFileError(`${node.name} could not be stored, so it was not saved: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  };

  return {
    user,
    space,
    catalog,
    query: (q) => catalog.query(q, context),
    save(input, by) {
      const { node, previous } = place(input);
      writeThrough(node, previous, by).catch(onStoreError);
      return node;
    },
    async persist(input, by) {
      const { node, previous } = place(input);
      await writeThrough(node, previous, by);
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

/**
 * Puts the skills a store holds into a catalog (once, before serving; every
 * directory over the catalog then sees them). Each node is checked again as a
 * saved skill; one that is not (a hand-edited row, a path a workspace skill
 * holds) is left out and named in `problems`.
 * @example
 * const catalog = createCatalog([...BUILT_IN_SKILL_NODES, ...builtInNodes()]);
 * await loadStoredSkills(catalog, createSqliteSkillStore(db));
 */
export async function loadStoredSkills(catalog: Catalog, store: SkillStore): Promise<{ loaded: number; problems: string[] }> {
  const problems: string[] = [];
  let loaded = 0;
  for (const stored of await store.list()) {
    const problem = placeStoredSkill(catalog, stored);
    if (problem) problems.push(problem);
    else loaded++;
  }
  return { loaded, problems };
}

/**
 * Puts one stored skill into a catalog, checked again as a saved skill: null
 * when placed, else why it was left out (a hand-edited row, a path a
 * workspace skill holds).
 */
export function placeStoredSkill(catalog: Catalog, stored: CatalogNode): string | null {
  try {
    const node = revive(stored);
    const present = catalog.get(node.path);
    if (present && !savedNodes.has(present)) throw new SkillFileError(`${node.path}: a workspace skill holds this path; the saved one was not loaded.`);
    savedNodes.add(node);
    catalog.put(node);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Takes a namespace's saved skills (`alice/Skill`) out of a catalog, leaving the workspace's own; how many went. */
export function dropSavedSkills(catalog: Catalog, namespace: string): number {
  let dropped = 0;
  // A private skill's owner is its namespace's first segment (`alice` of `alice/Skill`): query as that owner.
  const owner = namespace.split('/')[0]!;
  for (const node of catalog.run({ namespaces: [namespace], nodeTypes: ['Skill'], sort: null, words: [], limit: null }, { user: owner, space: owner })) {
    if (node.namespace === namespace && savedNodes.has(node) && catalog.remove(node.path)) dropped++;
  }
  return dropped;
}

/** A stored node rebuilt the way `save` builds one, so a store cannot bring in what a save would refuse. */
function revive(stored: CatalogNode): CatalogNode {
  const path = typeof stored?.path === 'string' ? stored.path : String(stored?.path);
  const match = /^([^/{}\s]+)\/Skill\/([^/]+)$/.exec(path);
  if (!match || stored.nodeType !== 'Skill' || stored.namespace !== `${match[1]}/Skill` || stored.id !== match[2]) {
    throw new SkillFileError(`${path}: a saved skill's path must be "{user or space}/Skill/<word>".`);
  }
  if (stored.owner !== undefined && stored.owner !== match[1]) throw new SkillFileError(`${path}: its owner "${String(stored.owner)}" does not match its namespace.`);
  const definition = stored.skill;
  const header = {
    name: stored.name,
    description: stored.description,
    ...(stored.order !== undefined ? { order: stored.order } : {}),
    ...(stored.keywords !== undefined ? { keywords: stored.keywords } : {}),
    ...(definition?.action !== undefined ? { action: definition.action } : {}),
    ...(definition?.autoMount !== undefined ? { autoMount: definition.autoMount } : {}),
    ...(definition?.launchesSubThread !== undefined ? { launchesSubThread: definition.launchesSubThread } : {}),
  };
  const node = skillNode(path, header, typeof definition?.instructions === 'string' ? definition.instructions : '', stored.namespace, stored.owner);
  if (node.path !== path) throw new SkillFileError(`${path}: its name "${stored.name}" does not match its path.`);
  return node;
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
    case 'Connectors':
      return 'opens the form to connect your own MCP servers';
    default:
      return action satisfies never;
  }
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
