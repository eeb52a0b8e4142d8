import { execFileSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CanvasError } from '../../../src/model/canvas-error.js';
import { idleMs } from '../../../src/store/git/git-handles.js';
import { GitHelper, type GitHelperOptions, type HelperClock } from '../../../src/store/git/git-helper.js';
import { SharedHelpers } from '../../../src/store/git/shared-helpers.js';
import { tempWorkspace } from '../../helpers/workspace.js';

/** A clock the test moves by hand; `cancels: false` models timers that fire although cleared. */
function manualClock(cancels = true): HelperClock & { advance: (ms: number) => void; armed: () => number } {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; fire: () => void }>();
  return {
    set: (fire, ms) => {
      next += 1;
      timers.set(next, { at: now + ms, fire });
      return next;
    },
    clear: (handle) => {
      if (cancels) timers.delete(handle as number);
    },
    advance: (ms) => {
      now += ms;
      for (const [id, t] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at > now) continue;
        timers.delete(id);
        t.fire();
      }
    },
    armed: () => timers.size,
  };
}

function repo(): string {
  const ws = tempWorkspace();
  execFileSync('git', ['init', '-q', ws.repo]);
  return ws.repo;
}

const started: GitHelper[] = [];

/** A `git cat-file --batch` helper with a manual clock; `exit` settles with what onExit got. */
function start(clock: HelperClock, options: Partial<GitHelperOptions> = {}): { helper: GitHelper; exit: Promise<CanvasError> } {
  let done: (e: CanvasError) => void = () => {};
  const exit = new Promise<CanvasError>((resolve) => (done = resolve));
  const helper = new GitHelper({ repo: repo(), args: ['cat-file', '--batch'], onData: () => {}, onExit: done, idleMs: 100, clock, ...options });
  started.push(helper);
  return { helper, exit };
}

afterEach(() => {
  for (const h of started.splice(0)) h.close();
  delete process.env.CANVAS_GIT_IDLE_MS;
});

