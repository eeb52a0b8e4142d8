import { describe, expect, it } from 'vitest';
import { grantRole, revokeRole } from '../../../src/store/write/access-writes.js';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { nodeHistory } from '../../../src/store/read/node-history.js';
import { insertNode, moveNode, replaceNode } from '../../../src/store/write/node-writes.js';
import { listProposals } from '../../../src/store/read/list-proposals.js';
import { approveProposal, rejectProposal } from '../../../src/store/write/decide-proposal.js';
import { readAccess } from '../../../src/store/read/read-access.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { AUTHOR, repoState, runCli, tempWorkspace } from '../../helpers/workspace.js';

async function canvasWithNode() {
  const ws = tempWorkspace();
  await createCanvas(ws, { ledger: 'r', why: 'roles', author: AUTHOR });
  let base = (await readCanvas(ws, { ledger: 'r' })).revision;
  const s = await insertNode(ws, { ledger: 'r', into: 'root', payload: { section: 'Notes' }, base, why: 'a section', author: AUTHOR });
  const t = await insertNode(ws, { ledger: 'r', after: s.outcome === 'applied' ? s.node! : '', payload: { text: 'Draft.' }, base: (s as { revision: string }).revision, why: 'a draft', author: AUTHOR });
  if (t.outcome !== 'applied' || s.outcome !== 'applied') throw new Error('setup');
  base = t.revision;
  return { ws, section: s.node!, node: t.node!, base };
}

