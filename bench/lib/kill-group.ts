// A writer started so it can be killed with everything it started (docs/store.md, "Concurrency
// and crashes"): the CLI in a process group of its own, killed with SIGKILL together with every
// process it started. The store runs git in process groups of their own (so a terminal's Ctrl-C
// reaches the CLI alone: docs/cli.md, "Signals"), so the kill stops the CLI's group first (it
// starts nothing more), finds its descendants in /proc and kills each one's group with it, and
// its git processes die at the same instant. Shared by the kill trials of the suite and of the
// benchmarks.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A started writer: `kill` ends its group (again is harmless); `closed` resolves once it ended, by itself or killed. */
interface KillableWriter {
  kill: () => void;
  closed: Promise<unknown>;
}

/** Every live descendant of `pid`, from the parent pids in /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(join('/proc', name, 'stat'), 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // already gone
  }
}

/** Start `bin/canvas.js` of the project at `root` with `args`, in workspace `workspace`, writing as `author`. */
export function startWriter(root: string, workspace: string, author: string, args: string[]): KillableWriter {
  const child = spawn(process.execPath, [join(root, 'bin', 'canvas.js'), ...args], {
    env: { ...process.env, CANVAS_WORKSPACE: workspace, CANVAS_AUTHOR: author },
    stdio: 'ignore',
    detached: true,
  });
  const closed = new Promise((resolve) => child.on('close', resolve));
  const kill = () => {
    const pid = child.pid!;
    signal(-pid, 'SIGSTOP');
    const all = descendants(pid);
    signal(-pid, 'SIGKILL');
    // Each git process leads a group of its own, which holds what it started (a push's pack).
    for (const p of all) {
      signal(-p, 'SIGKILL');
      signal(p, 'SIGKILL');
    }
  };
  return { kill, closed };
}