describe('GitHelper: one lifecycle for every long-lived git process', () => {
  it('an idle helper closes after its idle period, not before, and then ends', async () => {
    const clock = manualClock();
    const { helper, exit } = start(clock);
    expect(helper.state).toBe('open');
    clock.advance(99);
    expect(helper.state).toBe('open');
    clock.advance(1);
    expect(helper.state).toBe('closing');
    expect(helper.usable).toBe(false);
    const failure = await exit;
    expect(helper.state).toBe('closed');
    expect(failure.code).toBe('GIT_HELPER_FAILED');
    expect(failure.data).toMatchObject({ helper: 'git cat-file --batch', code: 0 });
  });

  it('a hold stops the idle timer until it is released (twice releasing is once)', () => {
    const clock = manualClock();
    const { helper } = start(clock);
    const release = helper.hold();
    expect(clock.armed()).toBe(0);
    clock.advance(10_000);
    expect(helper.state).toBe('open');
    const second = helper.hold();
    release();
    release();
    clock.advance(10_000);
    expect(helper.state).toBe('open');
    second();
    clock.advance(99);
    expect(helper.state).toBe('open');
    clock.advance(1);
    expect(helper.state).toBe('closing');
  });

  it('an outstanding request stops the idle timer; the idle period starts again when it is answered', () => {
    const clock = manualClock();
    const { helper } = start(clock);
    clock.advance(60);
    helper.begin();
    clock.advance(1_000);
    expect(helper.state).toBe('open');
    helper.end();
    clock.advance(60);
    expect(helper.state).toBe('open');
    clock.advance(40);
    expect(helper.state).toBe('closing');
  });

  it('a timer that fires although it was cleared never closes a helper in use', () => {
    const clock = manualClock(false);
    const { helper } = start(clock);
    const release = helper.hold();
    clock.advance(1_000);
    expect(helper.state).toBe('open');
    helper.begin();
    release();
    clock.advance(1_000);
    expect(helper.state).toBe('open');
  });

  it('a closing or closed helper takes no request, and says so', async () => {
    const clock = manualClock();
    const { helper, exit } = start(clock);
    helper.close();
    expect(() => helper.send('HEAD\n')).toThrow(expect.objectContaining({ code: 'INTERNAL' }));
    await exit;
    expect(() => helper.send('HEAD\n')).toThrow(expect.objectContaining({ code: 'INTERNAL' }));
    expect(clock.armed()).toBe(0);
  });

  it('close listeners run once, when it leaves open, or at once when it already has', async () => {
    const { helper, exit } = start(manualClock());
    const seen: string[] = [];
    helper.onClose(() => seen.push('first'));
    helper.close();
    helper.close();
    helper.onClose(() => seen.push('late'));
    await exit;
    expect(seen).toEqual(['first', 'late']);
  });

  it('a process that dies gives its requests GIT_HELPER_FAILED with git’s stderr and exit code', async () => {
    const { helper, exit } = start(manualClock(), { args: ['cat-file', '--no-such-option'] });
    const failure = await exit;
    expect(helper.state).toBe('closed');
    expect(failure.code).toBe('GIT_HELPER_FAILED');
    expect(failure.data.code).toBe(129);
    expect(String(failure.data.stderr)).toMatch(/no-such-option/);
  });

  it('a killed process is GIT_HELPER_FAILED naming the signal', async () => {
    const { helper, exit } = start(manualClock());
    process.kill(helper.pid!, 'SIGKILL');
    const failure = await exit;
    expect(failure.code).toBe('GIT_HELPER_FAILED');
    expect(failure.data.signal).toBe('SIGKILL');
  });

  it('CANVAS_GIT_IDLE_MS sets the idle period; anything but milliseconds is USAGE', () => {
    delete process.env.CANVAS_GIT_IDLE_MS;
    expect(idleMs()).toBe(2000);
    process.env.CANVAS_GIT_IDLE_MS = '';
    expect(idleMs()).toBe(2000);
    process.env.CANVAS_GIT_IDLE_MS = '150';
    expect(idleMs()).toBe(150);
    process.env.CANVAS_GIT_IDLE_MS = '0';
    expect(idleMs()).toBe(0);
    for (const bad of ['-1', '1.5', '2s', ' 5', '2147483648', '99999999999']) {
      process.env.CANVAS_GIT_IDLE_MS = bad;
      expect(() => idleMs(), bad).toThrow(expect.objectContaining({ code: 'USAGE' }));
    }
  });
});

describe('SharedHelpers: one owner per kind of helper', () => {
  const kind = () => new SharedHelpers((r) => ({ helper: new GitHelper({ repo: r, args: ['cat-file', '--batch'], onData: () => {}, onExit: () => {}, clock: manualClock() }) }));

  it('hands out the same open helper, and a fresh one once it is closing', () => {
    const helpers = kind();
    const r = repo();
    const a = helpers.get(r);
    started.push(a.helper);
    expect(helpers.get(r)).toBe(a);
    a.helper.close();
    const b = helpers.get(r);
    started.push(b.helper);
    expect(b).not.toBe(a);
    expect(b.helper.state).toBe('open');
  });

  it('closes and replaces a helper whose repository was replaced at the same path', () => {
    const helpers = kind();
    const r = repo();
    const a = helpers.get(r);
    started.push(a.helper);
    renameSync(`${r}/.git`, `${r}/.git-old`);
    execFileSync('git', ['init', '-q', r]);
    const b = helpers.get(r);
    started.push(b.helper);
    expect(b).not.toBe(a);
    expect(a.helper.state).not.toBe('open');
    helpers.closeAll();
    expect(b.helper.state).not.toBe('open');
  });

  it('replaces a helper whose repository was removed and made again, though .git got its inode number back', () => {
    const helpers = kind();
    const r = repo();
    const a = helpers.get(r);
    started.push(a.helper);
    // ext4 hands the freed inode number of .git to the new one nearly every time.
    rmSync(`${r}/.git`, { recursive: true });
    execFileSync('git', ['init', '-q', r]);
    const b = helpers.get(r);
    started.push(b.helper);
    expect(b).not.toBe(a);
    expect(a.helper.state).not.toBe('open');
  });
});
