/** The threads a surface knows, oldest first, with the one shown and names from first messages. */
export interface ThreadList {
  threads: string[];
  current: string;
  names: Record<string, string>;
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
    return { threads, current: raw.current, names };
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
