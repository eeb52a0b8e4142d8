// A writer started so it can be killed with everything it started (docs/store.md, "Concurrency
// and crashes"): the CLI in a process group of its own, killed as a group with SIGKILL, so its git
// processes die at the same instant. Shared by the kill trials of the suite and of the benchmarks.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** A started writer: `kill` ends its group (again is harmless); `closed` resolves once it ended, by itself or killed. */
interface KillableWriter {
  kill: () => void;
  closed: Promise<unknown>;
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
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  return { kill, closed };
}
