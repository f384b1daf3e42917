/** The threads a surface knows, oldest first, with the one shown and names from first messages. */
export interface ThreadList {
  threads: string[];
  current: string;
  names: Record<string, string>;
  /** Sub-threads' parents: child id → parent id (issue 15). */
  parents?: Record<string, string>;
}

/** How long a thread's name may be: the first message, cut at a word. */
const NAME_LENGTH = 40;

/** A thread's name from its first message: one line, at most 40 characters, cut at a word. */
export function threadName(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= NAME_LENGTH) return line;
  const cut = line.slice(0, NAME_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${(space > 20 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Reads the list kept under `key`, or null when there is none (or it is not a list this kit wrote). */
export function readThreadList(key: string | false): ThreadList | null {
  if (!key || typeof localStorage === 'undefined') return null;
  try {
    const raw = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<ThreadList> | null;
    if (!raw || !Array.isArray(raw.threads) || typeof raw.current !== 'string') return null;
    const threads = raw.threads.filter((t): t is string => typeof t === 'string' && t.length > 0 && t.length < 200).slice(-50);
    if (!threads.includes(raw.current)) threads.push(raw.current);
    const names: Record<string, string> = {};
    for (const id of threads) {
      const name = raw.names?.[id];
      if (typeof name === 'string') names[id] = threadName(name);
    }
    const parents: Record<string, string> = {};
    for (const id of threads) {
      const parent = raw.parents?.[id];
      if (typeof parent === 'string' && parent !== id && threads.includes(parent)) parents[id] = parent;
    }
    return { threads, current: raw.current, names, parents };
  } catch {
    return null;
  }
}

/** Keeps the list under `key` (the browser may refuse: private mode, a full quota; the surface works on). */
export function writeThreadList(key: string | false, list: ThreadList): void {
  if (!key || typeof localStorage === 'undefined') return;
  try {
    localStorage.setItem(key, JSON.stringify(list));
  } catch {
    // Not kept: the threads stay for this page's life.
  }
}

/**
 * The switcher's order: each thread followed by its sub-threads (oldest first), a sub-thread
 * whose parent is not listed stays where it is.
 */
export function switcherOrder(threads: readonly string[], parents: Readonly<Record<string, string>>): string[] {
  const listed = new Set(threads);
  const children = new Map<string, string[]>();
  for (const id of threads) {
    const parent = parents[id];
    if (parent && listed.has(parent) && parent !== id) children.set(parent, [...(children.get(parent) ?? []), id]);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    out.push(id);
    for (const child of children.get(id) ?? []) visit(child);
  };
  for (const id of threads) {
    const parent = parents[id];
    if (!parent || !listed.has(parent) || parent === id) visit(id);
  }
  for (const id of threads) visit(id);
  return out;
}
