import type { Command } from 'commander';
import { CanvasError, EXIT_CODES } from '../../model/canvas-error.js';
import type { CheckReport } from '../../check/check-coherence.js';
import { workspaceOf } from '../context.js';
import { diffLines, printJson } from '../output.js';

interface CheckFlags {
  workspace?: string;
  author?: string;
  json?: boolean;
  at?: string;
  dryRun?: boolean;
  timeout?: number;
  budget?: number;
}

function seconds(flag: string) {
  return (v: string): number => {
    if (!/^[0-9]+(\.[0-9]+)?$/.test(v) || Number(v) <= 0) throw new CanvasError('USAGE', `${flag} ${v} is not a positive number of seconds`, `for example ${flag} 60`);
    return Number(v);
  };
}

/** The exit code of a report: 3 when an insert met a conflict, 2 when one was rejected, else 0. */
function exitOf(r: CheckReport): number {
  if (r.findings.some((f) => f.status === 'conflict')) return EXIT_CODES.conflict;
  if (r.findings.some((f) => f.status === 'rejected')) return EXIT_CODES.rejected;
  return EXIT_CODES.ok;
}

function print(r: CheckReport): void {
  const out = process.stdout;
  const n = r.findings.length;
  out.write(
    r.asked
      ? `checked ${r.ledger} at ${r.revision.slice(0, 12)} with ${r.model}: ${n === 0 ? 'no contradiction' : `${n} contradiction${n === 1 ? '' : 's'}`}\n`
      : `checked ${r.ledger} at ${r.revision.slice(0, 12)}: fewer than two nodes to compare; the model was not asked\n`,
  );
  for (const f of r.findings) {
    const head =
      f.status === 'asked'
        ? `asked ${f.node} after ${f.after}`
        : f.status === 'proposed'
          ? `proposed ${f.proposalId} (a question after ${f.after}; an editor or owner approves it)`
          : f.status === 'already-asked'
            ? `already asked${f.node ? ` by ${f.node}` : ' at this revision'}`
            : f.status === 'would-ask'
              ? `would ask after ${f.after}`
              : f.status;
    out.write(`${head}: ${f.text}\n  evidence: ${f.evidence || '(none given)'}\n`);
    if (f.outcome?.outcome === 'conflict') out.write(`  ${f.after} changed since ${r.revision.slice(0, 12)}; nothing was inserted\n${diffLines(f.outcome.diff).join('\n')}\n`);
    if (f.outcome?.outcome === 'rejected') out.write(`  canvas: ${f.outcome.code}: ${f.outcome.reason}\n  hint: ${f.outcome.hint}\n`);
  }
  for (const s of r.skipped) out.write(`set aside entry ${s.entry + 1} (${s.rule}): ${s.why}\n`);
  if (r.dryRun && n > 0) out.write('dry run: nothing written\n');
  out.write(`Canvas-Base: ${r.head}\n`);
}

/** Register `canvas check` (docs/coherence.md, docs/cli.md). */
export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description('ask a model for contradictions between the nodes of a canvas; write each as an open question')
    .argument('<ledger>', 'the ledger id')
    .option('--at <sha>', 'check the canvas as it stood at this commit (default: its latest revision)')
    .option('--dry-run', 'ask the model and report; write nothing')
    .option('--timeout <seconds>', 'the longest wait for one answer of the model (default 60)', seconds('--timeout'))
    .option('--budget <seconds>', 'the longest the check waits on the model in all, retries included (default 180)', seconds('--budget'))
    .option('--workspace <dir>', 'the workspace (else $CANVAS_WORKSPACE, else $OPENCLAW_WORKSPACE)')
    .option('--author <author>', 'who writes the questions (else $CANVAS_CHECK_AUTHOR, else "coherence | step:check")')
    .option('--json', 'print the report as one JSON object')
    .addHelpText(
      'after',
      '\nEnvironment: CANVAS_MODEL_URL (an OpenAI-compatible API, e.g. http://127.0.0.1:8080/v1), CANVAS_MODEL, CANVAS_MODEL_API_KEY (optional, never printed), CANVAS_CHECK_AUTHOR.\nExit codes: 0 checked, 2 rejected or usage, 3 an insert met a conflict, 5 no role, 6 the model could not be asked, 7 its reply was refused.\nDocs: docs/coherence.md',
    )
    .action(async (ledger: string, o: CheckFlags) => {
      const { checkCoherence } = await import('../../check/check-coherence.js');
      const report = await checkCoherence(workspaceOf(o), {
        ledger,
        at: o.at,
        dryRun: o.dryRun === true,
        author: o.author ?? (process.env.CANVAS_CHECK_AUTHOR || undefined),
        timeoutMs: o.timeout !== undefined ? o.timeout * 1000 : undefined,
        budgetMs: o.budget !== undefined ? o.budget * 1000 : undefined,
      });
      if (o.json) printJson(report);
      else print(report);
      process.exitCode = exitOf(report);
    });
}
