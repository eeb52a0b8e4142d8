import type { Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import type { Role } from '../../store/repo/role.js';
import { withGlobal, withWrite } from '../common-options.js';
import { authorOf, type GlobalOptions, workspaceOf } from '../context.js';
import { printJson, printOutcome } from '../output.js';

interface WriteOptions extends GlobalOptions {
  why?: string;
  idempotencyKey?: string;
}

// The store is imported when a command runs, so that `canvas read` never loads the write path.
const writes = () => import('../store-writes.js');

function common(ledger: string, o: WriteOptions) {
  return { ledger, why: o.why ?? '', author: authorOf(o), idempotencyKey: o.idempotencyKey };
}

/** Register grant, revoke, access, proposals, approve and reject (docs/roles.md; docs/cli.md). */
export function registerAccessCommands(program: Command): void {
  withWrite(program.command('grant'))
    .description("grant a role on a canvas (the owner's): viewer < commenter < editor < owner")
    .argument('<ledger>', 'the ledger id')
    .argument('<who>', 'the who to grant, or * for everyone without an explicit grant')
    .argument('<role>', 'viewer, commenter, editor or owner')
    .action(async (ledger: string, who: string, role: string, o: WriteOptions) => {
      process.exitCode = printOutcome(await (await writes()).grantRole(workspaceOf(o), { ...common(ledger, o), who, role: role as Role }), Boolean(o.json), 'grant');
    });

  withWrite(program.command('revoke'))
    .description("remove a who's explicit grant (the owner's; the last owner stays)")
    .argument('<ledger>', 'the ledger id')
    .argument('<who>', 'the who')
    .action(async (ledger: string, who: string, o: WriteOptions) => {
      process.exitCode = printOutcome(await (await writes()).revokeRole(workspaceOf(o), { ...common(ledger, o), who }), Boolean(o.json), 'revoke');
    });

  withGlobal(program.command('access'))
    .description("list a canvas's grants")
    .argument('<ledger>', 'the ledger id')
    .action(async (ledger: string, o: GlobalOptions) => {
      const a = await (await writes()).readAccess(workspaceOf(o), { ledger });
      if (o.json) {
        printJson(a);
        return;
      }
      process.stdout.write(`Canvas-Base: ${a.revision}\ncreator: ${a.creator}\n`);
      for (const [who, role] of Object.entries(a.grants)) process.stdout.write(`${role.padEnd(9)} ${who}\n`);
    });

  withGlobal(program.command('proposals'))
    .description("list a canvas's proposals, open ones first")
    .argument('<ledger>', 'the ledger id')
    .action(async (ledger: string, o: GlobalOptions) => {
      const list = await (await writes()).listProposals(workspaceOf(o), { ledger });
      if (o.json) {
        printJson({ ledger, proposals: list });
        return;
      }
      if (list.length === 0) process.stdout.write('no proposals\n');
      for (const p of list) {
        const target = p.node ?? (p.anchor ? ('into' in p.anchor ? `into ${p.anchor.into}` : `after ${p.anchor.after}`) : '');
        process.stdout.write(`${p.id} ${p.status} ${p.op} ${target} by ${p.proposedBy}: ${p.why}\n`);
        if (p.payload) process.stdout.write(`  ${p.payload.trimEnd().split('\n').join('\n  ')}\n`);
        if (p.decidedBy) process.stdout.write(`  ${p.status} by ${p.decidedBy}: ${p.decision ?? ''}\n`);
      }
    });

  withWrite(program.command('approve'))
    .description('approve a proposal (editor or owner): replayed through the write path against its own base')
    .argument('<ledger>', 'the ledger id')
    .argument('<proposal>', 'the proposal id')
    .action(async (ledger: string, proposal: string, o: WriteOptions) => {
      process.exitCode = printOutcome(await (await writes()).approveProposal(workspaceOf(o), { ...common(ledger, o), proposal }), Boolean(o.json), 'approve', ledger);
    });

  withWrite(program.command('reject'))
    .description('reject a proposal (editor or owner), once')
    .argument('<ledger>', 'the ledger id')
    .argument('<proposal>', 'the proposal id')
    .action(async (ledger: string, proposal: string, o: WriteOptions) => {
      if (!o.why) throw new CanvasError('BAD_REASON', 'a reason is required and must not be blank', 'pass --why with one plain line');
      process.exitCode = printOutcome(await (await writes()).rejectProposal(workspaceOf(o), { ...common(ledger, o), proposal }), Boolean(o.json), 'reject');
    });
}
