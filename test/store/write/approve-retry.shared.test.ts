import { describe, expect, it } from 'vitest';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Applied, Proposed } from '../../../src/store/repo/outcome.js';
import { approveProposal, rejectProposal } from '../../../src/store/write/decide-proposal.js';
import { readCanvasText } from '../../../src/store/read/read-canvas.js';
import { repoState, tempWorkspace } from '../../helpers/workspace.js';

async function proposalOnCanvas() {
  const ws = tempWorkspace();
  await createCanvas(ws, { ledger: 'k', why: 'keys', author: 'leo' });
  await grantRole(ws, { ledger: 'k', who: 'cam', role: 'commenter', why: 'cam comments', author: 'leo' });
  const base = (await readCanvasText(ws, { ledger: 'k' })).revision;
  const t = (await insertNode(ws, { ledger: 'k', into: 'root', payload: { text: 'Draft.' }, base, why: 'a draft', author: 'leo' })) as Applied;
  const p = (await replaceNode(ws, { ledger: 'k', node: t.node!, payload: { text: 'Better.' }, base: t.revision, why: 'clearer', author: 'cam' })) as Proposed;
  const q = (await replaceNode(ws, { ledger: 'k', node: t.node!, payload: { text: 'Other.' }, base: p.revision, why: 'other', author: 'cam' })) as Proposed;
  return { ws, node: t.node!, proposal: p.proposalId, other: q.proposalId };
}

describe('idempotency keys on decisions (docs/roles.md, "Idempotency")', () => {
  it('a retried approval with the same key returns the original applied outcome and writes nothing', async () => {
    const { ws, node, proposal, other } = await proposalOnCanvas();
    const req = { ledger: 'k', proposal, why: 'agreed', author: 'leo', idempotencyKey: 'approve-1' };
    const first = (await approveProposal(ws, req)) as Applied;
    expect(first).toMatchObject({ outcome: 'applied', node });
    const state = repoState(ws);
    expect(await approveProposal(ws, req)).toMatchObject({ outcome: 'applied', revision: first.revision, node, replayed: true });
    expect(repoState(ws)).toEqual(state);
    // The key with another request is still refused, and a decided proposal without a key too.
    expect(await approveProposal(ws, { ...req, proposal: other })).toMatchObject({ outcome: 'rejected', code: 'IDEMPOTENCY_MISMATCH' });
    expect(await approveProposal(ws, { ...req, idempotencyKey: undefined })).toMatchObject({ outcome: 'rejected', code: 'PROPOSAL_DECIDED' });
    expect(repoState(ws)).toEqual(state);
  });

  it('a retried rejection with the same key returns the original outcome and writes nothing', async () => {
    const { ws, proposal } = await proposalOnCanvas();
    const req = { ledger: 'k', proposal, why: 'not now', author: 'leo', idempotencyKey: 'reject-1' };
    const first = (await rejectProposal(ws, req)) as Applied;
    expect(first).toMatchObject({ outcome: 'applied', node: null });
    const state = repoState(ws);
    expect(await rejectProposal(ws, req)).toMatchObject({ outcome: 'applied', revision: first.revision, replayed: true });
    expect(repoState(ws)).toEqual(state);
  });
});
