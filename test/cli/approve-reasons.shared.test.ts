import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, tempWorkspace } from '../helpers/workspace.js';

/** An approved proposal carries both reasons: the approver's in its subject, the proposer's in a trailer. */
describe('approving a proposal records the proposer and the approver, and both their reasons', () => {
  let ws: Workspace;
  let node = '';
  let approved = '';
  let proposal = '';
  const CAM = { CANVAS_AUTHOR: 'cam | step:review' };

  beforeAll(async () => {
    ws = tempWorkspace('canvas-approve-why-');
    expect((await runMain(ws, ['create', 'ap', '--why', 'a canvas to review'])).code).toBe(0);
    const read = await runMain(ws, ['read', 'ap']);
    const out = await runMain(ws, ['insert', 'ap', '--into', 'root', '--text', 'Ship Friday.', '--base', baseOf(read.stdout), '--why', 'the plan', '--json']);
    node = (JSON.parse(out.stdout) as { node: string }).node;
    expect((await runMain(ws, ['grant', 'ap', 'cam', 'commenter', '--why', 'cam reviews'])).code).toBe(0);
    const again = await runMain(ws, ['read', 'ap']);
    const proposed = await runMain(ws, ['replace', 'ap', node, '--text', 'Ship Monday.', '--base', baseOf(again.stdout), '--why', 'QA needs the weekend', '--json'], CAM);
    proposal = (JSON.parse(proposed.stdout) as { outcome: string; proposalId: string }).proposalId;
    const a = await runMain(ws, ['approve', 'ap', proposal, '--why', 'agreed, Monday is safer', '--json']);
    expect(a.code, a.stdout).toBe(0);
    approved = (JSON.parse(a.stdout) as { revision: string }).revision;
  });

  it("the approval commit carries the proposer's reason in Canvas-Proposed-Why, the approver's in its subject", () => {
    const message = execFileSync('git', ['log', '-1', '--format=%B', approved], { cwd: ws.repo, encoding: 'utf8' });
    expect(message.split('\n')[0]).toBe(`replace ${node}: agreed, Monday is safer`);
    expect(message).toContain('\nCanvas-Proposed-By: cam | step:review\n');
    expect(message).toContain('\nCanvas-Proposed-Why: QA needs the weekend\n');
  });

  it('history shows both identities and both reasons (text and JSON)', async () => {
    const text = await runMain(ws, ['history', 'ap', node]);
    expect(text.stdout).toContain(
      `Canvas-Commit: ${approved}\nCanvas-Author: leo | by-hand\nCanvas-Proposed-By: cam | step:review\nCanvas-Proposed-Why: QA needs the weekend\nreplace: agreed, Monday is safer\n`,
    );
    const json = JSON.parse((await runMain(ws, ['history', 'ap', node, '--json'])).stdout) as { commits: Record<string, string>[] };
    expect(json.commits.at(-1)).toMatchObject({ commit: approved, author: 'leo | by-hand', reason: 'agreed, Monday is safer', proposedBy: 'cam | step:review', proposedWhy: 'QA needs the weekend' });
  });

  it('the proposal names the revision it was made at proposedRevision (a sha), not proposedAt', async () => {
    const listed = JSON.parse((await runMain(ws, ['proposals', 'ap', '--json'])).stdout) as { proposals: Record<string, unknown>[] } | Record<string, unknown>[];
    const all = Array.isArray(listed) ? listed : listed.proposals;
    const p = all.find((x) => x.id === proposal)!;
    expect(p.proposedRevision).toMatch(/^[0-9a-f]{40}$/);
    expect(p).not.toHaveProperty('proposedAt');
  });

  it('verify accepts the approval commit', async () => {
    const r = await runMain(ws, ['verify', 'ap']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
});
