import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { formatCommitMessage, parseCommit } from '../../../src/store/repo/canvas-commit.js';
import { createCanvas, freezeCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Applied, Rejected } from '../../../src/store/repo/outcome.js';
import { approveProposal } from '../../../src/store/write/decide-proposal.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { readSnapshot } from '../../../src/store/read/read-snapshot.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../../helpers/mcp-client.js';
import { runMain } from '../../helpers/run-main.js';
import { AUTHOR, baseOf, repoState, tempWorkspace } from '../../helpers/workspace.js';

// A base must be a revision of this canvas (docs/store.md, "Staleness"): the newer revision of
// another canvas, passed by mistake, would let a write pass over edits its writer never saw.

function applied(o: unknown): Applied {
  expect(o).toMatchObject({ outcome: 'applied' });
  return o as Applied;
}

function git(ws: Workspace, args: string[], input?: string, env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd: ws.repo, encoding: 'utf8', input, env: { ...process.env, ...env } }).trim();
}

/**
 * Canvas x with a text node, read by a writer at `seen`; then another person's replace of that
 * node; then canvas y (created after x) and an edit of it, so y's revision is main's newest commit.
 */
async function twoCanvases() {
  const ws = tempWorkspace();
  const x0 = applied(await createCanvas(ws, { ledger: 'x', why: 'the canvas written to', author: AUTHOR }));
  const t = applied(await insertNode(ws, { ledger: 'x', into: 'root', payload: { text: 'Draft.' }, base: x0.revision, why: 'a draft', author: AUTHOR }));
  const seen = t.revision;
  const other = applied(await replaceNode(ws, { ledger: 'x', node: t.node!, payload: { text: 'Bob decided this.' }, base: seen, why: 'bob decides', author: AUTHOR }));
  const y0 = applied(await createCanvas(ws, { ledger: 'y', why: 'another canvas', author: AUTHOR }));
  const y1 = applied(await insertNode(ws, { ledger: 'y', into: 'root', payload: { text: 'Elsewhere.' }, base: y0.revision, why: 'y text', author: AUTHOR }));
  return { ws, node: t.node!, seen, current: other.revision, y: y1.revision, yCreate: y0.revision, xCreate: x0.revision };
}

