import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/git.js';
import { saveCacheFile } from '../files/save-cache-file.js';
import { repoExists } from '../files/permission-denied.js';
import { canvasesOnMain, rebuildCanvasRefs, refsNeedRebuild, repairOrReadPast } from './rebuild-canvas-refs.js';
import { RepoReader } from './repo-reader.js';
import type { Workspace } from './workspace.js';

/** A canvas of the workspace and its revision. */
export interface CanvasRef {
  ledger: string;
  revision: string;
}

async function canvasRefs(ws: Workspace): Promise<CanvasRef[]> {
  const { stdout } = await runGit(ws.repo, ['for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/canvas/']);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [ledger, revision] = l.split(' ');
      return { ledger: ledger!, revision: revision! };
    })
    .sort((a, b) => (a.ledger < b.ledger ? -1 : a.ledger > b.ledger ? 1 : 0));
}

/** A ref's value as git writes it in a loose ref file or `packed-refs`: an object name, SHA-1 or SHA-256. */
const OBJECT_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The canvas refs as git's files hold them, read without running git (docs/store.md, "Canvas
 * refs"): each `refs/canvas/<ledger>` loose file, else its line in `packed-refs` (a loose ref
 * overrides a packed one, as in git). Each file is renamed into place whole by git, so a read sees
 * the old value or the new one. Null when the files cannot tell: a repository kept in reftable,
 * a value that is not an object name (a symbolic ref), a file that cannot be read; the caller
 * then asks git ({@link listCanvases}). Unlike {@link listCanvases} it never rebuilds refs that
 * are missing or behind main: it is for a process that has listed them once and follows their moves.
 *
 * @param ws - the workspace
 * @returns ledger ids with their revisions, sorted by ledger id; empty before the first create
 */
