import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../bench/coherence-eval/stand-in.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import type { Applied, Conflict, Proposed } from '../../src/store/repo/outcome.js';
import { readCanvasText } from '../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession, SDKS } from '../helpers/mcp-client.js';
import { repoState, runCli, tempWorkspace } from '../helpers/workspace.js';

// One whole scenario of roles, proposals and outcomes (docs/roles.md) through a real MCP client, run through both official clients
// (the v1 SDK speaking 2025-11-25, the v2 SDK speaking 2026-07-28): each spawning `canvas mcp`
// over stdio, one server process per identity. Every tool is called, all four outcomes are
// answered, and a subscription hears a write; each result is checked against the tool's listed
// output schema by the client.
describe.each(SDKS)('canvas mcp through the %s client: the roles scenario end to end (docs/roles.md)', (sdk) => {
  let ws: Workspace;
  const s: Record<'leo' | 'eve' | 'cam' | 'vic' | 'zed', McpSession> = {} as never;
  const ids: Record<string, string> = {};
  let head = '';
  let standIn: StandIn;
  /** Every tool called, and every outcome answered. */
  const called = new Set<string>();
  const outcomes = new Set<string>();

  const args = (extra: Record<string, unknown>) => ({ workspace: ws.root, ledger: 'plan', ...extra });

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-');
    expect((await createCanvas(ws, { ledger: 'plan', why: 'plan the release', author: 'leo' })).outcome).toBe('applied');
    // canvas_check asks a model: a stand-in that finds nothing.
    standIn = await startStandIn(() => ({ content: { contradictions: [] } }));
    process.env.CANVAS_MODEL_URL = standIn.url;
    process.env.CANVAS_MODEL = 'stand-in-1';
    try {
      const [leo, eve, cam, vic, zed] = await Promise.all(['leo', 'eve', 'cam', 'vic', 'zed'].map((who) => connectAs(ws, who, { sdk })));
      Object.assign(s, { leo, eve, cam, vic, zed });
    } finally {
      delete process.env.CANVAS_MODEL_URL;
      delete process.env.CANVAS_MODEL;
    }
    for (const session of Object.values(s)) {
      const call = session.call;
      session.call = async (name, a) => {
        const r = await call(name, a);
        called.add(name);
        const outcome = (r.structured as { outcome?: string } | undefined)?.outcome;
        if (outcome) outcomes.add(outcome);
        return r;
      };
    }
  });

  afterAll(async () => {
    await Promise.all(Object.values(s).map((x) => x.close()));
    await standIn?.close();
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
    for (const [tool, extra] of [
      ['canvas_history', { node: ids.t1 }],
      ['canvas_history', {}],
      ['canvas_list_proposals', {}],
    ] as const) {
      expect((await s.zed.error(tool, args(extra))).code).toBe('NO_ROLE');
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
    expect(listed.proposals.map((p) => [p.id, p.status, p.proposedBy]).sort()).toEqual([ids.p1, ids.p2, ids.p3].map((id) => [id, 'open', 'cam']).sort());
  });

  it('a stale write gets conflict with both revisions and the node diff, and nothing is written', async () => {
    const firstBase = (await s.eve.call('canvas_history', args({}))).text;
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
    const rejected = await s.leo.write('canvas_reject_proposal', args({ proposalId: ids.p2, why: "the sign-off is the owner's to decide" }));
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

  it('the rest of the tools: lifecycle, access, the other reads, watching, checking, verifying', async () => {
    const w = { workspace: ws.root };
    expect(await s.leo.write('canvas_create', { ...w, ledger: 'side', why: 'a side task' })).toMatchObject({ outcome: 'applied' });
    const opened = (await s.leo.write('canvas_open', { ...w, ledger: 'next', problem: 'The release is manual.', expectedValue: 'One command ships it.', why: 'the next task' })) as Applied;
    expect(opened).toMatchObject({ outcome: 'applied', nodes: [expect.any(String), expect.any(String)] });
    expect(await s.leo.write('canvas_remove', { ...w, ledger: 'next', node: opened.nodes![1], base: opened.revision, why: "the value is the plan's" })).toMatchObject({ outcome: 'applied' });
    expect(await s.leo.write('canvas_import', { ...w, ledger: 'adr', markdown: '# Ship on Monday\n\nFriday is a freeze day.\n', why: 'the decision record' })).toMatchObject({ outcome: 'applied' });
    expect(await s.leo.write('canvas_grant', { ...w, ledger: 'side', who: 'vic', role: 'viewer', why: 'vic follows it' })).toMatchObject({ outcome: 'applied' });
    expect(await s.leo.write('canvas_revoke', { ...w, ledger: 'side', who: 'vic', why: 'vic moved on' })).toMatchObject({ outcome: 'applied' });
    expect(await s.leo.write('canvas_abandon', { ...w, ledger: 'side', why: 'folded into plan' })).toMatchObject({ outcome: 'applied' });
    for (const format of ['xml', 'text', 'html', 'comment', 'done']) expect((await s.vic.call('canvas_read', args({ format }))).isError).toBe(false);
    expect((await s.vic.call('canvas_history', args({}))).structured).toMatchObject({ ledger: 'plan' });
    expect(((await s.vic.call('canvas_list', w)).structured as { canvases: Array<{ ledger: string }> }).canvases.map((c) => c.ledger)).toEqual(['plan']);
    expect(((await s.vic.call('canvas_search', { ...w, query: 'ship' })).structured as { total: number }).total).toBeGreaterThan(0);
    expect((await s.vic.call('canvas_edges', args({}))).structured).toMatchObject({ ledger: 'plan' });
    expect((await s.vic.call('canvas_verify', args({}))).structured).toMatchObject({ ok: true });
    expect((await s.vic.call('canvas_unwatch', args({}))).structured).toMatchObject({ watching: false });
    expect((await s.vic.call('canvas_watch', args({}))).structured).toMatchObject({ watching: true });
    expect((await s.vic.call('canvas_inbox', w)).structured).toMatchObject({ waiting: [] });
    expect((await s.leo.call('canvas_check', args({ dryRun: true }))).structured).toMatchObject({ ledger: 'plan', dryRun: true, findings: [] });
    expect(await s.leo.write('canvas_freeze', args({ why: 'the plan is settled', withDone: true }))).toMatchObject({ outcome: 'applied', done: { ledger: 'plan' } });
  });

  it('a subscription hears a write by another process', async () => {
    const heard: string[] = [];
    let resolve = () => {};
    const notified = new Promise<void>((r) => (resolve = r));
    const stop = await s.vic.follow('plan', (uri) => {
      heard.push(uri);
      resolve();
    });
    const { base } = await s.eve.read('plan');
    const r = await runCli(ws, ['insert', 'plan', '--into', 'root', '--text', 'Heard by the subscriber.', '--base', base, '--why', 'news for vic', '--json'], { CANVAS_AUTHOR: 'eve' });
    expect(r.code, r.stderr).toBe(0);
    await notified;
    expect(heard).toEqual(['canvas://plan']);
    await stop();
  });

  it('called every tool the server lists, and answered all four outcomes', async () => {
    const listed = ((await s.leo.listTools()) as Array<{ name: string }>).map((t) => t.name).sort();
    expect([...called].sort()).toEqual(listed);
    expect([...outcomes].sort()).toEqual(['applied', 'conflict', 'proposed', 'rejected']);
  });
});
