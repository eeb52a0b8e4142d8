// The stale-base rule (docs/store.md, "Staleness"; docs/diff.md "Which nodes are checked"): a write
// names the revision its writer decided against. A node it checks (the node, its anchor) that a
// commit after the base names is a conflict carrying that node's diff, nothing applied; otherwise
// the write applies and carries the diff of everything else that changed. A base must be a
// revision of this canvas: one that is no commit, off main or another canvas's is refused, and
// `canvas verify` holds the history to the same rule.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { formatCommitMessage, parseCommit } from '../../../src/store/repo/canvas-commit.js';
import { createCanvas, freezeCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, moveNode, removeNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Applied, Conflict, Rejected } from '../../../src/store/repo/outcome.js';
import { approveProposal } from '../../../src/store/write/decide-proposal.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { readSnapshot } from '../../../src/store/read/read-snapshot.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../../helpers/mcp-client.js';
import { runMain } from '../../helpers/run-main.js';
import { AUTHOR, baseOf, repoState, tempWorkspace } from '../../helpers/workspace.js';

function applied(o: unknown): Applied {
  expect(o).toMatchObject({ outcome: 'applied' });
  return o as Applied;
}

function git(ws: Workspace, args: string[], input?: string, env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd: ws.repo, encoding: 'utf8', input, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', ...env } }).trim();
}

/** Canvas s: a section holding text a, then text b after the section; `base` is the revision a writer read. */
async function plan() {
  const ws = tempWorkspace();
  const c = applied(await createCanvas(ws, { ledger: 's', why: 'the rule', author: AUTHOR }));
  const sec = applied(await insertNode(ws, { ledger: 's', into: 'root', payload: { section: 'Plan' }, base: c.revision, why: 'a section', author: AUTHOR }));
  const a = applied(await insertNode(ws, { ledger: 's', into: sec.node!, payload: { text: 'A.' }, base: sec.revision, why: 'text a', author: AUTHOR }));
  const b = applied(await insertNode(ws, { ledger: 's', after: sec.node!, payload: { text: 'B.' }, base: a.revision, why: 'text b', author: AUTHOR }));
  return { ws, sec: sec.node!, a: a.node!, b: b.node!, base: b.revision };
}

const writer = { ledger: 's', author: AUTHOR } as const;

describe('a checked node changed since the base is a conflict with its diff (STALE_BASE)', () => {
  it("replace and remove of a node another writer replaced: that node's diff, with the commits and reasons between; nothing written", async () => {
    const { ws, a, base } = await plan();
    const theirs = applied(await replaceNode(ws, { ...writer, node: a, payload: { text: 'A, decided.' }, base, why: 'bob decides a' }));
    const before = repoState(ws);
    const writes = [() => replaceNode(ws, { ...writer, node: a, payload: { text: 'A, mine.' }, base, why: 'alice' }), () => removeNode(ws, { ...writer, node: a, base, why: 'alice drops a' })];
    for (const write of writes) {
      const o = (await write()) as Conflict;
      expect(o).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE', node: a, expectedRevision: base, currentRevision: theirs.revision });
      expect(o.diff).toMatchObject([{ node: a, change: 'replaced', before: { v: 1 }, after: { v: 2 } }]);
      expect(o.diff[0]!.before!.xml).toContain('>A.<');
      expect(o.diff[0]!.after!.xml).toContain('>A, decided.<');
      expect(o.diff[0]!.commits.map((c) => [c.commit, c.op, c.reason])).toEqual([[theirs.revision, 'replace', 'bob decides a']]);
    }
    expect(repoState(ws)).toEqual(before);
  });

  it('a node removed since the base: the conflict shows it removed', async () => {
    const { ws, b, base } = await plan();
    const gone = applied(await removeNode(ws, { ...writer, node: b, base, why: 'b was wrong' }));
    const before = repoState(ws);
    const o = await replaceNode(ws, { ...writer, node: b, payload: { text: 'B, mine.' }, base, why: 'alice' });
    expect(o).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE', node: b, currentRevision: gone.revision, diff: [{ node: b, change: 'removed', after: null }] });
    expect(repoState(ws)).toEqual(before);
  });

  it('an insert whose anchor changed, and a move whose node or anchor did: a conflict on that node', async () => {
    const { ws, sec, a, b, base } = await plan();
    applied(await replaceNode(ws, { ...writer, node: b, payload: { text: 'B, decided.' }, base, why: 'bob decides b' }));
    const before = repoState(ws);
    expect(await insertNode(ws, { ...writer, after: b, payload: { text: 'C.' }, base, why: 'c after b' })).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE', node: b });
    expect(await moveNode(ws, { ...writer, node: a, after: b, base, why: 'a after b' })).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE', node: b });
    expect(await moveNode(ws, { ...writer, node: b, into: sec, base, why: 'b into the plan' })).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE', node: b });
    expect(repoState(ws)).toEqual(before);
  });
});

