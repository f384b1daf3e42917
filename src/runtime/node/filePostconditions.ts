import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import type { FileListing, PostconditionProbes } from '../postconditions';

export interface FileProbeOptions {
  /** Absolute path of the app root; globs are relative to it. */
  appRoot: string;
  /** Folder names never walked into. @default ['node_modules', '.git'] */
  ignore?: readonly string[];
  /** Files looked at per listing before it gives up with an error. @default 100000 */
  maxFiles?: number;
}

/**
 * The file lister `file_created` postconditions use: it lists the files under
 * the app root that a glob matches, with their modification times, so the
 * runtime can compare before and after a run. Symbolic links are not
 * followed, so a listing never leaves the app root.
 * @example
 * await invoke('reports.build', args, { registry, emit, threadId, probes: createFileProbe({ appRoot }) });
 */
export function createFileProbe({ appRoot, ignore = ['node_modules', '.git'], maxFiles = 100_000 }: FileProbeOptions): Required<Pick<PostconditionProbes, 'listFiles'>> {
  if (!isAbsolute(appRoot)) throw new TypeError(`createFileProbe: appRoot must be an absolute path (got "${appRoot}").`);
  const root = resolve(appRoot);
  return {
    async listFiles(glob) {
      if (isAbsolute(glob) || glob.split(/[/\\]/).includes('..')) {
        throw new Error(`the glob "${glob}" leaves the app root`);
      }
      const { base, isGlob } = picomatch.scan(glob);
      const match = picomatch(glob, { dot: true });
      const listing: Record<string, number> = {};
      let seen = 0;
      const visit = async (dir: string): Promise<void> => {
        let entries: Dirent[];
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
          throw error;
        }
        for (const entry of entries) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) {
            if (!ignore.includes(entry.name)) await visit(path);
          } else if (entry.isFile()) {
            if (++seen > maxFiles) throw new Error(`more than ${maxFiles} files under ${relative(root, dir) || '.'}; narrow the glob`);
            const rel = relative(root, path).split(sep).join('/');
            if (match(rel)) listing[rel] = (await stat(path)).mtimeMs;
          }
        }
      };
      if (isGlob) {
        await visit(join(root, base));
      } else {
        const rel = posix.normalize(glob);
        const info = await stat(join(root, rel)).catch(() => null);
        if (info?.isFile()) listing[rel] = info.mtimeMs;
      }
      return listing as FileListing;
    },
  };
}
