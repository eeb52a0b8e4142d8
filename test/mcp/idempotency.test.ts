import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { nodeHistory } from '../../src/store/read/node-history.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import { listProposals } from '../../src/store/read/list-proposals.js';
import { readCanvasText } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { repoState, tempWorkspace } from '../helpers/workspace.js';

describe('canvas mcp: idempotency keys (docs/mcp.md, "Idempotency")', () => {
  let ws: Workspace;
  let eve: McpSession;
  let cam: McpSession;
  let node = '';
  let base = '';

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-idem-');
    await createCanvas(ws, { ledger: 'k', why: 'keys', author: 'leo' });
    await grantRole(ws, { ledger: 'k', who: 'eve', role: 'editor', why: 'eve edits', author: 'leo' });
    await grantRole(ws, { ledger: 'k', who: 'cam', role: 'commenter', why: 'cam comments', author: 'leo' });
    const t = (await insertNode(ws, { ledger: 'k', into: 'root', payload: { text: 'Draft.' }, base: (await readCanvasText(ws, { ledger: 'k' })).revision, why: 'a draft', author: 'leo' })) as Applied;
    node = t.node!;
    base = t.revision;
    [eve, cam] = await Promise.all([connectAs(ws, 'eve'), connectAs(ws, 'cam')]);
  });

  afterAll(async () => {
    await Promise.all([eve.close(), cam.close()]);
  });

  it('a retried write with the same key applies once and returns the first outcome; with a different request it is rejected', async () => {
    const call = { workspace: ws.root, ledger: 'k', node, text: 'Once.', base, why: 'retry-safe edit', idempotencyKey: 'edit-1' };
    const first = (await eve.write('canvas_replace', call)) as Applied;
    expect(first).toMatchObject({ outcome: 'applied', node });
    const state = repoState(ws);
    const retry = await eve.write('canvas_replace', call);
    expect(retry).toMatchObject({ outcome: 'applied', revision: first.revision, node, replayed: true });
    expect(repoState(ws)).toEqual(state);
    for (const changed of [{ text: 'Twice.' }, { why: 'another reason' }, { base: first.revision }]) {
      expect(await eve.write('canvas_replace', { ...call, ...changed })).toMatchObject({ outcome: 'rejected', code: 'IDEMPOTENCY_MISMATCH' });
    }
    expect(repoState(ws)).toEqual(state);
    expect((await nodeHistory(ws, { ledger: 'k', node })).filter((h) => h.reason === 'retry-safe edit')).toHaveLength(1);
  });

  it('a retried proposal with the same key is proposed once, with the same id', async () => {
    const { base: now } = await cam.read('k');
    const call = { workspace: ws.root, ledger: 'k', after: node, question: 'Who reviews it?', base: now, why: 'nobody reviews yet', idempotencyKey: 'q-1' };
    const first = await cam.write('canvas_insert', call);
    expect(first.outcome).toBe('proposed');
    const state = repoState(ws);
    const retry = await cam.write('canvas_insert', call);
    expect(retry).toMatchObject({ outcome: 'proposed', proposalId: (first as { proposalId: string }).proposalId, replayed: true });
    expect(repoState(ws)).toEqual(state);
    expect(await listProposals(ws, { ledger: 'k' })).toHaveLength(1);
  });

  it('a retried approval with the same key returns the first outcome instead of PROPOSAL_DECIDED', async () => {
    const [proposal] = await listProposals(ws, { ledger: 'k' });
    const call = { workspace: ws.root, ledger: 'k', proposalId: proposal!.id, why: 'a reviewer is needed', idempotencyKey: 'approve-1' };
    const first = (await eve.write('canvas_approve_proposal', call)) as Applied;
    expect(first.outcome).toBe('applied');
    const state = repoState(ws);
    expect(await eve.write('canvas_approve_proposal', call)).toMatchObject({ outcome: 'applied', revision: first.revision, replayed: true });
    expect(repoState(ws)).toEqual(state);
  });

  it('a key is scoped to the who: another identity with the same key writes its own edit', async () => {
    const { base: now } = await eve.read('k');
    const o = await eve.write('canvas_insert', { workspace: ws.root, ledger: 'k', after: node, text: 'Eve adds.', base: now, why: 'eve adds', idempotencyKey: 'q-1' });
    expect(o).toMatchObject({ outcome: 'applied' });
    expect((o as Applied).replayed).toBeUndefined();
  });
});
