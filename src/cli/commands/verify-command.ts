import type { Command } from 'commander';
import { CanvasError, EXIT_CODES } from '../../model/canvas-error.js';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';

/** Register `canvas verify [<ledger>]` (exit 4 when a violation is found). */
export function registerVerifyCommand(program: Command): void {
  withGlobal(program.command('verify'))
    .description('replay every commit against the rules and compare the working tree with main (exit 4 on a violation)')
    .argument('[ledger]', 'report on this canvas only')
    .action(async (ledger: string | undefined, o: GlobalOptions) => {
      const { verifyWorkspace } = await import('../../store/verify/verify-workspace.js');
      const report = await verifyWorkspace(workspaceOf(o), { ledger });
      if (o.json) {
        printJson(report);
        process.exitCode = report.ok ? EXIT_CODES.ok : EXIT_CODES.verify;
        return;
      }
      for (const r of report.repaired) process.stdout.write(`repaired: ${r}\n`);
      for (const r of report.unrepaired) process.stdout.write(`not repaired: ${r}\n`);
      for (const v of report.violations) {
        const where = [v.commit ? `commit ${v.commit.slice(0, 12)}` : '', v.ledger ? `canvas ${v.ledger}` : '', v.path ?? ''].filter(Boolean).join(', ');
        process.stdout.write(`violation ${v.rule}${v.code ? ` ${v.code}` : ''}: ${v.message}${where ? ` (${where})` : ''}\n`);
      }
      for (const w of report.warnings) process.stdout.write(`warning canvas-link ${w.problem}: ${w.message}\n`);
      if (!report.ok) {
        throw new CanvasError(
          'VERIFY_FAILED',
          `${report.violations.length} violation(s) in ${report.commits} commit(s)`,
          'each line above names the commit or file; changes made outside the tool are kept for you to inspect',
          { violations: report.violations.length },
        );
      }
      process.stdout.write(`verified ${report.commits} commit(s), ${report.canvases} canvas(es): ok\n`);
    });
}
