import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIn, type StandInAnswer, startStandIn } from '../../bench/coherence-eval/stand-in.js';
import type { CheckReport } from '../../src/check/check-coherence.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { AUTHOR, repoState, tempWorkspace } from '../helpers/workspace.js';

let standIn: StandIn;
let answer: () => StandInAnswer = () => ({});
let ws: Workspace;
let session: McpSession;
const ids: string[] = [];

beforeAll(async () => {
  standIn = await startStandIn(() => answer());
  ws = tempWorkspace('canvas-check-mcp-');
  let revision = ((await createCanvas(ws, { ledger: 'm', why: 'a canvas to check', author: AUTHOR })) as Applied).revision;
  for (const text of ['The cache lives under .git.', 'The cache lives in the working tree.']) {
    const o = (await insertNode(ws, { ledger: 'm', why: 'known', author: AUTHOR, base: revision, ...(ids.length ? { after: ids.at(-1) } : { into: 'root' }), payload: { text } })) as Applied;
    ids.push(o.node!);
    revision = o.revision;
  }
  await grantRole(ws, { ledger: 'm', who: 'checker', role: 'editor', why: 'the checker asks here', author: AUTHOR });
  // The server takes its model from its environment, as it is started.
  process.env.CANVAS_MODEL_URL = standIn.url;
  process.env.CANVAS_MODEL = 'stand-in-1';
  session = await connectAs(ws, 'checker');
});
afterAll(async () => {
  await session.close();
  await standIn.close();
});

describe('canvas_check over MCP', () => {
  it('writes the contradiction as the server identity with step check; a refused reply is isError with nothing written', async () => {
    answer = () => ({ content: { contradictions: [{ nodes: ids, question: 'Where does the cache live?', evidence: 'two places' }] } });
    const r = await session.call('canvas_check', { workspace: ws.root, ledger: 'm' });
    expect(r.isError, r.text).toBe(false);
    const report = JSON.parse(r.text) as CheckReport;
    expect(report.findings.map((f) => [f.status, f.after])).toEqual([['asked', ids[1]]]);
    const log = JSON.parse((await session.call('canvas_history', { workspace: ws.root, ledger: 'm', limit: 1 })).text) as { commits: Array<{ author: string; node: string }> };
    expect(log.commits[0]).toMatchObject({ author: 'checker | step:check', node: report.findings[0]!.node });

    answer = () => ({ content: 'not json' });
    const state = repoState(ws);
    const bad = await session.call('canvas_check', { workspace: ws.root, ledger: 'm' });
    expect(bad.isError).toBe(true);
    expect((JSON.parse(bad.text) as { error: { code: string } }).error.code).toBe('CHECK_BAD_REPLY');
    expect(repoState(ws)).toEqual(state);
  });
});
