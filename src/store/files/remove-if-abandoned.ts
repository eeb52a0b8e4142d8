import { lstatSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How long after its last change a temporary file whose process is not alive here is kept
 * anyway: an hour. A live write keeps a temporary name for the few milliseconds between writing
 * the file and renaming it; an hour is beyond any write that is running, and beyond the clock
 * skew of hosts that share a file system (docs/store.md, "Temporary files").
 */
const KEPT_FOR_MS = 60 * 60 * 1000;

/**
 * Remove a temporary file that a killed process made and never renamed into place, when it is
 * provably abandoned (docs/store.md, "Temporary files"; docs/cli.md, "Start-up and the compile
 * cache"): both the process its name gives is not alive on this host (`kill(pid, 0)` fails with
 * `ESRCH`; `EPERM` is another user's live process) and the file was last modified more than an
 * hour ago. The pid alone would do on one host; the age is what keeps a live writer's file on a
 * file system shared with another host (or another pid namespace), where that pid means nothing.
 * This process's own pid, a pid reused by a live process, a young file, a link, or anything but
 * the kind asked for: kept. Never throws.
 *
 * @param path - the temporary file (or folder)
 * @param pid - the pid its name gives (a positive whole number)
 * @param now - the time to judge its age against (milliseconds since the epoch)
 * @param folder - true for a private folder (removed with what it holds), false for a file
 * @returns true when it was removed
 */
export function removeIfAbandoned(path: string, pid: number, now = Date.now(), folder = false): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') return false;
  }
  try {
    const st = lstatSync(path);
    if (!(folder ? st.isDirectory() : st.isFile()) || now - st.mtimeMs <= KEPT_FOR_MS) return false;
    if (folder) rmSync(path, { recursive: true, force: true });
    else unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Remove what killed processes abandoned in one folder (docs/store.md, "Temporary files"): every
 * entry whose name `pattern` matches, its first group the pid, that {@link removeIfAbandoned}
 * finds abandoned. One `readdir`; a folder that is absent or cannot be read removes nothing, and
 * a name the pattern does not match is left alone. Never throws.
 *
 * @param dir - the folder to sweep
 * @param pattern - a private name's pattern, capturing the pid in its first group
 * @param folder - true when the entries are private folders, false for files
 * @returns the names removed, sorted
 */
export function sweepAbandoned(dir: string, pattern: RegExp, folder = false): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const now = Date.now();
  for (const name of names) {
    const pid = pattern.exec(name)?.[1];
    if (pid !== undefined && removeIfAbandoned(join(dir, name), Number(pid), now, folder)) removed.push(name);
  }
  return removed.sort();
}
