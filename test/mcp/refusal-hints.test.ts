import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Applied, Proposed } from '../../src/store/repo/outcome.js';
import { readCanvasText } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { tempWorkspace } from '../helpers/workspace.js';

/** A flag as the command line spells it: what no hint over MCP may name. */
const FLAG = /(^|[^\w-])--[a-z]/;

// Every refusal an MCP caller can get, through a real client: each hint names a tool and its
// argument, never a command's flag (docs/errors.md, "Hints over MCP").
describe('refusals over MCP speak MCP', () => {
  let ws: Workspace;
  let leo: McpSession;
  let cam: McpSession;
  let zed: McpSession;
  let base = '';
  let section = '';
  let text = '';
  let other = '';
  let proposal = '';

  beforeAll(async () => {
    ws = tempWorkspace('canvas-mcp-hints-');
    await createCanvas(ws, { ledger: 'h', why: 'hints', author: 'leo' });
    await createCanvas(ws, { ledger: 'other', why: 'another canvas', author: 'leo' });
    other = (await readCanvasText(ws, { ledger: 'other' })).revision;
    await grantRole(ws, { ledger: 'h', who: 'cam', role: 'commenter', why: 'cam comments', author: 'leo' });
    const s = (await insertNode(ws, { ledger: 'h', into: 'root', payload: { section: 'Notes' }, base: (await readCanvasText(ws, { ledger: 'h' })).revision, why: 'a section', author: 'leo' })) as Applied;
    const t = (await insertNode(ws, { ledger: 'h', into: s.node!, payload: { text: 'Draft.' }, base: s.revision, why: 'a draft', author: 'leo' })) as Applied;
    section = s.node!;
    text = t.node!;
    base = t.revision;
    [leo, cam, zed] = await Promise.all([connectAs(ws, 'leo'), connectAs(ws, 'cam'), connectAs(ws, 'zed')]);
    proposal = ((await cam.write('canvas_replace', { workspace: ws.root, ledger: 'h', node: text, text: 'Better.', base, why: 'clearer' })) as Proposed).proposalId;
    base = (await leo.read('h')).base;
    await leo.write('canvas_approve_proposal', { workspace: ws.root, ledger: 'h', proposalId: proposal, why: 'yes' });
    base = (await leo.read('h')).base;
  });

  afterAll(async () => {
    await Promise.all([leo.close(), cam.close(), zed.close()]);
  });

  it('walks the refusals: each is refused, and no hint names a flag', async () => {
    const w = { workspace: ws.root, ledger: 'h' };
    const calls: Array<[McpSession, string, Record<string, unknown>]> = [
      [leo, 'canvas_insert', { ...w, into: 'root', text: 'x', why: 'no base' }],
      [leo, 'canvas_insert', { ...w, into: 'root', why: 'no payload', base }],
      [leo, 'canvas_insert', { ...w, into: 'root', after: text, text: 'x', why: 'two anchors', base }],
      [leo, 'canvas_insert', { ...w, into: 'root', xml: '<text>x', why: 'bad xml', base }],
      [leo, 'canvas_insert', { ...w, into: 'root', xml: '<para>x</para>', why: 'not in the schema', base }],
      [leo, 'canvas_insert', { ...w, into: 'root', xml: '<text id="a1" v="1">x</text>', why: 'an id', base }],
      [leo, 'canvas_insert', { ...w, into: 'root', xml: '<section title="S"><text>x</text></section>', why: 'children', base }],
      [leo, 'canvas_insert', { ...w, into: 'nope', text: 'x', why: 'no such anchor', base }],
      [leo, 'canvas_insert', { ...w, into: 'root', text: 'x', why: 'two\nlines', base }],
      [leo, 'canvas_insert', { ...w, into: 'root', text: 'x', why: 'a step', step: 'bad step', base }],
      [leo, 'canvas_insert', { ...w, into: 'root', text: 'x', why: 'unknown base', base: 'f'.repeat(40) }],
      [leo, 'canvas_insert', { ...w, into: 'root', text: 'x', why: 'foreign base', base: other }],
      [leo, 'canvas_insert', { ...w, into: 'root', xml: '<figure kind="diagram">nonsense</figure>', why: 'a bad diagram', base }],
      [leo, 'canvas_replace', { ...w, node: text, text: 'Better.', why: 'no change', base }],
      [leo, 'canvas_remove', { ...w, node: section, why: 'has children', base }],
      [leo, 'canvas_move', { ...w, node: section, into: section, why: 'into itself', base }],
      [leo, 'canvas_remove', { ...w, node: 'zz99', why: 'no such node', base }],
      [leo, 'canvas_approve_proposal', { ...w, proposalId: proposal, why: 'again' }],
      [leo, 'canvas_reject_proposal', { ...w, proposalId: '0000000000', why: 'no such proposal' }],
      [cam, 'canvas_approve_proposal', { ...w, proposalId: proposal, why: 'a commenter' }],
      [cam, 'canvas_freeze', { ...w, why: 'a commenter' }],
      [zed, 'canvas_read', w],
      [zed, 'canvas_insert', { ...w, into: 'root', text: 'x', why: 'no role', base }],
      [leo, 'canvas_read', { workspace: ws.root, ledger: 'Bad Ledger' }],
      [leo, 'canvas_read', { workspace: ws.root, ledger: 'missing' }],
      [leo, 'canvas_read', { ...w, workspace: '/elsewhere' }],
      [leo, 'canvas_create', { ...w, why: 'exists' }],
      [leo, 'canvas_open', { workspace: ws.root, ledger: 'fresh', why: 'no problem given' }],
      [leo, 'canvas_grant', { ...w, who: 'cam', role: 'commenter', why: 'no change' }],
      [leo, 'canvas_revoke', { ...w, who: 'leo', why: 'last owner' }],
      [leo, 'canvas_revoke', { ...w, who: 'zed', why: 'no grant' }],
      [cam, 'canvas_grant', { ...w, who: 'cam', role: 'owner', why: 'not an owner' }],
      [leo, 'canvas_history', { ...w, node: 'zz99' }],
      [leo, 'canvas_check', w],
    ];
    const codes = new Set<string>();
    const listed = (await leo.listTools()) as Array<{ name: string; inputSchema: { properties: Record<string, unknown> } }>;
    const argsOf = (name: string) => Object.keys(listed.find((t) => t.name === name)?.inputSchema.properties ?? {});
    for (const [s, tool, args] of calls) {
      const r = await s.call(tool, args);
      const refusal = (r.structured?.error as { code: string; hint: string } | undefined) ?? (r.structured as { outcome?: string; code: string; hint: string } | undefined);
      expect(refusal && ('outcome' in refusal ? refusal.outcome === 'rejected' : true), `${tool}: ${r.text}`).toBe(true);
      expect(refusal!.hint, `${tool}: ${r.text}`).not.toMatch(FLAG);
      // A hint can be followed: every tool it names is listed, and every argument it names is one of theirs.
      const named = [...refusal!.hint.matchAll(/canvas_[a-z_]+/g)].map((m) => m[0]);
      for (const name of named)
        expect(
          listed.map((t) => t.name),
          `${tool}: ${refusal!.hint}`,
        ).toContain(name);
      const known = new Set([tool, ...named].flatMap(argsOf));
      for (const [, arg] of refusal!.hint.matchAll(/`([a-zA-Z]+)`/g)) expect([...known], `${tool}: ${refusal!.hint}`).toContain(arg);
      codes.add(refusal!.code);
    }
    expect([...codes].sort()).toEqual(
      [
        'BAD_AUTHOR',
        'BAD_LEDGER_ID',
        'BAD_REASON',
        'BASE_REQUIRED',
        'CANVAS_EXISTS',
        'CANVAS_NOT_FOUND',
        'CHECK_CONFIG',
        'DIAGRAM_SYNTAX',
        'FOREIGN_BASE',
        'HAS_CHILDREN',
        'LAST_OWNER',
        'MOVE_INTO_SELF',
        'NODE_NOT_FOUND',
        'NO_CHANGE',
        'NO_ROLE',
        'PAYLOAD_CHILDREN',
        'PAYLOAD_HAS_ID',
        'PROPOSAL_DECIDED',
        'PROPOSAL_NOT_FOUND',
        'ROLE_TOO_LOW',
        'SCHEMA',
        'UNKNOWN_BASE',
        'USAGE',
        'WORKSPACE_MISMATCH',
        'XML_PARSE',
      ].sort(),
    );
  });

  it('NO_ROLE names the owners and the canvas_grant call, which followed word for word lets the caller in', async () => {
    const follow = async (hint: string) => {
      const m = /^ask an owner of ([a-z0-9._-]+) \(([^)]+)\) to call (canvas_grant) with ledger (\S+), who (\S+), role (\S+) and a why$/.exec(hint);
      expect(m, hint).not.toBeNull();
      const [, ledger, owners, tool, argLedger, who, role] = m!;
      expect([ledger, argLedger, owners]).toEqual(['h', 'h', 'leo']);
      const owner = { leo }[owners as 'leo'];
      expect(await owner.write(tool!, { workspace: ws.root, ledger: argLedger, who, role, why: `${who} asked for ${role}` })).toMatchObject({ outcome: 'applied' });
    };
    const read = await zed.error('canvas_read', { workspace: ws.root, ledger: 'h' });
    expect(read.code).toBe('NO_ROLE');
    await follow(read.hint);
    expect((await zed.read('h')).xml).toContain('<canvas ledger="h"');
    // A write needs more than a read: the refusal says which role, and following it makes the write a proposal.
    await leo.write('canvas_revoke', { workspace: ws.root, ledger: 'h', who: 'zed', why: 'zed is done reading' });
    const write = await zed.error('canvas_insert', { workspace: ws.root, ledger: 'h', into: 'root', text: 'x', why: 'no role', base: (await leo.read('h')).base });
    expect(write.code).toBe('NO_ROLE');
    expect(write.hint).toContain('role commenter');
    await follow(write.hint);
    expect(await zed.write('canvas_insert', { workspace: ws.root, ledger: 'h', into: 'root', text: 'x', why: 'a note', base: (await leo.read('h')).base })).toMatchObject({ outcome: 'proposed' });
    await leo.write('canvas_revoke', { workspace: ws.root, ledger: 'h', who: 'zed', why: 'the note is in' });
  });

  it("NOT_WATCHING's hint is a sentence whose two tools, followed, show and start the watch", async () => {
    // cam proposed an edit, so cam watches h: stop first.
    await cam.call('canvas_unwatch', { workspace: ws.root, ledger: 'h' });
    const e = await cam.error('canvas_unwatch', { workspace: ws.root, ledger: 'h' });
    expect(e.code).toBe('NOT_WATCHING');
    expect(e.hint).toBe('you do not watch h: canvas_inbox shows the canvases you watch, and canvas_watch with ledger h starts watching it');
    const inbox = (await cam.call('canvas_inbox', { workspace: ws.root })).structured as { canvases: Array<{ ledger: string }> };
    expect(inbox.canvases.map((c) => c.ledger)).not.toContain('h');
    expect((await cam.call('canvas_watch', { workspace: ws.root, ledger: 'h' })).structured).toMatchObject({ ledger: 'h', watching: true });
    expect((await cam.call('canvas_unwatch', { workspace: ws.root, ledger: 'h' })).structured).toMatchObject({ ledger: 'h', watching: false });
  });

  it('says the fix in tools and arguments: a missing base names canvas_read and `base`; no role names canvas_grant', async () => {
    const missing = await leo.write('canvas_insert', { workspace: ws.root, ledger: 'h', into: 'root', text: 'x', why: 'no base' });
    expect(missing).toMatchObject({ outcome: 'rejected', code: 'BASE_REQUIRED' });
    expect((missing as { hint: string }).hint).toMatch(/canvas_read.*`base`/);
    const noRole = await zed.error('canvas_read', { workspace: ws.root, ledger: 'h' });
    expect(noRole.hint).toContain('canvas_grant with ledger h, who zed, role viewer');
  });
});
