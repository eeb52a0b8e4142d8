import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalObjects } from '../../src/store/git/local-objects.js';

const ENV = { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() };
const git = (repo: string, args: string[], input?: string): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'core.hooksPath=/dev/null', '-c', 'gc.auto=0', ...args], { cwd: repo, env: ENV, input, encoding: 'utf8' });

/** A repository of 30 commits that rewrite a large file a little at a time (so a pack holds deltas), with nested paths, a link and a gitlink. */
function history(): string {
  const repo = mkdtempSync(join(tmpdir(), 'canvas-local-objects-'));
  git(repo, ['init', '-q', '-b', 'main']);
  mkdirSync(join(repo, 'access'));
  mkdirSync(join(repo, 'deep', 'er'), { recursive: true });
  const lines = Array.from({ length: 400 }, (_, i) => `  <text id="n${i}" v="1">line ${i} of a document long enough to be stored as a delta</text>`);
  for (let c = 0; c < 30; c++) {
    lines[(c * 37) % lines.length] = `  <text id="c${c}" v="2">changed by commit ${c}</text>`;
    writeFileSync(join(repo, 'big.xml'), `<canvas>\n${lines.join('\n')}\n</canvas>\n`);
    writeFileSync(join(repo, 'access', 'big.json'), JSON.stringify({ commit: c }));
    writeFileSync(join(repo, 'deep', 'er', `f${c % 3}.txt`), `file ${c}\n`);
    if (c === 0) {
      writeFileSync(join(repo, 'run.sh'), '#!/bin/sh\n');
      chmodSync(join(repo, 'run.sh'), 0o755);
      symlinkSync('big.xml', join(repo, 'link'));
    }
    git(repo, ['add', '-A']);
    if (c === 1) git(repo, ['update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},sub`]);
    git(repo, ['commit', '-q', '-m', `commit ${c}`]);
    git(repo, ['update-ref', `refs/canvas/c${c % 4}`, 'HEAD']);
  }
  return repo;
}

/** Every object git has, read in process and by git (one `git cat-file --batch`): the same type and bytes. */
function compareAll(repo: string): number {
  const out = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: repo, env: ENV, maxBuffer: 1 << 28 });
  const local = new LocalObjects(join(repo, '.git'));
  let n = 0;
  try {
    for (let at = 0; at < out.length; n++) {
      const nl = out.indexOf(10, at);
      const [sha, type, size] = out.toString('latin1', at, nl).split(' ') as [string, string, string];
      const bytes = out.subarray(nl + 1, nl + 1 + Number(size));
      at = nl + 2 + Number(size);
      const o = local.read(sha);
      expect([o?.sha, o?.type], sha).toEqual([sha, type]);
      expect(o!.content.equals(bytes), sha).toBe(true);
    }
  } finally {
    local.close();
  }
  return n;
}

/** How many objects the repository's packs store as deltas, of each kind (`git verify-pack`). */
function deltas(repo: string): number {
  const dir = join(repo, '.git', 'objects', 'pack');
  const idx = readdirSync(dir).filter((n) => n.endsWith('.idx'));
  let n = 0;
  for (const f of idx) n += git(repo, ['verify-pack', '-v', join(dir, f)]).split('\n').filter((l) => /^[0-9a-f]{40} \w+ +\d+ \d+ \d+ \d+ [0-9a-f]{40}$/.test(l)).length;
  return n;
}

