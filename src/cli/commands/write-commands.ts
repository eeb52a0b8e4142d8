import type { Command } from 'commander';
import { withEdit, withPayload, withWrite } from '../common-options.js';
import { authorOf, type GlobalOptions, type PayloadOptions, payloadOf, workspaceOf } from '../context.js';
import { printJson, printOutcome } from '../output.js';

interface WriteOptions extends GlobalOptions {
  why?: string;
  idempotencyKey?: string;
  base?: string;
  require?: string;
  after?: string;
  into?: string;
}

function common(ledger: string, o: WriteOptions) {
  return {
    ledger,
    why: o.why ?? '',
    author: authorOf(o),
    idempotencyKey: o.idempotencyKey,
    base: o.base,
    require: o.require,
  };
}

function done(code: number): void {
  process.exitCode = code;
}

// The write path is imported when a write runs, so that reads never load it.
const writes = () => import('../store-writes.js');

/** Register create, open, insert, replace, remove, move, freeze and abandon (docs/cli.md). */
export function registerWriteCommands(program: Command): void {
  withWrite(program.command('create'))
    .description('create a canvas: the root alone, one commit')
    .argument('<ledger>', 'the ledger id')
    .action(async (ledger: string, o: WriteOptions) => {
      done(printOutcome(await (await writes()).createCanvas(workspaceOf(o), common(ledger, o)), Boolean(o.json), 'create'));
    });

  withWrite(program.command('open'))
    .description('create a canvas with the problem and the expected value as its first two text nodes, from the flags or the ledger row')
    .argument('<ledger>', 'the ledger id')
    .option('--problem <text>', 'the problem the task exists to solve (else "problem" of state/ledger/<ledger>.json)')
    .option('--expected-value <text>', 'what is expected when it is done (else "expected_value" of the ledger row)')
    .addHelpText(
      'after',
      [
        '',
        'Each value not given as a flag is read from the ledger row state/ledger/<ledger>.json, which is never written',
        '(keys: problem; expected_value, expectedValue or expected-value). docs/store.md, "The ledger row".',
      ].join('\n'),
    )
    .action(async (ledger: string, o: WriteOptions & { problem?: string; expectedValue?: string }) => {
      const outcome = await (await writes()).openCanvas(workspaceOf(o), { ...common(ledger, o), problem: o.problem, expectedValue: o.expectedValue });
      done(printOutcome(outcome, Boolean(o.json), 'open'));
    });

  withPayload(withEdit(program.command('insert')))
    .description('insert one new node after a sibling or first into a section (or root); the store mints its id')
    .argument('<ledger>', 'the ledger id')
    .option('--after <node>', 'place it right after this node')
    .option('--into <section>', 'place it first in this section, or root')
    .action(async (ledger: string, o: WriteOptions & PayloadOptions) => {
      const outcome = await (await writes()).insertNode(workspaceOf(o), { ...common(ledger, o), after: o.after, into: o.into, payload: payloadOf(o) });
      done(printOutcome(outcome, Boolean(o.json), 'insert', ledger));
    });

  withPayload(withEdit(program.command('replace')))
    .description("replace one node's content: same id and place, v+1; the type may change")
    .argument('<ledger>', 'the ledger id')
    .argument('<node>', 'the node id')
    .action(async (ledger: string, node: string, o: WriteOptions & PayloadOptions) => {
      const outcome = await (await writes()).replaceNode(workspaceOf(o), { ...common(ledger, o), node, payload: payloadOf(o) });
      done(printOutcome(outcome, Boolean(o.json), 'replace', ledger));
    });

  withEdit(program.command('remove'))
    .description('remove one node (a section must be empty first)')
    .argument('<ledger>', 'the ledger id')
    .argument('<node>', 'the node id')
    .action(async (ledger: string, node: string, o: WriteOptions) => {
      done(printOutcome(await (await writes()).removeNode(workspaceOf(o), { ...common(ledger, o), node }), Boolean(o.json), 'remove', ledger));
    });

  withEdit(program.command('move'))
    .description('move one node (a section with its subtree) after a sibling or first into a section (or root)')
    .argument('<ledger>', 'the ledger id')
    .argument('<node>', 'the node id')
    .option('--after <node>', 'place it right after this node')
    .option('--into <section>', 'place it first in this section, or root')
    .action(async (ledger: string, node: string, o: WriteOptions) => {
      const outcome = await (await writes()).moveNode(workspaceOf(o), { ...common(ledger, o), node, after: o.after, into: o.into });
      done(printOutcome(outcome, Boolean(o.json), 'move', ledger));
    });

  withWrite(program.command('freeze'))
    .description('record the end of the work: one commit naming no node and changing no byte')
    .argument('<ledger>', 'the ledger id')
    .option('--with-done', 'also print the done artifact of the frozen revision, for the ledger to store with the freeze')
    .action(async (ledger: string, o: WriteOptions & { withDone?: boolean }) => {
      const ws = workspaceOf(o);
      const outcome = await (await writes()).freezeCanvas(ws, common(ledger, o));
      if (!o.withDone || outcome.outcome !== 'applied') {
        done(printOutcome(outcome, Boolean(o.json), 'freeze'));
        return;
      }
      // The artifact of the freeze's own revision (docs/projections.md, "The done artifact").
      const [{ readSnapshot }, { doneArtifact }, { renderDone }] = await Promise.all([
        import('../../store/read/read-snapshot.js'),
        import('../../render/done/done-artifact.js'),
        import('../../render/done/render-done.js'),
      ]);
      const snapshot = await readSnapshot(ws, { ledger, at: outcome.revision });
      if (o.json) {
        printJson({ ...outcome, done: doneArtifact(snapshot) });
        return;
      }
      done(printOutcome(outcome, false, 'freeze'));
      process.stdout.write(`\n${renderDone(snapshot)}`);
    });

  withWrite(program.command('abandon'))
    .description('end the work as given up: one commit naming no node and changing no byte; the canvas keeps its content and still takes edits')
    .argument('<ledger>', 'the ledger id')
    .addHelpText(
      'after',
      [
        '',
        'Pages, comments, prompts, the index and canvas list then say "abandoned at <sha>: <reason>". A later freeze or',
        'abandon is allowed and shown as the latest ending (docs/store.md, "Endings").',
      ].join('\n'),
    )
    .action(async (ledger: string, o: WriteOptions) => {
      done(printOutcome(await (await writes()).abandonCanvas(workspaceOf(o), common(ledger, o)), Boolean(o.json), 'abandon'));
    });
}