describe('roles, grants and proposals (docs/roles.md)', () => {
  it('the creator is owner; no default role: an ungranted who gets NO_ROLE naming the canvas', async () => {
    const { ws, node, base } = await canvasWithNode();
    expect((await readAccess(ws, { ledger: 'r' })).grants).toEqual({ leo: 'owner' });
    const before = repoState(ws);
    await expect(replaceNode(ws, { ledger: 'r', node, payload: { text: 'x' }, base, why: 'x', author: 'zed' })).rejects.toMatchObject({
      code: 'NO_ROLE',
      message: expect.stringContaining('canvas r'),
    });
    expect(repoState(ws)).toEqual(before);
    const cli = await runCli(ws, ['replace', 'r', node, '--text', 'x', '--base', base, '--why', 'x', '--author', 'zed', '--json']);
    expect(cli.code).toBe(5);
    expect(JSON.parse(cli.stdout).error).toMatchObject({ code: 'NO_ROLE' });
  });

  it('a viewer is rejected; a commenter proposes; an editor applies; the owner approves; history shows two identities', async () => {
    const { ws, node, base } = await canvasWithNode();
    for (const [who, role] of [
      ['vic', 'viewer'],
      ['cam', 'commenter'],
      ['eve', 'editor'],
    ] as const) {
      expect((await grantRole(ws, { ledger: 'r', who, role, why: `${who} joins`, author: AUTHOR })).outcome).toBe('applied');
    }
    const viewer = await replaceNode(ws, { ledger: 'r', node, payload: { text: 'v' }, base, why: 'viewer', author: 'vic' });
    expect(viewer).toMatchObject({ outcome: 'rejected', code: 'ROLE_TOO_LOW' });
    const head = (await readCanvas(ws, { ledger: 'r' })).revision;
    const proposed = await replaceNode(ws, { ledger: 'r', node, payload: { text: 'Better draft.' }, base: head, why: 'clearer', author: 'cam | step:review' });
    expect(proposed.outcome).toBe('proposed');
    const id = (proposed as { proposalId: string }).proposalId;
    expect((await readCanvas(ws, { ledger: 'r' })).xml).toContain('Draft.');
    const approved = await approveProposal(ws, { ledger: 'r', proposal: id, why: 'agreed, clearer', author: AUTHOR });
    expect(approved).toMatchObject({ outcome: 'applied', node });
    expect((await readCanvas(ws, { ledger: 'r' })).xml).toContain('Better draft.');
    const h = await nodeHistory(ws, { ledger: 'r', node });
    expect(h.at(-1)).toMatchObject({ op: 'replace', author: 'leo | by-hand', proposedBy: 'cam | step:review', reason: 'agreed, clearer' });
    const again = await approveProposal(ws, { ledger: 'r', proposal: id, why: 'twice', author: AUTHOR });
    expect(again).toMatchObject({ outcome: 'rejected', code: 'PROPOSAL_DECIDED' });
    const edit = await replaceNode(ws, { ledger: 'r', node, payload: { text: 'Eve wrote this.' }, base: (approved as { revision: string }).revision, why: 'eve', author: 'eve' });
    expect(edit.outcome).toBe('applied');
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });

  it('approving a proposal whose node moved since its base is a conflict; it stays open and can be rejected once', async () => {
    const { ws, node, section, base } = await canvasWithNode();
    await grantRole(ws, { ledger: 'r', who: 'cam', role: 'commenter', why: 'cam joins', author: AUTHOR });
    const head = (await readCanvas(ws, { ledger: 'r' })).revision;
    const p = await replaceNode(ws, { ledger: 'r', node, payload: { text: 'cam says' }, base: head, why: 'a proposal', author: 'cam' });
    expect(p.outcome).toBe('proposed');
    const id = (p as { proposalId: string }).proposalId;
    const now = (await readCanvas(ws, { ledger: 'r' })).revision;
    expect((await moveNode(ws, { ledger: 'r', node, into: section, base: now, why: 'belongs in Notes', author: AUTHOR })).outcome).toBe('applied');
    const before = repoState(ws);
    const approval = await approveProposal(ws, { ledger: 'r', proposal: id, why: 'ok', author: AUTHOR });
    expect(approval).toMatchObject({ outcome: 'conflict', node });
    expect(repoState(ws)).toEqual(before);
    expect((await listProposals(ws, { ledger: 'r' }))[0]).toMatchObject({ id, status: 'open' });
    expect((await rejectProposal(ws, { ledger: 'r', proposal: id, why: 'stale now', author: AUTHOR })).outcome).toBe('applied');
    expect(await rejectProposal(ws, { ledger: 'r', proposal: id, why: 'again', author: AUTHOR })).toMatchObject({ code: 'PROPOSAL_DECIDED' });
    expect(await approveProposal(ws, { ledger: 'r', proposal: 'ffffffffff', why: 'x', author: AUTHOR })).toMatchObject({ code: 'PROPOSAL_NOT_FOUND' });
    void base;
  });

  it('a proposer who became editor cannot approve their own proposal (SELF_APPROVAL), whatever their step; another editor can', async () => {
    const { ws, node } = await canvasWithNode();
    await grantRole(ws, { ledger: 'r', who: 'cam', role: 'commenter', why: 'cam joins', author: AUTHOR });
    const head = (await readCanvas(ws, { ledger: 'r' })).revision;
    const p = await replaceNode(ws, { ledger: 'r', node, payload: { text: 'cam says' }, base: head, why: 'a proposal', author: 'cam | step:draft' });
    const id = (p as { proposalId: string }).proposalId;
    await grantRole(ws, { ledger: 'r', who: 'cam', role: 'editor', why: 'cam edits now', author: AUTHOR });
    const before = repoState(ws);
    expect(await approveProposal(ws, { ledger: 'r', proposal: id, why: 'mine, fine', author: 'cam | step:review' })).toMatchObject({
      outcome: 'rejected',
      code: 'SELF_APPROVAL',
      data: { proposal: id, who: 'cam' },
    });
    expect(repoState(ws)).toEqual(before);
    const cli = await runCli(ws, ['approve', 'r', id, '--why', 'mine', '--author', 'cam', '--json']);
    expect(cli.code).toBe(2);
    expect(JSON.parse(cli.stdout)).toMatchObject({ outcome: 'rejected', code: 'SELF_APPROVAL' });
    expect((await listProposals(ws, { ledger: 'r' }))[0]).toMatchObject({ id, status: 'open' });
    expect((await approveProposal(ws, { ledger: 'r', proposal: id, why: 'agreed', author: AUTHOR })).outcome).toBe('applied');
  });

  it("grants are the owner's; an explicit grant beats *; the last owner stays", async () => {
    const { ws, node } = await canvasWithNode();
    await grantRole(ws, { ledger: 'r', who: '*', role: 'viewer', why: 'everyone reads', author: AUTHOR });
    await grantRole(ws, { ledger: 'r', who: 'eve', role: 'editor', why: 'eve edits', author: AUTHOR });
    expect(await grantRole(ws, { ledger: 'r', who: 'x', role: 'owner', why: 'x', author: 'eve' })).toMatchObject({ code: 'ROLE_TOO_LOW' });
    const head = (await readCanvas(ws, { ledger: 'r' })).revision;
    expect((await replaceNode(ws, { ledger: 'r', node, payload: { text: 'eve' }, base: head, why: 'eve', author: 'eve' })).outcome).toBe('applied');
    const h2 = (await readCanvas(ws, { ledger: 'r' })).revision;
    expect(await replaceNode(ws, { ledger: 'r', node, payload: { text: 'anon' }, base: h2, why: 'anyone', author: 'anon' })).toMatchObject({ code: 'ROLE_TOO_LOW' });
    expect(await revokeRole(ws, { ledger: 'r', who: 'leo', why: 'leave', author: AUTHOR })).toMatchObject({ code: 'LAST_OWNER' });
    expect(await grantRole(ws, { ledger: 'r', who: 'leo', role: 'editor', why: 'step down', author: AUTHOR })).toMatchObject({ code: 'LAST_OWNER' });
    expect(await grantRole(ws, { ledger: 'r', who: 'eve', role: 'boss' as 'owner', why: 'x', author: AUTHOR })).toMatchObject({ code: 'BAD_ROLE' });
    expect((await grantRole(ws, { ledger: 'r', who: 'eve', role: 'owner', why: 'eve co-owns', author: AUTHOR })).outcome).toBe('applied');
    expect((await revokeRole(ws, { ledger: 'r', who: 'leo', why: 'leo leaves', author: 'eve' })).outcome).toBe('applied');
    expect((await readAccess(ws, { ledger: 'r' })).grants).toEqual({ '*': 'viewer', eve: 'owner' });
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });
});

describe('idempotency keys (docs/roles.md, "Idempotency")', () => {
  it('the same key and request applies once; another request with the key is rejected; keys are per who', async () => {
    const { ws, node, base } = await canvasWithNode();
    const req = { ledger: 'r', node, payload: { text: 'once' }, base, why: 'retry-safe', author: AUTHOR, idempotencyKey: 'k-1' };
    const first = await replaceNode(ws, req);
    expect(first.outcome).toBe('applied');
    const state = repoState(ws);
    const second = await replaceNode(ws, req);
    expect(second).toMatchObject({ outcome: 'applied', revision: (first as { revision: string }).revision, replayed: true });
    expect(repoState(ws)).toEqual(state);
    const other = await replaceNode(ws, { ...req, payload: { text: 'different' } });
    expect(other).toMatchObject({ outcome: 'rejected', code: 'IDEMPOTENCY_MISMATCH' });
    expect(repoState(ws)).toEqual(state);
    const h = await nodeHistory(ws, { ledger: 'r', node });
    expect(h.filter((e) => e.reason === 'retry-safe')).toHaveLength(1);
  });
});
