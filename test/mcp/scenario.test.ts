import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../src/store/access-writes.js';
import { createCanvas } from '../../src/store/canvas-lifecycle.js';
import type { Applied, Conflict, Proposed } from '../../src/store/outcome.js';
import { readCanvasText } from '../../src/store/read-canvas.js';
import { verifyWorkspace } from '../../src/store/verify-workspace.js';
import type { Workspace } from '../../src/store/workspace.js';
import { connectAs, type McpSession, SDKS } from '../helpers/mcp-client.js';
import { repoState, tempWorkspace } from '../helpers/workspace.js';

// One whole scenario of spec/001 through a real MCP client: the SDK's client spawning
// `canvas mcp` over stdio, one server process per identity.
describe.each(SDKS)('canvas mcp through the %s client: the roles scenario end to end (spec/001, design section 6)', (sdk) => {
  let ws: Workspace;
  const s: Record<'leo' | 'eve' | 'cam' | 'vic' | 'zed', McpSession> = {} as never;
  const ids: Record<string, string> = {};
  let head = '';

  const args = (extra: Record<string, unknown>) => ({ workspace: ws.root, ledger: 'plan', ...extra });

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-');
    expect((await createCanvas(ws, { ledger: 'plan', why: 'plan the release', author: 'leo' })).outcome).toBe('applied');
    const [leo, eve, cam, vic, zed] = await Promise.all(['leo', 'eve', 'cam', 'vic', 'zed'].map((who) => connectAs(ws, who, { sdk })));
    Object.assign(s, { leo, eve, cam, vic, zed });
  });

  afterAll(async () => {
    await Promise.all(Object.values(s).map((x) => x.close()));
  });

  it('the owner builds the canvas through its tools, one node per call, each write against the last revision', async () => {
    let { base } = await s.leo.read('plan');
    const insert = async (name: string, anchor: Record<string, string>, payload: Record<string, string>, why: string) => {
      const o = (await s.leo.write('canvas_insert', args({ ...anchor, ...payload, base, why }))) as Applied;
      expect(o).toMatchObject({ outcome: 'applied', diff: [] });
      expect(o.node).toMatch(/^[a-z][a-z0-9]{3,11}$/);
      ids[name] = o.node!;
      base = o.revision;
    };
    await insert('section', { into: 'root' }, { section: 'Release' }, 'a place for the release plan');
    await insert('t1', { after: ids.section! }, { text: 'We ship on Friday.' }, 'the date we aim for');
    await insert('t2', { after: ids.t1! }, { xml: '<list><item>tests</item><item>notes</item></list>' }, 'what must be done first');
    await insert('q', { after: ids.t2! }, { question: 'Who signs off?' }, 'nobody owns the sign-off yet');
    await insert('t3', { after: ids.q! }, { text: 'Rollback is manual.' }, 'the rollback as it stands');
    const read = await s.leo.read('plan');
    expect(read.base).toBe(base);
    expect(read.xml).toBe((await readCanvasText(ws, { ledger: 'plan' })).xml);
    expect(read.xml).toContain(`<text id="${ids.t1}" v="1">We ship on Friday.</text>`);
    head = base;
  });

  it('an ungranted agent gets the clear NO_ROLE error on reads and writes, not an outcome, and nothing is written', async () => {
    const before = repoState(ws);
    const read = await s.zed.error('canvas_read', args({}));
    expect(read.code).toBe('NO_ROLE');
    expect(read.message).toContain('plan');
    expect(read.hint).toContain('leo');
    for (const tool of ['canvas_history', 'canvas_log', 'canvas_list_proposals']) {
      expect((await s.zed.error(tool, args(tool === 'canvas_history' ? { node: ids.t1 } : {}))).code).toBe('NO_ROLE');
    }
    const write = await s.zed.error('canvas_replace', args({ node: ids.t1, text: 'zed was here', base: head, why: 'no grant' }));
    expect(write.code).toBe('NO_ROLE');
    expect(write.message).toContain('plan');
    expect(repoState(ws)).toEqual(before);
  });

  it('the owner grants an editor, a commenter and a viewer', async () => {
    for (const [who, role] of [
      ['eve', 'editor'],
      ['cam', 'commenter'],
      ['vic', 'viewer'],
    ] as const) {
      expect((await grantRole(ws, { ledger: 'plan', who, role, why: `${who} joins as ${role}`, author: 'leo' })).outcome).toBe('applied');
    }
    head = (await s.vic.read('plan')).base;
  });

  it('the editor applies; the commenter proposes; the viewer is rejected', async () => {
    const eve = (await s.eve.write('canvas_replace', args({ node: ids.t1, text: 'We ship on Monday.', base: head, why: 'Friday is a freeze day', step: 'plan', run: 'r1' }))) as Applied;
    expect(eve).toMatchObject({ outcome: 'applied', node: ids.t1, diff: [] });
    head = eve.revision;
    expect((await s.eve.read('plan')).xml).toContain(`<text id="${ids.t1}" v="2">We ship on Monday.</text>`);

    const before = repoState(ws);
    const viewer = await s.vic.write('canvas_replace', args({ node: ids.t1, text: 'vic says', base: head, why: 'a viewer tries' }));
    expect(viewer).toMatchObject({ outcome: 'rejected', code: 'ROLE_TOO_LOW' });
    expect(repoState(ws)).toEqual(before);

    const p1 = (await s.cam.write('canvas_replace', args({ node: ids.t2, xml: '<list><item>tests</item><item>notes</item><item>docs</item></list>', base: head, why: 'docs ship with it' }))) as Proposed;
    expect(p1.outcome).toBe('proposed');
    ids.p1 = p1.proposalId;
    const p2 = (await s.cam.write('canvas_replace', args({ node: ids.q, xml: '<question answered="true">Cam signs off.</question>', base: p1.revision, why: 'I can sign off' }))) as Proposed;
    expect(p2.outcome).toBe('proposed');
    ids.p2 = p2.proposalId;
    const p3 = (await s.cam.write('canvas_replace', args({ node: ids.t3, text: 'Rollback is one command.', base: p2.revision, why: 'the script exists now' }))) as Proposed;
    expect(p3.outcome).toBe('proposed');
    ids.p3 = p3.proposalId;
    // A proposal changes no node: the canvas reads as before.
    const read = await s.cam.read('plan');
    expect(read.xml).not.toContain('docs');
    expect(read.xml).not.toContain('Cam signs off');
    head = read.base;
    const listed = JSON.parse((await s.vic.call('canvas_list_proposals', args({}))).text) as { proposals: { id: string; status: string; proposedBy: string }[] };
    expect(listed.proposals.map((p) => [p.id, p.status, p.proposedBy]).sort()).toEqual(
      [ids.p1, ids.p2, ids.p3].map((id) => [id, 'open', 'cam']).sort(),
    );
  });

  it('a stale write gets conflict with both revisions and the node diff, and nothing is written', async () => {
    const firstBase = (await s.eve.call('canvas_log', args({}))).text;
    const log = JSON.parse(firstBase) as { commits: { commit: string; op: string; node: string | null }[] };
    const beforeEve = log.commits.find((c) => c.op === 'grant')!.commit;
    const before = repoState(ws);
    const stale = (await s.eve.write('canvas_replace', args({ node: ids.t1, text: 'We ship on Tuesday.', base: beforeEve, why: 'decided from an old read' }))) as Conflict;
    expect(stale).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE', node: ids.t1, expectedRevision: beforeEve, currentRevision: head });
    expect(stale.diff).toHaveLength(1);
    expect(stale.diff[0]).toMatchObject({ node: ids.t1, change: 'replaced' });
    expect(stale.diff[0]!.commits.map((c) => c.reason)).toEqual(['Friday is a freeze day']);
    expect(repoState(ws)).toEqual(before);
  });

  it('the owner approves one proposal and rejects another; the history shows proposer and approver as two identities', async () => {
    const approved = (await s.leo.write('canvas_approve_proposal', args({ proposalId: ids.p1, why: 'docs belong in the release' }))) as Applied;
    expect(approved).toMatchObject({ outcome: 'applied', node: ids.t2 });
    expect((await s.leo.read('plan')).xml).toContain('<item>docs</item>');
    const rejected = await s.leo.write('canvas_reject_proposal', args({ proposalId: ids.p2, why: 'the sign-off is the owner\'s to decide' }));
    expect(rejected).toMatchObject({ outcome: 'applied', node: null });
    expect((await s.leo.read('plan')).xml).toContain('<question id');
    expect((await s.leo.read('plan')).xml).not.toContain('Cam signs off');
    // Decided once.
    expect(await s.eve.write('canvas_approve_proposal', args({ proposalId: ids.p2, why: 'late' }))).toMatchObject({ outcome: 'rejected', code: 'PROPOSAL_DECIDED' });
    // A commenter cannot decide.
    expect(await s.cam.write('canvas_approve_proposal', args({ proposalId: ids.p3, why: 'my own' }))).toMatchObject({ outcome: 'rejected', code: 'ROLE_TOO_LOW' });

    const history = JSON.parse((await s.vic.call('canvas_history', args({ node: ids.t2 }))).text) as {
      node: string;
      commits: { op: string; author: string; proposedBy?: string; reason: string; commit: string }[];
    };
    expect(history.node).toBe(ids.t2);
    expect(history.commits.at(-1)).toMatchObject({ op: 'replace', author: 'leo', proposedBy: 'cam', reason: 'docs belong in the release', commit: approved.revision });
    const t1 = JSON.parse((await s.vic.call('canvas_history', args({ node: ids.t1 }))).text) as { commits: { author: string }[] };
    expect(t1.commits.map((c) => c.author)).toEqual(['leo', 'eve | step:plan | run:r1']);
  });

  it("a node moved since a proposal's base makes its approval a conflict; the proposal stays open", async () => {
    const { base } = await s.eve.read('plan');
    const moved = (await s.eve.write('canvas_move', args({ node: ids.t3, into: ids.section, base, why: 'rollback is part of the release' }))) as Applied;
    expect(moved).toMatchObject({ outcome: 'applied', node: ids.t3 });
    const before = repoState(ws);
    const approval = (await s.leo.write('canvas_approve_proposal', args({ proposalId: ids.p3, why: 'the script works' }))) as Conflict;
    expect(approval).toMatchObject({ outcome: 'conflict', node: ids.t3, currentRevision: moved.revision });
    expect(approval.expectedRevision).not.toBe(approval.currentRevision);
    expect(approval.diff[0]).toMatchObject({ node: ids.t3, change: 'moved' });
    expect(repoState(ws)).toEqual(before);
    const listed = JSON.parse((await s.leo.call('canvas_list_proposals', args({}))).text) as { proposals: { id: string; status: string }[] };
    expect(listed.proposals.find((p) => p.id === ids.p3)).toMatchObject({ status: 'open' });
    expect(listed.proposals.find((p) => p.id === ids.p1)).toMatchObject({ status: 'approved' });
    expect(listed.proposals.find((p) => p.id === ids.p2)).toMatchObject({ status: 'rejected' });
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });
});
