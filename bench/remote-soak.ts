// `node scripts/build.js --cli-only && node --import tsx bench/remote-soak.ts [--machines 4] [--writers 2] [--edits 50] [--root DIR]`:
// many machines writing through one shared remote, a `git daemon` on 127.0.0.1 (docs/remote.md).
// `--root` runs the CLI of another checkout (a copy of the build, so a rebuild meanwhile cannot
// cut the run short).
// Prints the report and exits 1 when any check failed (bench/lib/remote-soak.ts says which);
// test/store/remote/remote-writes.test.ts has two machines writing at once, small.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGitDaemon } from './lib/git-daemon.js';
import { remoteSoak } from './lib/remote-soak.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const dir = mkdtempSync(join(tmpdir(), 'canvas-remote-soak-'));
const bare = join(dir, 'shared.git');
execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
const daemon = await startGitDaemon(dir, 'shared.git');
try {
  const report = await remoteSoak({
    root: args.includes('--root') ? args[args.indexOf('--root') + 1]! : join(import.meta.dirname, '..'),
    dir,
    url: daemon.url('shared.git'),
    bare,
    machines: flag('--machines', 4),
    writers: flag('--writers', 2),
    edits: flag('--edits', 50),
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.exitCode = report.problems.length === 0 ? 0 : 1;
} finally {
  await daemon.stop();
}
