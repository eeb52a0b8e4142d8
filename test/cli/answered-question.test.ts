// The question sugar through the CLI's entry in process; one refusal runs as a real process to
// pin its exit code and stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, repoState, runCli, tempWorkspace } from '../helpers/workspace.js';

/** The question sugar says whether the question is answered; without it the question is open. */
describe('--question with --answered (and the MCP answered argument)', () => {
  let ws: Workspace;
  let node = '';
  let base = '';
  let mcp: McpSession | null = null;

  const read = async () => {
    const r = await runMain(ws, ['read', 'qa', '--id', node]);
    base = baseOf(r.stdout);
    return r.stdout;
  };

  beforeAll(async () => {
    ws = tempWorkspace('canvas-answered-');
    expect((await runMain(ws, ['create', 'qa', '--why', 'a canvas with a question'])).code).toBe(0);
    const first = await runMain(ws, ['read', 'qa']);
    const out = await runMain(ws, ['insert', 'qa', '--into', 'root', '--question', 'Who owns it?', '--base', baseOf(first.stdout), '--why', 'ask', '--json']);
    node = (JSON.parse(out.stdout) as { node: string }).node;
    await read();
    const answered = await runMain(ws, ['replace', 'qa', node, '--xml', '<question answered="true">Who owns it?</question>', '--base', base, '--why', 'leo owns it']);
    expect(answered.code, answered.stderr).toBe(0);
  });

  afterAll(async () => {
    await mcp?.close();
  });

  it('replace --question S --answered keeps an answered question answered', async () => {
    await read();
    const r = await runMain(ws, ['replace', 'qa', node, '--question', 'Who owns it, and who backs them up?', '--answered', '--base', base, '--why', 'reword, still answered']);
    expect(r.code, r.stderr).toBe(0);
    expect(await read()).toContain(`<question id="${node}" v="3" answered="true">Who owns it, and who backs them up?</question>`);
  });

  it('--question alone is an open question, as its help says', async () => {
    const help = await runMain(ws, ['replace', '--help']);
    expect(help.stdout).toMatch(/--question <text>\s+sugar for <question>\.\.\.<\/question>: the question is\s+open unless --answered is given/);
    await read();
    const r = await runMain(ws, ['replace', 'qa', node, '--question', 'Who owns it now?', '--base', base, '--why', 'open it again on purpose']);
    expect(r.code, r.stderr).toBe(0);
    expect(await read()).toContain(`<question id="${node}" v="4">Who owns it now?</question>`);
  });

  it('--answered without --question: USAGE, nothing written', async () => {
    await read();
    const before = repoState(ws);
    const r = await runCli(ws, ['replace', 'qa', node, '--text', 'Leo.', '--answered', '--base', base, '--why', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^canvas: USAGE: /);
    expect(repoState(ws)).toEqual(before);
  });

  it('MCP canvas_replace with question and answered: true; answered with text is USAGE', async () => {
    mcp = await connectAs(ws, 'leo');
    await read();
    const out = await mcp.write('canvas_replace', { workspace: ws.root, ledger: 'qa', node, question: 'Who owns it? Leo.', answered: true, base, why: 'answered over MCP' });
    expect(out.outcome).toBe('applied');
    expect(await read()).toContain(`<question id="${node}" v="5" answered="true">Who owns it? Leo.</question>`);
    const before = repoState(ws);
    const refused = await mcp.write('canvas_replace', { workspace: ws.root, ledger: 'qa', node, text: 'Leo.', answered: true, base, why: 'x' });
    expect(refused).toMatchObject({ outcome: 'rejected', code: 'USAGE' });
    expect(repoState(ws)).toEqual(before);
  });
});