describe('objects and refs read in process are the ones git reads', () => {
  it('loose objects, then packed with offset deltas and packed refs, then with deltas on base names', () => {
    const repo = history();
    expect(readdirSync(join(repo, '.git', 'objects', 'pack')).filter((n) => n.endsWith('.pack'))).toEqual([]);
    const loose = compareAll(repo);
    expect(loose > 100).toBe(true);

    git(repo, ['gc', '-q', '--aggressive', '--prune=now']);
    expect(deltas(repo) > 20).toBe(true);
    expect(readFileSync(join(repo, '.git', 'packed-refs'), 'utf8')).toContain('refs/canvas/c1');
    expect(compareAll(repo)).toBe(loose);

    // REF_DELTA entries: each delta names its base by sha rather than by offset.
    git(repo, ['-c', 'repack.useDeltaBaseOffset=false', 'repack', '-q', '-a', '-d', '-f']);
    expect(deltas(repo) > 20).toBe(true);
    expect(compareAll(repo)).toBe(loose);
  });

  it('refs, paths and peeling as git resolves them; anything else is left to git', () => {
    const repo = history();
    git(repo, ['gc', '-q', '--prune=now']);
    // One ref loose again, after the pack: the loose file wins, as in git.
    git(repo, ['update-ref', 'refs/canvas/c2', 'HEAD~5']);
    const local = new LocalObjects(join(repo, '.git'));
    const same = (rev: string) => {
      const o = local.read(rev);
      expect(o, rev).toBeTruthy();
      const [sha, type] = git(repo, ['rev-parse', '--verify', rev]).trim().split(' ').concat(git(repo, ['cat-file', '-t', rev]).trim());
      expect([o!.sha, o!.type], rev).toEqual([sha, type]);
      expect(o!.content.equals(execFileSync('git', ['cat-file', type!, rev], { cwd: repo, env: ENV })), rev).toBe(true);
    };
    try {
      for (const rev of ['refs/heads/main', 'refs/canvas/c1', 'refs/canvas/c2', 'refs/canvas/c3^{commit}', 'refs/heads/main:big.xml', 'refs/canvas/c2:access/big.json', 'refs/canvas/c2:deep/er/f1.txt', 'refs/heads/main:deep/er', 'refs/heads/main:link', 'refs/heads/main:run.sh']) {
        same(rev);
      }
      const head = git(repo, ['rev-parse', 'HEAD']).trim();
      // The second commit holds a gitlink (a commit of another repository): git's to answer.
      const second = git(repo, ['rev-parse', 'HEAD~28']).trim();
      expect(git(repo, ['ls-tree', second, 'sub'])).toContain('160000 commit');
      expect(local.read(`${second}:sub`)).toBeUndefined();
      same(head);
      same(`${head}:big.xml`);
      same(`${head}^{commit}`);
      // Paths the tree does not have: null, as git finds nothing.
      for (const rev of [`${head}:nothing.xml`, 'refs/heads/main:access/other.json', 'refs/heads/main:big.xml/inside', 'refs/heads/main:deep/none/x']) {
        expect(local.read(rev), rev).toBeNull();
        expect(() => git(repo, ['rev-parse', '--verify', '-q', rev]), rev).toThrow();
      }
      // Not answered here: other syntax, a gitlink, a tree's peel, refs it does not read, a missing object.
      for (const rev of ['HEAD', 'main', 'refs/heads/main~1', head.slice(0, 12), 'refs/heads/main:./big.xml', 'refs/heads/main:', `${head}^{tree}`, 'refs/tags/x', 'refs/canvas/none', '0'.repeat(40), 'refs/canvas/c1.lock']) {
        expect(local.read(rev), rev).toBeUndefined();
      }
      // A symbolic ref is git's to follow.
      writeFileSync(join(repo, '.git', 'refs', 'canvas', 'sym'), 'ref: refs/heads/main\n');
      expect(local.read('refs/canvas/sym')).toBeUndefined();
    } finally {
      local.close();
    }
  });

  it('a damaged pack or an index of another format gives no answer rather than wrong bytes', () => {
    const repo = history();
    git(repo, ['gc', '-q', '--prune=now']);
    const big = git(repo, ['rev-parse', 'HEAD:big.xml']).trim();
    const dir = join(repo, '.git', 'objects', 'pack');
    const pack = readdirSync(dir).find((n) => n.endsWith('.pack'))!;
    const idx = `${pack.slice(0, -5)}.idx`;
    const kept = readFileSync(join(dir, idx));
    // An index one byte longer is not the size of SHA-1 names: not read.
    writeFileSync(join(dir, idx), Buffer.concat([kept, Buffer.alloc(1)]));
    expect(new LocalObjects(join(repo, '.git')).read(big)).toBeUndefined();
    writeFileSync(join(dir, idx), kept);
    const whole = new LocalObjects(join(repo, '.git'));
    expect(whole.read(big)?.type).toBe('blob');
    whole.close();
    // A pack cut short: its objects cannot be inflated.
    truncateSync(join(dir, pack), 64);
    const cut = new LocalObjects(join(repo, '.git'));
    expect(cut.read(big)).toBeUndefined();
    expect(cut.read('refs/heads/main:big.xml')).toBeUndefined();
    cut.close();
  });
});