describe('a base from another canvas is refused (FOREIGN_BASE)', () => {
  it('library: replace, insert and --require with the other canvas revision are refused, naming the current revision; nothing is written', async () => {
    const { ws, node, current, y } = await twoCanvases();
    const before = repoState(ws);
    const r = (await replaceNode(ws, { ledger: 'x', node, payload: { text: 'Alice overwrites.' }, base: y, why: 'alice', author: AUTHOR })) as Rejected;
    expect(r).toMatchObject({ outcome: 'rejected', code: 'FOREIGN_BASE', data: { base: y, ledger: 'x', revision: current, baseLedger: 'y' } });
    expect(r.reason).toContain(current);
    expect(r.hint).toContain(current);
    const short = await insertNode(ws, { ledger: 'x', after: node, payload: { text: 'More.' }, base: y.slice(0, 9), why: 'alice', author: AUTHOR });
    expect(short).toMatchObject({ outcome: 'rejected', code: 'FOREIGN_BASE' });
    const req = await replaceNode(ws, { ledger: 'x', node, payload: { text: 'Alice overwrites.' }, require: y, why: 'alice', author: AUTHOR });
    expect(req).toMatchObject({ outcome: 'rejected', code: 'FOREIGN_BASE' });
    const both = await replaceNode(ws, { ledger: 'x', node, payload: { text: 'Alice overwrites.' }, base: current, require: y, why: 'alice', author: AUTHOR });
    expect(both).toMatchObject({ outcome: 'rejected', code: 'FOREIGN_BASE' });
    expect(repoState(ws)).toEqual(before);
    expect((await readCanvas(ws, { ledger: 'x' })).xml).toContain('Bob decided this.');
  });

  it('a commit from before the canvas existed is not one of its revisions', async () => {
    const { ws, node, yCreate } = await twoCanvases();
    const z0 = applied(await createCanvas(ws, { ledger: 'z', why: 'created last', author: AUTHOR }));
    const before = repoState(ws);
    const r = await insertNode(ws, { ledger: 'z', into: 'root', payload: { text: 'Z.' }, base: yCreate, why: 'z', author: AUTHOR });
    expect(r).toMatchObject({ outcome: 'rejected', code: 'FOREIGN_BASE', data: { revision: z0.revision } });
    void node;
    expect(repoState(ws)).toEqual(before);
  });

  it('every revision on the chain is accepted: a grant and a freeze are revisions too; a stale one is still a conflict', async () => {
    const { ws, node, seen, xCreate } = await twoCanvases();
    const g = applied(await grantRole(ws, { ledger: 'x', who: 'eve', role: 'editor', why: 'eve joins', author: AUTHOR }));
    const f = applied(await freezeCanvas(ws, { ledger: 'x', why: 'done for now', author: AUTHOR }));
    const stale = await replaceNode(ws, { ledger: 'x', node, payload: { text: 'Alice.' }, base: seen, why: 'alice', author: AUTHOR });
    expect(stale).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE' });
    const fromCreate = await insertNode(ws, { ledger: 'x', into: 'root', payload: { text: 'First.' }, base: xCreate, why: 'first', author: AUTHOR });
    expect(fromCreate.outcome).toBe('applied');
    const ins = applied(await insertNode(ws, { ledger: 'x', after: node, payload: { text: 'After.' }, base: g.revision, why: 'after', author: AUTHOR }));
    expect(ins.diff.map((d) => d.node)).toContain((fromCreate as Applied).node);
    expect((await insertNode(ws, { ledger: 'x', after: node, payload: { text: 'Again.' }, base: f.revision, why: 'again', author: AUTHOR })).outcome).toBe('applied');
  });

  it('CLI: exit 2 with the code, the current revision in message and hint, and nothing written', async () => {
    const { ws, node, current, y } = await twoCanvases();
    const before = repoState(ws);
    const r = await runMain(ws, ['replace', 'x', node, '--text', 'Alice overwrites.', '--base', y, '--why', 'alice']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('FOREIGN_BASE');
    expect(r.stderr.split('\n').filter((l) => l.includes(current))).toHaveLength(2);
    const j = await runMain(ws, ['replace', 'x', node, '--text', 'Alice overwrites.', '--base', y, '--why', 'alice', '--json']);
    expect(j.code).toBe(2);
    expect(JSON.parse(j.stdout)).toMatchObject({ outcome: 'rejected', code: 'FOREIGN_BASE', data: { revision: current } });
    const req = await runMain(ws, ['replace', 'x', node, '--text', 'Alice overwrites.', '--require', y, '--why', 'alice', '--json']);
    expect(req.code).toBe(2);
    expect(JSON.parse(req.stdout)).toMatchObject({ code: 'FOREIGN_BASE' });
    expect(repoState(ws)).toEqual(before);
  });

  it('a commenter proposing against another canvas revision is refused, and so is approving a proposal whose base is one', async () => {
    const { ws, node, current, y } = await twoCanvases();
    applied(await grantRole(ws, { ledger: 'x', who: 'cam', role: 'commenter', why: 'cam reviews', author: AUTHOR }));
    const before = repoState(ws);
    const proposed = await replaceNode(ws, { ledger: 'x', node, payload: { text: 'Cam.' }, base: y, why: 'cam', author: 'cam' });
    expect(proposed).toMatchObject({ outcome: 'rejected', code: 'FOREIGN_BASE' });
    expect(repoState(ws)).toEqual(before);
    // A proposal file whose base is y's revision, committed by hand in the store's own form (as an
    // older tool, or a person, could have): its approval replays against that base and is refused.
    const revision = (await readCanvas(ws, { ledger: 'x' })).revision;
    const id = 'abcdef0123';
    const file = {
      anchor: null, base: y, id, ledger: 'x', node, op: 'replace', payload: '<text>Cam.</text>', proposedAt: revision, proposedBy: 'cam', require: null, status: 'open', why: 'cam',
    };
    const blob = git(ws, ['hash-object', '-w', '--stdin'], `${JSON.stringify(file, null, 2)}\n`);
    const index = join(ws.repo, '.git', 'test-index');
    const env = { GIT_INDEX_FILE: index };
    git(ws, ['read-tree', 'main'], undefined, env);
    git(ws, ['update-index', '--add', '--cacheinfo', `100644,${blob},proposals/x/${id}.json`], undefined, env);
    const tree = git(ws, ['write-tree'], undefined, env);
    const message = formatCommitMessage('propose', node, 'cam', {
      'Canvas-Op': 'propose', 'Canvas-Ledger': 'x', 'Canvas-Author': 'cam', 'Canvas-Previous': revision, 'Canvas-Proposal': id, 'Canvas-Proposal-Node': node,
    });
    const main = git(ws, ['rev-parse', 'main']);
    const commit = git(ws, ['commit-tree', tree, '-p', main, '-F', '-'], message, { GIT_AUTHOR_NAME: 'cam', GIT_AUTHOR_EMAIL: '', GIT_COMMITTER_NAME: 'canvas', GIT_COMMITTER_EMAIL: '' });
    git(ws, ['update-ref', 'refs/heads/main', commit, main]);
    git(ws, ['update-ref', 'refs/canvas/x', commit, revision]);
    execFileSync('mkdir', ['-p', join(ws.repo, 'proposals', 'x')]);
    writeFileSync(join(ws.repo, 'proposals', 'x', `${id}.json`), `${JSON.stringify(file, null, 2)}\n`);
    execFileSync('rm', ['-f', index]);
    const ready = repoState(ws);
    const approved = await approveProposal(ws, { ledger: 'x', proposal: id, why: 'agreed', author: AUTHOR });
    expect(approved).toMatchObject({ outcome: 'rejected', code: 'FOREIGN_BASE', data: { revision: commit } });
    expect(repoState(ws)).toEqual(ready);
    expect(current).not.toBe(commit);
  });
});

describe('read --at prints the canvas own revision as of that commit', () => {
  it('library, snapshot and CLI (text and --json): a commit of another canvas gives the canvas latest revision before it', async () => {
    const { ws, current, y, yCreate, seen } = await twoCanvases();
    expect((await readCanvas(ws, { ledger: 'x', at: y })).revision).toBe(current);
    expect((await readCanvas(ws, { ledger: 'x', at: yCreate.slice(0, 10) })).revision).toBe(current);
    expect((await readCanvas(ws, { ledger: 'x', at: seen })).revision).toBe(seen);
    expect((await readSnapshot(ws, { ledger: 'x', at: y })).revision).toBe(current);
    const text = await runMain(ws, ['read', 'x', '--at', y]);
    expect(text.code, text.stderr).toBe(0);
    expect(baseOf(text.stdout)).toBe(current);
    const json = await runMain(ws, ['read', 'x', '--at', y, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ revision: current });
    // y did not exist as of x's first commits.
    const before = await runMain(ws, ['read', 'y', '--at', seen, '--json']);
    expect(before.code).toBe(2);
    expect(JSON.parse(before.stdout).error).toMatchObject({ code: 'CANVAS_NOT_FOUND' });
    // The printed base is accepted as a base: it is a revision of x.
    const w = await runMain(ws, ['insert', 'x', '--into', 'root', '--text', 'From the past.', '--base', baseOf(text.stdout), '--why', 'read at y']);
    expect(w.code, w.stderr).toBe(0);
  });

  it('a message that quotes the ledger line is not a commit of the canvas', async () => {
    const { ws, current } = await twoCanvases();
    const main = git(ws, ['rev-parse', 'main']);
    const tree = git(ws, ['rev-parse', 'main^{tree}']);
    const quoting = git(ws, ['commit-tree', tree, '-p', main, '-m', 'notes\n\nCanvas-Ledger: x'], undefined, {
      GIT_AUTHOR_NAME: 'someone', GIT_AUTHOR_EMAIL: '', GIT_COMMITTER_NAME: 'someone', GIT_COMMITTER_EMAIL: '',
    });
    expect(parseCommit(quoting, git(ws, ['cat-file', 'commit', quoting])).op).toBeUndefined();
    expect((await readCanvas(ws, { ledger: 'x', at: quoting })).revision).toBe(current);
  });
});

describe('MCP: base and read at', () => {
  let ctx: Awaited<ReturnType<typeof twoCanvases>>;
  let mcp: McpSession;
  beforeAll(async () => {
    ctx = await twoCanvases();
    mcp = await connectAs(ctx.ws, 'leo');
  });
  afterAll(async () => {
    await mcp.close();
  });

  it('canvas_replace with another canvas revision as base is rejected naming the current revision; canvas_read at prints the canvas own revision', async () => {
    const before = repoState(ctx.ws);
    const o = await mcp.write('canvas_replace', { workspace: ctx.ws.root, ledger: 'x', node: ctx.node, text: 'Alice.', base: ctx.y, why: 'alice' });
    expect(o).toMatchObject({ outcome: 'rejected', code: 'FOREIGN_BASE', data: { revision: ctx.current } });
    expect(repoState(ctx.ws)).toEqual(before);
    const r = await mcp.call('canvas_read', { workspace: ctx.ws.root, ledger: 'x', at: ctx.y });
    expect(r.isError).toBe(false);
    expect((r.structured as { revision: string }).revision).toBe(ctx.current);
  });
});
