import { sweepAbandoned } from './remove-if-abandoned.js';

/** The private folder a first create initialises the repository in: `.canvas-init-<pid>-<ms>`. */
const INIT = /^\.canvas-init-([1-9]\d{0,6})-\d+$/;

/**
 * Remove the private folders of first creates killed before their `.git` was renamed into place
 * (docs/store.md, "Temporary files"), by {@link sweepAbandoned}'s rule: their process gone and
 * an hour old. Such a folder is in the repository's directory, so it costs a `readdir` of the
 * working tree: run only where the store reads that whole folder anyway, by a create that finds
 * no repository yet and by `canvas verify`.
 *
 * @param repo - the repository directory (`state/canvas`)
 * @returns the names of the folders removed, sorted
 */
export function sweepInitDirs(repo: string): string[] {
  return sweepAbandoned(repo, INIT, true);
}