describe('a write whose checked nodes did not change applies, with the diff of the rest', () => {
  it("a replace of a after b changed: applied, its diff is b's change with its reason; from a current base, an empty diff", async () => {
    const { ws, a, b, base } = await plan();
    const theirs = applied(await replaceNode(ws, { ...writer, node: b, payload: { text: 'B, decided.' }, base, why: 'bob decides b' }));
    const mine = applied(await replaceNode(ws, { ...writer, node: a, payload: { text: 'A, mine.' }, base, why: 'alice' }));
    expect(mine.diff).toMatchObject([{ node: b, change: 'replaced' }]);
    expect(mine.diff[0]!.commits.map((c) => [c.commit, c.reason])).toEqual([[theirs.revision, 'bob decides b']]);
    const again = applied(await replaceNode(ws, { ...writer, node: a, payload: { text: 'A, again.' }, base: mine.revision, why: 'alice again' }));
    expect(again.diff).toEqual([]);
  });

  it('a move of an ancestor or an insert beside a node does not touch it', async () => {
    const { ws, sec, a, b, base } = await plan();
    applied(await moveNode(ws, { ...writer, node: sec, after: b, base, why: 'the plan goes last' }));
    const beside = applied(await insertNode(ws, { ...writer, after: a, payload: { text: 'After a.' }, base, why: 'beside a' }));
    const mine = applied(await replaceNode(ws, { ...writer, node: a, payload: { text: 'A, mine.' }, base, why: 'alice' }));
    expect(mine.diff.map((d) => `${d.node} ${d.change}`)).toEqual([`${sec} moved`, `${beside.node} inserted`]);
  });

  it('--require refuses any change of the document since, of any node (REQUIRE_CHANGED)', async () => {
    const { ws, a, b, base } = await plan();
    applied(await replaceNode(ws, { ...writer, node: b, payload: { text: 'B, decided.' }, base, why: 'bob decides b' }));
    const before = repoState(ws);
    const o = await replaceNode(ws, { ...writer, node: a, payload: { text: 'A, mine.' }, require: base, why: 'strict' });
    expect(o).toMatchObject({ outcome: 'conflict', code: 'REQUIRE_CHANGED', expectedRevision: base, diff: [{ node: b, change: 'replaced' }] });
    expect(repoState(ws)).toEqual(before);
  });
});

