import type { GitHelper } from './git-helper.js';

/**
 * The one owner of a kind of long-lived git helper (a manager, in isomorphic-git's sense): one
 * helper per repository for the whole process, shared by every reader and writer of it.
 * {@link SharedHelpers.get} hands out only a helper that is open and was started in the
 * repository now at that path; a closing or closed one is forgotten the moment it leaves `open`,
 * and one started in a repository since replaced at the same path is closed and replaced
 * (docs/store.md, "Long-lived git processes").
 *
 * @typeParam T - the protocol on top of the helper (`GitBatch`, `RefUpdater`)
 */
export class SharedHelpers<T extends { readonly helper: GitHelper }> {
  private readonly live = new Map<string, T>();

  /** @param start - starts a new helper for a repository's work tree */
  constructor(private readonly start: (repo: string) => T) {}

  /**
   * The repository's open helper, started now if there is none.
   *
   * @param repo - the repository's work tree (`state/canvas`)
   * @throws CanvasError `USAGE` when `CANVAS_GIT_IDLE_MS` is not a number of milliseconds
   */
  get(repo: string): T {
    const found = this.live.get(repo);
    if (found?.helper.usable) return found;
    found?.helper.close();
    const made = this.start(repo);
    this.live.set(repo, made);
    made.helper.onClose(() => {
      if (this.live.get(repo) === made) this.live.delete(repo);
    });
    return made;
  }

  /** Close every helper (each ends once git has answered what it was sent). */
  closeAll(): void {
    for (const t of [...this.live.values()]) t.helper.close();
  }
}
