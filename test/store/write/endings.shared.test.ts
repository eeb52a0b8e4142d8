import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderComment } from '../../../src/render/comment/render-comment.js';
import { renderPrompt } from '../../../src/render/text/render-prompt.js';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { abandonCanvas, freezeCanvas, openCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Outcome } from '../../../src/store/repo/outcome.js';
import { readSnapshot } from '../../../src/store/read/read-snapshot.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { runMain } from '../../helpers/run-main.js';
import { AUTHOR, repoState, tempWorkspace } from '../../helpers/workspace.js';

function applied(o: Outcome): { revision: string; node: string | null; nodes?: string[] } {
  if (o.outcome !== 'applied') throw new Error(`not applied: ${JSON.stringify(o)}`);
  return o;
}

const git = (ws: Workspace, args: string[]) => execFileSync('git', args, { cwd: ws.repo, encoding: 'utf8' }).trim();

async function opened(ledger = 'end'): Promise<{ ws: Workspace; nodes: string[]; revision: string }> {
  const ws = tempWorkspace();
  const o = applied(await openCanvas(ws, { ledger, problem: 'Exports time out.', expectedValue: 'Exports finish in a minute.', why: 'opened', author: AUTHOR }));
  return { ws, nodes: o.nodes!, revision: o.revision };
}

async function endingOf(ws: Workspace, ledger = 'end', at?: string) {
  return (await readSnapshot(ws, { ledger, at })).ending;
}

describe('canvas abandon (docs/store.md, "Endings")', () => {
  it('is one empty commit naming no node, authored and reasoned, and verify accepts it', async () => {
    const { ws, revision } = await opened();
    const o = applied(await abandonCanvas(ws, { ledger: 'end', why: 'superseded by end-2', author: AUTHOR }));
    expect(o.node).toBeNull();
    expect(git(ws, ['rev-parse', `${o.revision}^{tree}`])).toBe(git(ws, ['rev-parse', `${revision}^{tree}`]));
    expect(git(ws, ['log', '-1', '--format=%B', o.revision])).toBe(`abandon: superseded by end-2\n\nCanvas-Op: abandon\nCanvas-Ledger: end\nCanvas-Author: ${AUTHOR}\nCanvas-Previous: ${revision}`);
    expect(await endingOf(ws)).toMatchObject({ kind: 'abandoned', commit: o.revision, reason: 'superseded by end-2', author: AUTHOR, editedSince: false });
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });

  it("is an editor's or owner's: a commenter and a viewer are refused, nothing written", async () => {
    const { ws } = await opened();
    applied(await grantRole(ws, { ledger: 'end', who: 'cam', role: 'commenter', why: 'cam reviews', author: AUTHOR }));
    applied(await grantRole(ws, { ledger: 'end', who: 'vic', role: 'viewer', why: 'vic reads', author: AUTHOR }));
    const before = repoState(ws);
    for (const who of ['cam', 'vic']) {
      expect(await abandonCanvas(ws, { ledger: 'end', why: 'give up', author: `${who} | by-hand` }), who).toMatchObject({ outcome: 'rejected', code: 'ROLE_TOO_LOW' });
    }
    await expect(abandonCanvas(ws, { ledger: 'end', why: 'give up', author: 'zed | by-hand' })).rejects.toMatchObject({ code: 'NO_ROLE' });
    expect(repoState(ws)).toEqual(before);
    expect(await abandonCanvas(ws, { ledger: 'end', why: '', author: AUTHOR })).toMatchObject({ outcome: 'rejected', code: 'BAD_REASON' });
    expect(await abandonCanvas(ws, { ledger: 'nope', why: 'x', author: AUTHOR })).toMatchObject({ outcome: 'rejected', code: 'CANVAS_NOT_FOUND' });
    expect(repoState(ws)).toEqual(before);
  });
});

