import type { Command } from 'commander';
import { CanvasError, errorKindOf, exitCodeFor } from '../../model/canvas-error.js';
import { checkLedgerId } from '../../model/check-ledger-id.js';
import { withGlobal } from '../common-options.js';
import type { Workspace } from '../../store/repo/workspace.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';
import { isQuiet } from '../quiet.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A progress bar on a terminal (stderr), nothing in a pipe. */
function progress(): ((done: number, total: number, ledger: string) => void) | undefined {
  const err = process.stderr;
  if (!err.isTTY || isQuiet()) return undefined;
  return (done, total, ledger) => {
    const width = 24;
    const filled = Math.round((done / Math.max(total, 1)) * width);
    err.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${ledger.slice(0, 40).padEnd(40)}`);
    if (done === total) err.write('\n');
  };
}

/** `--workers N`: a positive integer. */
function workers(v: string): number {
  if (!/^[1-9][0-9]*$/.test(v)) throw new CanvasError('USAGE', `--workers ${v} is not a positive integer`, 'for example --workers 2 (default: one per core)');
  return Number(v);
}

/** What `canvas build` takes. */
type BuildFlags = GlobalOptions & { out: string; ledger?: string[]; from?: string; at?: string; workers?: number; verifyOutput?: boolean; vendorMermaid?: string | true };

/** Register `canvas build [--out DIR] [--ledger ID]... [--workers N] [--verify-output] [--vendor-mermaid [DIR]]` (docs/site.md). */
export function registerBuildCommand(program: Command): void {
  withGlobal(program.command('build'))
    .description('build the static site: every canvas at its revision, one page, comment and prompt each, and an index')
    .option('--out <dir>', 'the output directory', 'site')
    .option('--ledger <id>', 'only this canvas (repeatable)', collect)
    .option('--from <url>', 'build a remote or bare repository, with no workspace (docs/remote.md, "CI from the remote")')
    .option('--at <sha>', "with --from: the site as the remote's main stood at this commit")
    .option('--workers <n>', 'threads rendering canvases, this one among them (default: one per core)', workers)
    .option('--verify-output', 're-hash every output file against the manifest and rebuild what differs')
    .option('--vendor-mermaid [dir]', 'put the pinned Mermaid module into the site, so its pages draw diagrams offline (from DIR, else node_modules/mermaid above the current directory)')
    .action(async (o: BuildFlags) => {
      if (o.at !== undefined && o.from === undefined) throw new CanvasError('USAGE', '--at needs --from', 'canvas build --from <url> --at <sha> --out DIR');
      for (const id of o.ledger ?? []) checkLedgerId(id);
      const copy = o.from === undefined ? null : await (await import('../../store/remote/from-remote.js')).copyRemote(o.from, o.at);
      try {
        await build(copy ? copy.ws : workspaceOf(o), o);
      } finally {
        copy?.dispose();
      }
    });
}

/** Build the site of a workspace, and print the report (a failed canvas: exit 8). */
async function build(ws: Workspace, o: BuildFlags): Promise<void> {
  // The output directory is judged by the build itself (docs/site.md, "Where the build writes").
  const [{ buildSite }, { defaultWorkers }] = await Promise.all([import('../../site/build-site.js'), import('../../site/render-pool.js')]);
  const v = o.vendorMermaid;
  const mermaid = v === undefined ? undefined : (await import('../../site/vendor-mermaid.js')).readVendoredMermaid(v === true ? undefined : v, process.cwd());
  const report = await buildSite(ws, {
    out: o.out,
    ledgers: o.ledger,
    onProgress: o.json ? undefined : progress(),
    workers: o.workers ?? defaultWorkers(),
    verifyOutput: o.verifyOutput === true,
    mermaid,
  });
  if (o.json) {
    printJson(report);
  } else {
    for (const f of report.failed) process.stderr.write(`canvas: ${f.code}: ${f.ledger}: ${f.message}\n`);
    // A warning is a notice, not an error: --quiet drops it (docs/cli.md, "Every command").
    if (!isQuiet()) for (const w of report.warnings) process.stderr.write(`canvas: warning: ${w.problem}: ${w.message}\n`);
    process.stdout.write(`built ${report.built.length}, unchanged ${report.unchanged.length}, failed ${report.failed.length}\nsite: ${report.out}/index.html\n`);
    const m = report.vendored;
    if (m) process.stdout.write(`mermaid ${m.mermaid}: ${m.files} files in ${report.out}/_vendor/mermaid-${m.mermaid} (${m.written} written)\n`);
  }
  if (report.failed.length > 0) {
    // Its own exit code, not 1 (an internal error): the rest of the site was built (docs/site.md).
    if (o.json) process.exitCode = exitCodeFor(errorKindOf('BUILD_FAILED'));
    else
      throw new CanvasError(
        'BUILD_FAILED',
        `${report.failed.length} canvas(es) could not be built: ${report.failed.map((f) => f.ledger).join(', ')}`,
        'the rest of the site was built; run `canvas verify` on the workspace and `canvas read <ledger>` on each one named',
      );
  }
}
