import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAccess } from '../../src/store/read/read-access.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { runMain } from '../helpers/run-main.js';
import { repoState, tempWorkspace } from '../helpers/workspace.js';

// canvas_create, canvas_freeze, canvas_abandon, canvas_grant, canvas_revoke, canvas_list and
// canvas_read's projections over the same store functions as the command line (docs/mcp.md "The tools").
describe('the lifecycle, access and view tools over MCP', () => {
  let ws: Workspace;
  let leo: McpSession;
  let zed: McpSession;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-lifecycle-');
    [leo, zed] = await Promise.all([connectAs(ws, 'leo'), connectAs(ws, 'zed')]);
  });

  afterAll(async () => {
    await Promise.all([leo.close(), zed.close()]);
  });

  it('canvas_create makes an empty canvas owned by the caller; again is CANVAS_EXISTS and writes nothing', async () => {
    const made = (await leo.write('canvas_create', { workspace: ws.root, ledger: 'alpha', why: 'a task begins' })) as Applied;
    expect(made).toMatchObject({ outcome: 'applied', node: null });
    expect((await readAccess(ws, { ledger: 'alpha' })).creator).toBe('leo');
    expect((await leo.read('alpha')).xml).toBe('<canvas ledger="alpha" schema="2"></canvas>\n');
    const before = repoState(ws);
    expect(await leo.write('canvas_create', { workspace: ws.root, ledger: 'alpha', why: 'again' })).toMatchObject({ outcome: 'rejected', code: 'CANVAS_EXISTS' });
    expect(repoState(ws)).toEqual(before);
  });

  it('canvas_list shows only the canvases the caller holds a role on, with the role and the revision to write against', async () => {
    await leo.write('canvas_open', { workspace: ws.root, ledger: 'beta', problem: 'Deploys fail on Fridays.', expectedValue: 'Deploys pass every day.', why: 'a second task' });
    const list = (await leo.call('canvas_list', { workspace: ws.root })).structured as { canvases: Array<{ ledger: string; role: string; revision: string; summary: { text: string } | null }> };
    expect(list.canvases.map((c) => [c.ledger, c.role])).toEqual([
      ['alpha', 'owner'],
      ['beta', 'owner'],
    ]);
    expect(list.canvases[1]!.summary?.text).toBe('Deploys fail on Fridays.');
    expect(list.canvases[1]!.revision).toBe((await leo.read('beta')).base);
    expect(((await zed.call('canvas_list', { workspace: ws.root })).structured as { canvases: unknown[] }).canvases).toEqual([]);
  });

  it('canvas_grant gives a role that the grantee can use at once; canvas_revoke takes it back; only an owner may do either', async () => {
    expect((await zed.error('canvas_read', { workspace: ws.root, ledger: 'beta' })).code).toBe('NO_ROLE');
    expect(await leo.write('canvas_grant', { workspace: ws.root, ledger: 'beta', who: 'zed', role: 'viewer', why: 'zed reviews' })).toMatchObject({ outcome: 'applied' });
    expect((await zed.read('beta')).xml).toContain('Deploys fail on Fridays.');
    expect(((await zed.call('canvas_list', { workspace: ws.root })).structured as { canvases: Array<{ ledger: string; role: string }> }).canvases.map((c) => [c.ledger, c.role])).toEqual([['beta', 'viewer']]);
    const before = repoState(ws);
    expect(await zed.write('canvas_grant', { workspace: ws.root, ledger: 'beta', who: 'zed', role: 'owner', why: 'let me in' })).toMatchObject({ outcome: 'rejected', code: 'ROLE_TOO_LOW' });
    // The roles are the schema's: a model sees them listed, and a typo is the SDK's refusal of the arguments.
    const typo = await leo.call('canvas_grant', { workspace: ws.root, ledger: 'beta', who: 'zed', role: 'emperor', why: 'a typo' });
    expect(typo).toMatchObject({ isError: true, text: expect.stringContaining('role must be one of "viewer", "commenter", "editor", "owner"') });
    expect(await leo.write('canvas_grant', { workspace: ws.root, ledger: 'beta', who: 'zed', role: 'viewer', why: 'again' })).toMatchObject({ outcome: 'rejected', code: 'NO_CHANGE' });
    expect(await leo.write('canvas_revoke', { workspace: ws.root, ledger: 'beta', who: 'leo', why: 'leave' })).toMatchObject({ outcome: 'rejected', code: 'LAST_OWNER' });
    expect(repoState(ws)).toEqual(before);
    expect(await leo.write('canvas_revoke', { workspace: ws.root, ledger: 'beta', who: 'zed', why: 'the review is done' })).toMatchObject({ outcome: 'applied' });
    expect((await zed.error('canvas_read', { workspace: ws.root, ledger: 'beta' })).code).toBe('NO_ROLE');
  });

  it('canvas_read gives the page, the comment and the done artifact exactly as canvas render makes them, and the prompt naming the tools', async () => {
    const text = (await leo.call('canvas_read', { workspace: ws.root, ledger: 'beta', format: 'text' })).structured as { content: string };
    expect(text.content).toContain('call canvas_read with ledger beta');
    expect(text.content).not.toMatch(/--[a-z]/);
    const revision = (await leo.read('beta')).base;
    for (const format of ['html', 'comment'] as const) {
      const r = await leo.call('canvas_read', { workspace: ws.root, ledger: 'beta', format });
      expect(r.isError, r.text).toBe(false);
      const cli = await runMain(ws, ['render', 'beta', '--format', format]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(r.structured).toEqual({ ledger: 'beta', revision, format, content: cli.stdout });
    }
    const done = await runMain(ws, ['render', 'beta', '--format', 'done', '--json']);
    expect(done.code, done.stderr).toBe(0);
    expect((await leo.call('canvas_read', { workspace: ws.root, ledger: 'beta', format: 'done' })).structured).toEqual({ ledger: 'beta', revision, format: 'done', done: JSON.parse(done.stdout) });
    expect((await zed.error('canvas_read', { workspace: ws.root, ledger: 'beta', format: 'html' })).code).toBe('NO_ROLE');
  });

  it('canvas_freeze and canvas_abandon record an ending that the list and the page show; each changes no byte', async () => {
    const xml = (await leo.read('beta')).xml;
    const frozen = (await leo.write('canvas_freeze', { workspace: ws.root, ledger: 'beta', why: 'deploys pass on Fridays now' })) as Applied;
    expect(frozen).toMatchObject({ outcome: 'applied', node: null });
    expect((await leo.read('beta')).xml).toBe(xml);
    type Entry = { ledger: string; ending: { kind: string; reason?: string } | null; lastEdit: { op: string; reason: string } };
    const entry = () => leo.call('canvas_list', { workspace: ws.root }).then((r) => (r.structured as { canvases: Entry[] }).canvases.find((c) => c.ledger === 'beta')!);
    // The ending is the last edit: its reason is said once, as the last edit's.
    expect(await entry()).toMatchObject({ ending: { kind: 'frozen', editedSince: false }, lastEdit: { op: 'freeze', reason: 'deploys pass on Fridays now' } });
    expect((await entry()).ending).not.toHaveProperty('reason');
    expect(((await leo.call('canvas_read', { workspace: ws.root, ledger: 'beta', format: 'comment' })).structured as { content: string }).content).toContain('deploys pass on Fridays now');
    expect(await leo.write('canvas_abandon', { workspace: ws.root, ledger: 'alpha', why: 'merged into beta' })).toMatchObject({ outcome: 'applied' });
    expect(((await leo.call('canvas_list', { workspace: ws.root })).structured as { canvases: Array<{ ending: { kind: string } | null }> }).canvases[0]!.ending?.kind).toBe('abandoned');
    expect((await zed.error('canvas_freeze', { workspace: ws.root, ledger: 'beta', why: 'not mine' })).code).toBe('NO_ROLE');
  });
});
