import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grantRole, revokeRole } from '../../../src/store/write/access-writes.js';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Applied, Proposed } from '../../../src/store/repo/outcome.js';
import { approveProposal, rejectProposal } from '../../../src/store/write/decide-proposal.js';
import { readCanvasText } from '../../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { repoState, tempWorkspace } from '../../helpers/workspace.js';

/**
 * A crash after a commit and before its working files were written leaves every file that
 * commit touched one revision behind (docs/store.md, "Concurrency and crashes"). These tests
 * put the working files back as they were before the commit, as such a crash leaves them.
 */

function atMain(ws: Workspace, path: string): string {
  return execFileSync('git', ['show', `main:${path}`], { cwd: ws.repo, encoding: 'utf8' });
}

function working(ws: Workspace, path: string): string {
  return readFileSync(join(ws.repo, path), 'utf8');
}

async function withProposal() {
  const ws = tempWorkspace();
  await createCanvas(ws, { ledger: 'k', why: 'crash repair', author: 'leo' });
  await grantRole(ws, { ledger: 'k', who: 'cam', role: 'commenter', why: 'cam comments', author: 'leo' });
  const base = (await readCanvasText(ws, { ledger: 'k' })).revision;
  const t = (await insertNode(ws, { ledger: 'k', into: 'root', payload: { text: 'Draft.' }, base, why: 'a draft', author: 'leo' })) as Applied;
  const p = (await replaceNode(ws, { ledger: 'k', node: t.node!, payload: { text: 'Better.' }, base: t.revision, why: 'clearer', author: 'cam' })) as Proposed;
  expect(p.outcome).toBe('proposed');
  return { ws, node: t.node!, proposal: p.proposalId, file: `proposals/k/${p.proposalId}.json` };
}

/** Every working file the tool keeps, snapshotted before a write, to put back after it. */
function snapshot(ws: Workspace): Record<string, string> {
  return repoState(ws).files;
}

function restore(ws: Workspace, files: Record<string, string>): void {
  for (const path of Object.keys(repoState(ws).files)) if (!(path in files)) rmSync(join(ws.repo, path));
  for (const [path, content] of Object.entries(files)) writeFileSync(join(ws.repo, path), content);
}

async function nextWrite(ws: Workspace, node: string, text: string) {
  const base = (await readCanvasText(ws, { ledger: 'k' })).revision;
  return replaceNode(ws, { ledger: 'k', node, payload: { text }, base, why: 'the next write', author: 'leo' });
}

function workingEqualsMain(ws: Workspace): void {
  for (const path of Object.keys(repoState(ws).files)) expect(working(ws, path), path).toBe(atMain(ws, path));
}

describe('crash repair covers every file a commit kind touches', () => {
  it('an approval cut short after its commit: the next write rewrites the proposal file', async () => {
    const { ws, node, proposal, file } = await withProposal();
    const before = snapshot(ws);
    expect((await approveProposal(ws, { ledger: 'k', proposal, why: 'agreed', author: 'leo' })).outcome).toBe('applied');
    restore(ws, before);
    expect(JSON.parse(working(ws, file)).status).toBe('open');
    expect((await nextWrite(ws, node, 'After the crash.')).outcome).toBe('applied');
    expect(JSON.parse(working(ws, file)).status).toBe('approved');
    workingEqualsMain(ws);
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });

  it('an approval cut short after its commit: verify repairs the proposal file and is green', async () => {
    const { ws, proposal, file } = await withProposal();
    const before = snapshot(ws);
    await approveProposal(ws, { ledger: 'k', proposal, why: 'agreed', author: 'leo' });
    restore(ws, before);
    const report = await verifyWorkspace(ws);
    expect(report.violations).toEqual([]);
    expect(report.repaired.some((r) => r.includes(file))).toBe(true);
    workingEqualsMain(ws);
  });

  it('a rejection cut short after its commit: the next write rewrites the proposal file', async () => {
    const { ws, node, proposal, file } = await withProposal();
    const before = snapshot(ws);
    await rejectProposal(ws, { ledger: 'k', proposal, why: 'not now', author: 'leo' });
    restore(ws, before);
    expect((await nextWrite(ws, node, 'After the crash.')).outcome).toBe('applied');
    expect(JSON.parse(working(ws, file)).status).toBe('rejected');
    workingEqualsMain(ws);
  });

  it('a proposal cut short after its commit: the next write (a grant) writes the new proposal file', async () => {
    const { ws, node } = await withProposal();
    const before = snapshot(ws);
    const base = (await readCanvasText(ws, { ledger: 'k' })).revision;
    const p = (await replaceNode(ws, { ledger: 'k', node, payload: { text: 'Other.' }, base, why: 'other', author: 'cam' })) as Proposed;
    restore(ws, before);
    expect((await grantRole(ws, { ledger: 'k', who: 'ada', role: 'viewer', why: 'ada reads', author: 'leo' })).outcome).toBe('applied');
    expect(JSON.parse(working(ws, `proposals/k/${p.proposalId}.json`)).status).toBe('open');
    workingEqualsMain(ws);
  });

  it('a revoke cut short after its commit: the next write (a rejection) rewrites the access file', async () => {
    const { ws, proposal } = await withProposal();
    const before = snapshot(ws);
    await revokeRole(ws, { ledger: 'k', who: 'cam', why: 'cam left', author: 'leo' });
    restore(ws, before);
    expect((await rejectProposal(ws, { ledger: 'k', proposal, why: 'cam left', author: 'leo' })).outcome).toBe('applied');
    expect(JSON.parse(working(ws, 'access/k.json')).grants.cam).toBeUndefined();
    workingEqualsMain(ws);
  });

  it('a proposal file that matches neither revision is refused as DIRTY_WORKTREE and left as it is', async () => {
    const { ws, node, proposal, file } = await withProposal();
    await approveProposal(ws, { ledger: 'k', proposal, why: 'agreed', author: 'leo' });
    writeFileSync(join(ws.repo, file), '{"typed": "by hand"}\n');
    const state = repoState(ws);
    expect(await nextWrite(ws, node, 'Over it.')).toMatchObject({ outcome: 'rejected', code: 'DIRTY_WORKTREE', data: { file: join(ws.repo, file) } });
    expect(repoState(ws)).toEqual(state);
  });
});
