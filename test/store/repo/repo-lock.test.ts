// The repository lock (docs/store.md "Concurrency and crashes"): taken around a critical section
// and given back after it, waited for while a live process holds it, broken only when its holder
// is gone (no such process, or the pid now belongs to a process started at another time).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withRepoLock } from '../../../src/store/repo/repo-lock.js';
import { canvasErrorOf } from '../../helpers/canvas-error-of.js';
import { tempDir } from '../../helpers/temp-dir.js';

let gitDir: string;
let lock: string;
let children: ChildProcess[] = [];

beforeEach(() => {
  gitDir = tempDir('canvas-lock-');
  lock = join(gitDir, 'canvas.lock');
});
afterEach(() => {
  for (const c of children) c.kill('SIGKILL');
  children = [];
});

/** A process's start time as the lock records it (clock ticks since boot, /proc/<pid>/stat). */
function startOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

/** Another live process, to hold a lock. */
async function otherProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); console.log("up")'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  await once(child.stdout!, 'data');
  return child as ChildProcess & { pid: number };
}

/** What is in `.git` besides the (empty) folder of private files: their names, if any were left there. */
function left(): string[] {
  return (readdirSync(gitDir, { recursive: true }) as string[]).filter((name) => name !== 'canvas-tmp').sort();
}

function holdAs(content: unknown): string {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  writeFileSync(lock, text);
  return text;
}

const describeProc = existsSync('/proc/self/stat') ? describe : describe.skip;

describeProc('the repository lock', () => {
  it('is held, with this process and its start time, while the critical section runs, and given back after', async () => {
    const seen = await withRepoLock(gitDir, async () => JSON.parse(readFileSync(lock, 'utf8')) as { pid: number; start: string; nonce: string });
    expect(seen.pid).toBe(process.pid);
    expect(seen.start).toBe(startOf(process.pid));
    expect(seen.nonce).toMatch(/^[0-9a-f]{12}$/);
    expect(existsSync(lock)).toBe(false);
    expect(left()).toEqual([]);
  });

  it('is given back when the critical section throws', async () => {
    await expect(withRepoLock(gitDir, async () => Promise.reject(new Error('inside')))).rejects.toThrow('inside');
    expect(left()).toEqual([]);
  });

  it('lets one critical section in at a time within a process', async () => {
    const events: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = withRepoLock(gitDir, async () => {
      events.push('first in');
      await held;
      events.push('first out');
    });
    const second = withRepoLock(gitDir, async () => {
      events.push('second in');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['first in']);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['first in', 'first out', 'second in']);
    expect(left()).toEqual([]);
  });

  it('held by a live process: LOCK_TIMEOUT naming it, the section never run, the lock left as it was', async () => {
    const other = await otherProcess();
    const text = holdAs({ pid: other.pid, start: startOf(other.pid), nonce: 'abcdefabcdef' });
    let ran = false;
    const e = await canvasErrorOf(withRepoLock(gitDir, async () => (ran = true), 0));
    expect(e.code).toBe('LOCK_TIMEOUT');
    expect(e.data.holder).toBe(other.pid);
    expect(ran).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(text);
    expect(left()).toEqual(['canvas.lock']);
  });

  it('held by a live process whose start time is unknown: still waited for', async () => {
    const other = await otherProcess();
    const text = holdAs({ pid: other.pid, start: '', nonce: 'abcdefabcdef' });
    expect((await canvasErrorOf(withRepoLock(gitDir, async () => 1, 0))).code).toBe('LOCK_TIMEOUT');
    expect(readFileSync(lock, 'utf8')).toBe(text);
  });

  it('is broken once its holder is gone, and not before', async () => {
    const other = await otherProcess();
    holdAs({ pid: other.pid, start: startOf(other.pid), nonce: 'abcdefabcdef' });
    expect((await canvasErrorOf(withRepoLock(gitDir, async () => 1, 0))).code).toBe('LOCK_TIMEOUT');
    const closed = once(other, 'close');
    other.kill('SIGKILL');
    await closed;
    expect(existsSync(`/proc/${other.pid}`)).toBe(false);
    expect(await withRepoLock(gitDir, async () => (JSON.parse(readFileSync(lock, 'utf8')) as { pid: number }).pid, 0)).toBe(process.pid);
    expect(left()).toEqual([]);
  });

  it('is broken when its pid is alive but started at another time (the pid was reused)', async () => {
    const other = await otherProcess();
    const start = startOf(other.pid);
    holdAs({ pid: other.pid, start: String(Number(start) + 1), nonce: 'abcdefabcdef' });
    expect(await withRepoLock(gitDir, async () => (JSON.parse(readFileSync(lock, 'utf8')) as { pid: number }).pid, 0)).toBe(process.pid);
    expect(left()).toEqual([]);
  });

  it('is broken when it cannot be read (a holder that died before writing it whole)', async () => {
    holdAs('{"pid": 12');
    expect(await withRepoLock(gitDir, async () => 'ran', 0)).toBe('ran');
    expect(left()).toEqual([]);
  });
});