export function readCanvasRefFiles(ws: Workspace): CanvasRef[] | null {
  const git = join(ws.repo, '.git');
  if (!existsSync(git)) return [];
  if (existsSync(join(git, 'reftable'))) return null;
  const refs = new Map<string, string>();
  try {
    let packed = '';
    try {
      packed = readFileSync(join(git, 'packed-refs'), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    for (const line of packed.split('\n')) {
      const m = /^([0-9a-f]+) refs\/canvas\/(.+)$/.exec(line);
      if (m) refs.set(m[2]!, m[1]!);
    }
    let loose: string[] = [];
    try {
      loose = readdirSync(join(git, 'refs', 'canvas'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    for (const name of loose) {
      // git's lock of a ref being written is beside it, not a ref.
      if (name.endsWith('.lock')) continue;
      refs.set(name, readFileSync(join(git, 'refs', 'canvas', name), 'utf8').trim());
    }
  } catch {
    return null;
  }
  const list: CanvasRef[] = [];
  for (const [ledger, revision] of refs) {
    if (!OBJECT_NAME.test(revision)) return null;
    list.push({ ledger, revision });
  }
  return list.sort((a, b) => (a.ledger < b.ledger ? -1 : a.ledger > b.ledger ? 1 : 0));
}

/**
 * How long after a change to a file that holds refs its time is trusted to tell a later change:
 * the kernel stamps a file with a coarse clock, so two changes within one tick can leave the same
 * time (git's index has the same problem, "racily clean" entries, and the same answer).
 */
const RACY_MS = 2000;

/**
 * The listing this process made last, with the stamp of the files that hold the refs when it was
 * made: a long-lived process (the MCP server, `canvas serve`) that lists again while none of them
 * changed gets the same listing without asking git (docs/store.md, "Canvas refs").
 */
let lastListed: { repo: string; stamp: string; list: CanvasRef[] } | null = null;

/**
 * The stamp of the files a listing of the canvases depends on: the folders of the loose canvas
 * refs and of main (a ref is written, renamed into place or removed there), `packed-refs`, and the
 * marker of the refs' agreement with main (docs/store.md, "Canvas refs"). Null when one of them
 * changed too recently for its time to tell the next change, or cannot be read.
 */
function refsStamp(repo: string): string | null {
  const parts: string[] = [];
  const now = Date.now();
  for (const path of [['refs', 'canvas'], ['refs', 'heads'], ['packed-refs'], ['canvas-cache', '_refs-main']]) {
    let s: ReturnType<typeof statSync>;
    try {
      s = statSync(join(repo, '.git', ...path), { bigint: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return null;
      parts.push('-');
      continue;
    }
    if (now - Number(s.mtimeNs / 1_000_000n) < RACY_MS) return null;
    parts.push(`${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`);
  }
  return parts.join(' ');
}

/**
 * `.git/canvas-cache/_list.json` (no ledger id begins with `_`): the last listing any process made,
 * with its stamp, `{"stamp":"...","list":[[ledger, revision], ...]}`, so a command's process lists
 * with no git process while the refs' files keep that stamp (docs/store.md, "Canvas refs").
 */
function listFile(repo: string): string {
  return join(repo, '.git', 'canvas-cache', '_list.json');
}

/** The listing saved with this stamp, or null (none, another stamp, or a file that does not read as one). */
function savedListing(repo: string, stamp: string): CanvasRef[] | null {
  try {
    const saved = JSON.parse(readFileSync(listFile(repo), 'utf8')) as { stamp?: unknown; list?: unknown };
    if (saved.stamp !== stamp || !Array.isArray(saved.list)) return null;
    const list: CanvasRef[] = [];
    for (const item of saved.list as unknown[]) {
      if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'string') return null;
      list.push({ ledger: item[0], revision: item[1] });
    }
    return list;
  } catch {
    return null;
  }
}

/**
 * List every canvas of the workspace (`refs/canvas/*`), sorted by ledger id. When a canvas on
 * main has no ref (a clone brings main only), or a ref may be behind main's history, the refs are
 * rebuilt from main first, under the repository lock when it is free, else read from main without
 * waiting (docs/store.md, "Canvas refs"); the normal path is one `git for-each-ref` and two reads
 * through the open batch (main, its root tree).
 *
 * @returns ledger ids with their revisions; empty before the first create
 * @throws CanvasError `GIT_FAILED`
 */
export async function listCanvases(ws: Workspace): Promise<CanvasRef[]> {
  if (!repoExists(ws.repo)) return [];
  const now = refsStamp(ws.repo);
  if (now !== null) {
    if (lastListed?.repo === ws.repo && now === lastListed.stamp) return lastListed.list.map((c) => ({ ...c }));
    // Another process's listing, made while the refs' files were as they are now.
    const saved = savedListing(ws.repo, now);
    if (saved !== null) {
      lastListed = { repo: ws.repo, stamp: now, list: saved.map((c) => ({ ...c })) };
      return saved;
    }
  }
  const started = Date.now();
  const listed = await canvasRefs(ws);
  const reader = new RepoReader(ws);
  try {
    const stale = async (list: CanvasRef[]) => refsNeedRebuild(reader, null, null, new Set(list.map((c) => c.ledger)));
    if (!(await stale(listed))) {
      // Kept when nothing that holds refs changed while git listed them: the stamp is taken after,
      // and a change during a listing shorter than RACY_MS would make it racy, so none is kept.
      const stamp = Date.now() - started < RACY_MS / 2 ? refsStamp(ws.repo) : null;
      if (stamp !== null) {
        lastListed = { repo: ws.repo, stamp, list: listed.map((c) => ({ ...c })) };
        saveCacheFile(listFile(ws.repo), JSON.stringify({ stamp, list: listed.map((c) => [c.ledger, c.revision]) }));
      }
      return listed;
    }
    const repair = async () => {
      if (await stale(await canvasRefs(ws))) await rebuildCanvasRefs(ws);
      return canvasRefs(ws);
    };
    // Another process holding the lock (a write's push rounds) is not waited for: main answers.
    const past = async () => [...(await canvasesOnMain(reader))].map(([ledger, revision]) => ({ ledger, revision })).sort((a, b) => (a.ledger < b.ledger ? -1 : a.ledger > b.ledger ? 1 : 0));
    return await repairOrReadPast(join(ws.repo, '.git'), repair, past);
  } finally {
    reader.close();
  }
}
