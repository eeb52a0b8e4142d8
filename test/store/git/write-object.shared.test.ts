import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { gitIdent } from '../../../src/store/git/git-ident.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import { RepoReader } from '../../../src/store/repo/repo-reader.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { hashObject, writeObject } from '../../../src/store/git/write-object.js';
import { writeTree } from '../../../src/store/git/write-tree.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

const git = (cwd: string, args: string[], input?: string, env: Record<string, string | undefined> = {}) => {
  const all: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const k of Object.keys(all)) if (all[k] === undefined) delete all[k];
  return execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, input, encoding: 'utf8', env: all }).trim();
};

async function repo() {
  const ws = tempWorkspace();
  expect((await createCanvas(ws, { ledger: 'o', why: 'objects', author: AUTHOR })).outcome).toBe('applied');
  return ws;
}

describe('objects written in process are the ones git writes', () => {
  it('a blob: the sha git computes, readable by git', async () => {
    const ws = await repo();
    const content = Buffer.from('<canvas ledger="o" schema="2">\n  <text id="ab12" v="1">é &amp; ü</text>\n</canvas>\n');
    const sha = writeObject(`${ws.repo}/.git`, 'blob', content);
    expect(sha).toBe(git(ws.repo, ['hash-object', '--stdin'], content.toString()));
    expect(hashObject('blob', content)).toBe(sha);
    expect(git(ws.repo, ['cat-file', '-p', sha])).toBe(content.toString().trim());
    // Written twice: still one object, no error.
    expect(writeObject(`${ws.repo}/.git`, 'blob', content)).toBe(sha);
    git(ws.repo, ['fsck', '--strict']);
  });

  it('a tree with nested changes: the sha `git mktree` gives for the same entries', async () => {
    const ws = await repo();
    const gitDir = `${ws.repo}/.git`;
    const blob = (s: string) => writeObject(gitDir, 'blob', Buffer.from(s));
    const reader = new RepoReader(ws);
    try {
      const changes = new Map([
        ['o.xml', blob('doc')],
        ['access/o.json', blob('{}')],
        ['proposals/o/p1.json', blob('p1')],
        ['access.txt', blob('sorts before access/ as a file, after it as a directory')],
        ['a-b.xml', blob('dash sorts before slash')],
      ]);
      const ours = await writeTree(ws.repo, reader, null, changes);
      const sub = (entries: string) => git(ws.repo, ['mktree'], entries);
      const proposalsO = sub(`100644 blob ${changes.get('proposals/o/p1.json')}\tp1.json\n`);
      const proposals = sub(`040000 tree ${proposalsO}\to\n`);
      const access = sub(`100644 blob ${changes.get('access/o.json')}\to.json\n`);
      const theirs = sub(
        [
          `100644 blob ${changes.get('o.xml')}\to.xml`,
          `040000 tree ${access}\taccess`,
          `040000 tree ${proposals}\tproposals`,
          `100644 blob ${changes.get('access.txt')}\taccess.txt`,
          `100644 blob ${changes.get('a-b.xml')}\ta-b.xml`,
        ].join('\n') + '\n',
      );
      expect(ours).toBe(theirs);
      // Changing one path of that tree keeps the others.
      const next = await writeTree(ws.repo, reader, ours, new Map([['access/o.json', blob('{"grants":{}}')]]));
      expect(git(ws.repo, ['ls-tree', '-r', '--name-only', next]).split('\n')).toEqual(['a-b.xml', 'access.txt', 'access/o.json', 'o.xml', 'proposals/o/p1.json']);
      git(ws.repo, ['fsck', '--strict']);
    } finally {
      reader.close();
    }
  });

  it('identity lines: the name and email cleaned as git cleans them, the date as git reads it', async () => {
    const ws = await repo();
    const tree = git(ws.repo, ['write-tree']);
    const names = ['leo | by-hand', 'w1 | step:s. ', 'leo@example.org | run:r:', 'x,;"\'\\.', ' .lead'];
    const dates = ['2026-01-01T00:00:00Z', '2026-03-04T05:06:07+02:00', '2026-03-04T05:06:07-0730', '1767225600 +0100', '@1767225600 -0000'];
    for (const name of names) {
      for (const date of dates) {
        const email = name.includes('@') ? name.split(' ')[0]! : '';
        const sha = git(ws.repo, ['commit-tree', tree, '-m', 'm'], undefined, {
          GIT_AUTHOR_NAME: name,
          GIT_AUTHOR_EMAIL: email,
          GIT_AUTHOR_DATE: date,
          GIT_COMMITTER_NAME: 'canvas',
          GIT_COMMITTER_EMAIL: '',
        });
        const line = git(ws.repo, ['cat-file', 'commit', sha])
          .split('\n')
          .find((l) => l.startsWith('author '))!;
        expect(`author ${gitIdent(name, email, date, new Date())}`, `${name} / ${date}`).toBe(line);
      }
    }
    // No date: now, in the local zone, as git writes it.
    const now = new Date();
    const sha = git(ws.repo, ['commit-tree', tree, '-m', 'm'], undefined, {
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: '',
      GIT_AUTHOR_DATE: undefined,
      GIT_COMMITTER_NAME: 'c',
      GIT_COMMITTER_EMAIL: '',
    });
    const line = git(ws.repo, ['cat-file', 'commit', sha])
      .split('\n')
      .find((l) => l.startsWith('author '))!;
    const ours = `author ${gitIdent('a', '', undefined, now)}`;
    expect(ours.replace(/ \d+ /, ' T ')).toBe(line.replace(/ \d+ /, ' T '));
    expect(Math.abs(Number(/ (\d+) /.exec(ours)![1]) - Number(/ (\d+) /.exec(line)![1]))).toBeLessThanOrEqual(5);
    // A date form only git should parse: the store lets git write that commit.
    expect(gitIdent('a', '', 'yesterday', now)).toBeNull();
    expect(gitIdent('a', '', '', now)).toBeNull();
  });

  it('every commit a write makes is the one `git commit-tree` makes from the same tree, parent, identity and message', async () => {
    const ws = await repo();
    await grantRole(ws, { ledger: 'o', who: 'ann@example.org', role: 'editor', why: 'a second author', author: AUTHOR });
    let base = git(ws.repo, ['rev-parse', 'refs/canvas/o']);
    for (const [i, text] of ['one', 'two & <three>', 'quatre é'].entries()) {
      const o = await insertNode(ws, { ledger: 'o', into: 'root', payload: { text }, base, why: `edit ${i}`, author: i === 2 ? 'ann@example.org | step:s1' : AUTHOR });
      if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
      base = o.revision;
    }
    const shas = git(ws.repo, ['rev-list', 'main']).split('\n');
    expect(shas).toHaveLength(5);
    for (const sha of shas) {
      const raw = git(ws.repo, ['cat-file', 'commit', sha]);
      const head = raw.slice(0, raw.indexOf('\n\n'));
      const message = `${raw.slice(raw.indexOf('\n\n') + 2)}\n`;
      const field = (k: string) =>
        head
          .split('\n')
          .find((l) => l.startsWith(`${k} `))
          ?.slice(k.length + 1);
      const ident = /^(.*) <(.*)> (\d+ [+-]\d{4})$/.exec(field('author')!)!;
      const parent = field('parent');
      const again = git(ws.repo, ['commit-tree', field('tree')!, ...(parent ? ['-p', parent] : []), '-F', '-'], message, {
        GIT_AUTHOR_NAME: ident[1]!,
        GIT_AUTHOR_EMAIL: ident[2]!,
        GIT_AUTHOR_DATE: ident[3]!,
        GIT_COMMITTER_NAME: 'canvas',
        GIT_COMMITTER_EMAIL: '',
        GIT_COMMITTER_DATE: /^canvas <> (.*)$/.exec(field('committer')!)![1]!,
      });
      expect(again).toBe(sha);
    }
    git(ws.repo, ['fsck', '--strict']);
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });
});