describe('a base the store cannot place is refused, nothing written', () => {
  it('none (BASE_REQUIRED), no commit (UNKNOWN_BASE), a commit off main (BASE_NOT_ANCESTOR)', async () => {
    const { ws, a, base } = await plan();
    const offMain = git(ws, ['commit-tree', `${base}^{tree}`, '-p', base, '-m', 'a side commit'], undefined, {
      GIT_AUTHOR_NAME: 'someone',
      GIT_AUTHOR_EMAIL: '',
      GIT_COMMITTER_NAME: 'someone',
      GIT_COMMITTER_EMAIL: '',
    });
    const before = repoState(ws);
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'BASE_REQUIRED'],
      ['deadbeefdeadbeef', 'UNKNOWN_BASE'],
      ['0'.repeat(40), 'UNKNOWN_BASE'],
      ['HEAD', 'UNKNOWN_BASE'],
      [offMain, 'BASE_NOT_ANCESTOR'],
    ];
    for (const [given, code] of cases) {
      const o = await replaceNode(ws, { ...writer, node: a, payload: { text: 'A, mine.' }, ...(given === undefined ? {} : { base: given }), why: 'alice' });
      expect(o, String(given)).toMatchObject({ outcome: 'rejected', code });
    }
    expect(repoState(ws)).toEqual(before);
  });
});

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
      anchor: null,
      base: y,
      id,
      ledger: 'x',
      node,
      op: 'replace',
      payload: '<text>Cam.</text>',
      proposedAt: revision,
      proposedBy: 'cam',
      require: null,
      status: 'open',
      why: 'cam',
    };
    const blob = git(ws, ['hash-object', '-w', '--stdin'], `${JSON.stringify(file, null, 2)}\n`);
    const index = join(ws.repo, '.git', 'test-index');
    const env = { GIT_INDEX_FILE: index };
    git(ws, ['read-tree', 'main'], undefined, env);
    git(ws, ['update-index', '--add', '--cacheinfo', `100644,${blob},proposals/x/${id}.json`], undefined, env);
    const tree = git(ws, ['write-tree'], undefined, env);
    const message = formatCommitMessage('propose', node, 'cam', {
      'Canvas-Op': 'propose',
      'Canvas-Ledger': 'x',
      'Canvas-Author': 'cam',
      'Canvas-Previous': revision,
      'Canvas-Proposal': id,
      'Canvas-Proposal-Node': node,
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
      GIT_AUTHOR_NAME: 'someone',
      GIT_AUTHOR_EMAIL: '',
      GIT_COMMITTER_NAME: 'someone',
      GIT_COMMITTER_EMAIL: '',
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

/**
 * Canvases x and y, then an edit of x whose Canvas-Base is y's revision, made with plain git in
 * the store's own format (as the write path once accepted: any earlier commit on main).
 */
async function foreignBaseEdit(): Promise<{ ws: Workspace; edit: string }> {
  const ws = tempWorkspace();
  const x0 = applied(await createCanvas(ws, { ledger: 'x', why: 'the canvas', author: AUTHOR }));
  const x1 = applied(await insertNode(ws, { ledger: 'x', into: 'root', payload: { text: 'Draft.' }, base: x0.revision, why: 'a draft', author: AUTHOR }));
  const y0 = applied(await createCanvas(ws, { ledger: 'y', why: 'another canvas', author: AUTHOR }));
  const main = git(ws, ['rev-parse', 'refs/heads/main']);
  const xml = git(ws, ['show', `${main}:x.xml`]).replace(/<text id="([a-z0-9]+)" v="1">Draft\.<\/text>/, '<text id="$1" v="2">Second.</text>');
  const blob = git(ws, ['hash-object', '-w', '--stdin'], `${xml}\n`);
  const index = join(ws.root, 'forge-index');
  git(ws, ['read-tree', main], undefined, { GIT_INDEX_FILE: index });
  git(ws, ['update-index', '--cacheinfo', `100644,${blob},x.xml`], undefined, { GIT_INDEX_FILE: index });
  const tree = git(ws, ['write-tree'], undefined, { GIT_INDEX_FILE: index });
  const msg = formatCommitMessage('replace', x1.node!, 'second', {
    'Canvas-Op': 'replace',
    'Canvas-Ledger': 'x',
    'Canvas-Node': x1.node!,
    'Canvas-Author': AUTHOR,
    'Canvas-Base': y0.revision,
    'Canvas-Previous': x1.revision,
  });
  const edit = git(ws, ['commit-tree', tree, '-p', main, '-F', '-'], msg, { GIT_AUTHOR_NAME: AUTHOR, GIT_AUTHOR_EMAIL: '', GIT_COMMITTER_NAME: 'canvas', GIT_COMMITTER_EMAIL: '' });
  git(ws, ['update-ref', 'refs/heads/main', edit, main]);
  git(ws, ['update-ref', 'refs/canvas/x', edit]);
  writeFileSync(join(ws.repo, 'x.xml'), `${xml}\n`);
  return { ws, edit };
}

describe('verify: a base that is not a revision of its canvas (docs/store.md, "Verify")', () => {
  it("reports an edit of x against y's revision in a repository the store made (rule base, FOREIGN_BASE)", async () => {
    const { ws, edit } = await foreignBaseEdit();
    expect(git(ws, ['config', '--get', 'canvas.chainBasesSince'])).toBe('root');
    const report = await verifyWorkspace(ws);
    expect(report.ok).toBe(false);
    expect(report.violations).toEqual([expect.objectContaining({ rule: 'base', code: 'FOREIGN_BASE', commit: edit, ledger: 'x' })]);
  });

  it('passes that edit in history written before the rule, and a store write after it', async () => {
    const { ws, edit } = await foreignBaseEdit();
    // A repository made before the rule says nothing; the first verify (or write) records main.
    git(ws, ['config', '--unset', 'canvas.chainBasesSince']);
    const first = await verifyWorkspace(ws);
    expect(first.violations).toEqual([]);
    expect(git(ws, ['config', '--get', 'canvas.chainBasesSince'])).toBe(edit);
    // A write now is checked against the rule; the store's own write passes verify.
    applied(await insertNode(ws, { ledger: 'x', into: 'root', payload: { text: 'Third.' }, base: edit, why: 'a third', author: AUTHOR }));
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });
});
