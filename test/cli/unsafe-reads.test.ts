import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { baseOf, runCli, tempWorkspace } from '../helpers/workspace.js';

const git = (ws: Workspace, args: string[], input?: string): string =>
  execFileSync('git', ['-c', 'user.name=x', '-c', 'user.email=x@y', ...args], { cwd: ws.repo, encoding: 'utf8', input }).trim();

/**
 * Commit a canvas file's bytes by hand, moving main and the canvas's ref to it, as a person with
 * git could; the message copies the store's trailers so the canvas's chain and grants still read.
 */
function commitByHand(ws: Workspace, ledger: string, node: string, bytes: string): string {
  const blob = git(ws, ['hash-object', '-w', '--stdin'], bytes);
  const entries = git(ws, ['ls-tree', 'main'])
    .split('\n')
    .filter((l) => !l.endsWith(`\t${ledger}.xml`));
  const tree = git(ws, ['mktree'], `${[...entries, `100644 blob ${blob}\t${ledger}.xml`].join('\n')}\n`);
  const previous = git(ws, ['rev-parse', `refs/canvas/${ledger}`]);
  const message = `replace ${node}: by hand\n\nCanvas-Op: replace\nCanvas-Ledger: ${ledger}\nCanvas-Author: leo | by-hand\nCanvas-Node: ${node}\nCanvas-Base: ${previous}\nCanvas-Previous: ${previous}\n`;
  const commit = git(ws, ['commit-tree', tree, '-p', 'main', '-m', message]);
  git(ws, ['update-ref', 'refs/heads/main', commit]);
  git(ws, ['update-ref', `refs/canvas/${ledger}`, commit]);
  return commit;
}

/** Committed bytes a write would refuse, each with the code every read path must answer. */
const CASES: Array<{ name: string; code: string; bytes: (ledger: string, node: string) => string }> = [
  {
    name: 'a DOCTYPE with an entity',
    code: 'UNSAFE_XML',
    bytes: (l, n) => `<!DOCTYPE canvas [<!ENTITY x "boom">]>\n<canvas ledger="${l}" schema="2">\n  <text id="${n}" v="1">&x;</text>\n</canvas>\n`,
  },
  {
    name: 'a comment',
    code: 'UNSAFE_XML',
    bytes: (l, n) => `<canvas ledger="${l}" schema="2">\n  <!-- hidden -->\n  <text id="${n}" v="1">Plain.</text>\n</canvas>\n`,
  },
  {
    name: 'an element outside the vocabulary',
    code: 'SCHEMA',
    bytes: (l, n) => `<canvas ledger="${l}" schema="2">\n  <script id="${n}" v="1">alert(1)</script>\n</canvas>\n`,
  },
];

describe('every read path parses what it prints and refuses committed bytes a write would refuse', () => {
  const made: Array<{ ws: Workspace; ledger: string; node: string; bad: string; code: string; name: string }> = [];
  let sessions: McpSession[] = [];

  beforeAll(async () => {
    for (const c of CASES) {
      const ws = tempWorkspace('canvas-unsafe-read-');
      const ledger = 'hand';
      expect((await runCli(ws, ['create', ledger, '--why', 'a canvas to spoil'])).code).toBe(0);
      const read = await runCli(ws, ['read', ledger]);
      const insert = await runCli(ws, ['insert', ledger, '--into', 'root', '--base', baseOf(read.stdout), '--text', 'Plain.', '--why', 'a node', '--json']);
      const node = (JSON.parse(insert.stdout) as { node: string }).node;
      const bad = commitByHand(ws, ledger, node, c.bytes(ledger, node));
      made.push({ ws, ledger, node, bad, code: c.code, name: c.name });
    }
  });

  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    sessions = [];
  });

  it('read, read --id, read --type, read --at, render (three formats), prompt and read --json: the code, exit 2, nothing printed', async () => {
    for (const m of made) {
      const variants = [
        ['read', m.ledger],
        ['read', m.ledger, '--id', m.node],
        ['read', m.ledger, '--type', 'text'],
        ['read', m.ledger, '--at', m.bad],
        ['render', m.ledger],
        ['render', m.ledger, '--format', 'comment'],
        ['render', m.ledger, '--format', 'text'],
        ['render', m.ledger, '--at', m.bad],
        ['prompt', m.ledger],
      ];
      for (const args of variants) {
        const r = await runCli(m.ws, args);
        const what = `${m.name}: canvas ${args.join(' ')}`;
        expect(r.code, `${what}\n${r.stdout}`).toBe(2);
        expect(r.stderr, what).toMatch(new RegExp(`^canvas: ${m.code}: `));
        expect(r.stdout, what).toBe('');
      }
      const json = await runCli(m.ws, ['read', m.ledger, '--json']);
      expect(json.code, m.name).toBe(2);
      expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code, m.name).toBe(m.code);
    }
  });

  it('the MCP server answers canvas_read and canvas_prompt with the same code', async () => {
    for (const m of made) {
      const s = await connectAs(m.ws, 'leo');
      sessions.push(s);
      for (const args of [{}, { at: m.bad }]) {
        expect((await s.error('canvas_read', { workspace: m.ws.root, ledger: m.ledger, ...args })).code, m.name).toBe(m.code);
      }
      expect((await s.error('canvas_prompt', { workspace: m.ws.root, ledger: m.ledger })).code, m.name).toBe(m.code);
    }
  });
});
