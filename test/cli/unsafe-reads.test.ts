import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { createCanvas, insertNode, readCanvas } from '../../src/index.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, runCli, tempWorkspace } from '../helpers/workspace.js';

const git = (ws: Workspace, args: string[], input?: string): string => execFileSync('git', ['-c', 'user.name=x', '-c', 'user.email=x@y', ...args], { cwd: ws.repo, encoding: 'utf8', input }).trim();

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
  // One workspace, one canvas per case, made through the library; every read path runs through the
  // CLI's entry in process for the first case, the plain read, --at and a render for the others;
  // the first plain read is also a real process, for the exit code and the streams a user sees.
  // Made when the tests start, not when they are collected (`vitest list` runs no hook that would remove it).
  let ws: Workspace;
  const made: Array<{ ledger: string; node: string; bad: string; code: string; name: string; all: boolean }> = [];
  let session: McpSession | null = null;

  beforeAll(async () => {
    ws = tempWorkspace('canvas-unsafe-read-');
    for (const [i, c] of CASES.entries()) {
      const ledger = `hand${i}`;
      expect((await createCanvas(ws, { ledger, why: 'a canvas to spoil', author: AUTHOR })).outcome).toBe('applied');
      const base = (await readCanvas(ws, { ledger })).revision;
      const insert = await insertNode(ws, { ledger, into: 'root', payload: { text: 'Plain.' }, base, why: 'a node', author: AUTHOR });
      const node = (insert as Applied).node!;
      const bad = commitByHand(ws, ledger, node, c.bytes(ledger, node));
      made.push({ ledger, node, bad, code: c.code, name: c.name, all: i === 0 });
    }
  });

  afterAll(async () => {
    await session?.close();
  });

  it('read, read --id, read --type, read --at, render (three formats), prompt and read --json: the code, exit 2, nothing printed', async () => {
    for (const m of made) {
      const variants = m.all
        ? [
            ['read', m.ledger],
            ['read', m.ledger, '--id', m.node],
            ['read', m.ledger, '--type', 'text'],
            ['read', m.ledger, '--at', m.bad],
            ['render', m.ledger],
            ['render', m.ledger, '--format', 'comment'],
            ['render', m.ledger, '--format', 'text'],
            ['render', m.ledger, '--at', m.bad],
            ['prompt', m.ledger],
          ]
        : [
            ['read', m.ledger],
            ['read', m.ledger, '--at', m.bad],
            ['render', m.ledger, '--format', 'comment'],
          ];
      for (const args of variants) {
        const r = await (m.all && args === variants[0] ? runCli : runMain)(ws, args);
        const what = `${m.name}: canvas ${args.join(' ')}`;
        expect(r.code, `${what}\n${r.stdout}`).toBe(2);
        expect(r.stderr, what).toMatch(new RegExp(`^canvas: ${m.code}: `));
        expect(r.stdout, what).toBe('');
      }
      if (!m.all) continue;
      const json = await runMain(ws, ['read', m.ledger, '--json']);
      expect(json.code, m.name).toBe(2);
      expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code, m.name).toBe(m.code);
    }
  });

  it('the MCP server answers canvas_read as the document and as the prompt with the same code', async () => {
    session = await connectAs(ws, 'leo');
    for (const m of made) {
      for (const args of [{}, { at: m.bad }]) {
        expect((await session.error('canvas_read', { workspace: ws.root, ledger: m.ledger, ...args })).code, m.name).toBe(m.code);
      }
      expect((await session.error('canvas_read', { workspace: ws.root, ledger: m.ledger, format: 'text' })).code, m.name).toBe(m.code);
    }
  });
});