describe('the latest ending, with edits between', () => {
  it('freeze, edit, freeze again, abandon, edit: each revision shows its own latest ending', async () => {
    const { ws, nodes } = await opened();
    expect(await endingOf(ws)).toBeNull();
    const f1 = applied(await freezeCanvas(ws, { ledger: 'end', why: 'done: PR 41 merged', author: AUTHOR }));
    expect(await endingOf(ws)).toMatchObject({ kind: 'frozen', commit: f1.revision, editedSince: false });

    const grant = applied(await grantRole(ws, { ledger: 'end', who: 'eve', role: 'editor', why: 'eve maintains it', author: AUTHOR }));
    expect(await endingOf(ws), 'a grant does not change the document').toMatchObject({ commit: f1.revision, editedSince: false });

    const edit = applied(await insertNode(ws, { ledger: 'end', after: nodes[1], payload: { text: 'Found later: the weekly export too.' }, base: grant.revision, why: 'read the weekly job', author: AUTHOR }));
    expect(await endingOf(ws)).toMatchObject({ kind: 'frozen', commit: f1.revision, editedSince: true });

    const f2 = applied(await freezeCanvas(ws, { ledger: 'end', why: 'done again: the weekly export is fixed too', author: 'eve | by-hand' }));
    expect(await endingOf(ws)).toMatchObject({ kind: 'frozen', commit: f2.revision, reason: 'done again: the weekly export is fixed too', editedSince: false });

    const ab = applied(await abandonCanvas(ws, { ledger: 'end', why: 'the export service is retired', author: AUTHOR }));
    expect(await endingOf(ws)).toMatchObject({ kind: 'abandoned', commit: ab.revision, editedSince: false });

    applied(await replaceNode(ws, { ledger: 'end', node: edit.node!, payload: { text: 'Weekly export: fixed, then retired.' }, base: ab.revision, why: 'record what happened', author: AUTHOR }));
    const snapshot = await readSnapshot(ws, { ledger: 'end' });
    expect(snapshot.ending).toMatchObject({ kind: 'abandoned', commit: ab.revision, editedSince: true });
    expect(snapshot.frozen?.commit, 'the latest freeze is still known').toBe(f2.revision);
    expect(renderComment(snapshot)).toContain(`**Abandoned.** This canvas was abandoned at \`${ab.revision}\`; edited since: the export service is retired`);
    expect(renderPrompt(snapshot)).toContain(`This canvas was abandoned at ${ab.revision}; edited since: the export service is retired\nAn abandoned canvas still takes edits`);

    // As of earlier revisions: the ending then, edited since or not then.
    expect(await endingOf(ws, 'end', edit.revision)).toMatchObject({ kind: 'frozen', commit: f1.revision, editedSince: true });
    expect(await endingOf(ws, 'end', grant.revision)).toMatchObject({ kind: 'frozen', commit: f1.revision, editedSince: false });
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });

  it('a facts cache written before it held the ending is folded again, and verify does not call it wrong', async () => {
    const { ws } = await opened();
    const f = applied(await freezeCanvas(ws, { ledger: 'end', why: 'done', author: AUTHOR }));
    const path = join(ws.repo, '.git', 'canvas-cache', 'end.json');
    const facts = JSON.parse(readFileSync(path, 'utf8'));
    expect(facts.ending).toMatchObject({ op: 'freeze', commit: f.revision });
    delete facts.ending;
    delete facts.lastRun;
    writeFileSync(path, JSON.stringify(facts));
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
    expect(await endingOf(ws)).toMatchObject({ kind: 'frozen', commit: f.revision });
  });
});

describe('canvas abandon on the command line', () => {
  it('prints the outcome, and refuses a missing reason with exit 2', async () => {
    const { ws } = await opened('cli-end');
    const r = await runMain(ws, ['abandon', 'cli-end', '--why', 'the customer cancelled', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'applied', node: null });
    const none = await runMain(ws, ['abandon', 'cli-end']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('BAD_REASON');
    const help = await runMain(ws, ['abandon', '--help']);
    expect(help.stdout).toContain('canvas abandon fix-login --why');
  });
});
