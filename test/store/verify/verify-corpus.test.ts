// The mutation corpus of `canvas verify` (docs/store.md, "Verify"): hand-made commits in the
// store's own format, each made with plain git in a copy of one small workspace built through
// the library, each caught with a named violation and exit 4; the untouched workspace stays green.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { formatCommitMessage, type CanvasOp, type TrailerKey } from '../../../src/store/repo/canvas-commit.js';
import { createCanvas, freezeCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, moveNode, removeNode, replaceNode } from '../../../src/store/write/node-writes.js';
import { approveProposal, rejectProposal } from '../../../src/store/write/decide-proposal.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import type { VerifyRule } from '../../../src/store/verify/verify-rules.js';
import { resolveWorkspace, type Workspace } from '../../../src/store/repo/workspace.js';
import { runMain } from '../../helpers/run-main.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';
import { tempDir } from '../../helpers/temp-dir.js';

const SVG = 'xmlns="http://www.w3.org/2000/svg"';

/** What a case knows of the base workspace. */
interface Base {
  ws: Workspace;
  /** The text node every edit in the base touched, and its section and SVG figure. */
  node: string;
  section: string;
  figure: string;
  /** An open proposal (a replace of `node`), one approved, one rejected. */
  open: string;
  approved: string;
  rejected: string;
}

/** Plain git in a workspace's repository, with nobody's configuration but the repository's. */
function git(ws: Workspace, args: string[], input?: string, env: Record<string, string> = {}): string {
  return execFileSync('git', args, {
    cwd: ws.repo,
    input,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', ...env },
  }).trim();
}

/** A file at main, read from the working tree: the store writes each working file with its commit, and so does {@link forge}. */
function show(ws: Workspace, path: string): string {
  return readFileSync(join(ws.repo, path), 'utf8');
}

/** A commit message in the store's format. */
function message(op: CanvasOp, node: string | null, reason: string, trailers: Partial<Record<TrailerKey, string>>): string {
  return formatCommitMessage(op, node, reason, trailers);
}

interface Forgery {
  /** Files to write (null: delete) on top of main's tree. */
  files?: Record<string, string | null>;
  message: string;
  /** The git author name (default: the message's Canvas-Author). */
  author?: string;
  /** The committer name (default: the store's, `canvas`). */
  committer?: string;
  /** The parent (default: main). */
  parent?: string;
  /** The canvas ref moved along with main (default: `refs/canvas/t`). */
  ref?: string;
}

/** A length-prefixed `data` block of git fast-import. */
function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

/** The fixed date of the tests' git (test/helpers/setup-env.ts), as git's raw `<seconds> <zone>`. */
const DATE = `${Math.floor(Date.parse(process.env.GIT_AUTHOR_DATE ?? '2026-01-01T00:00:00Z') / 1000)} +0000`;

/**
 * Make a commit by hand, as someone with write access to the repository could, and move main and
 * the canvas ref to it, each move logged in its reflog (the working files follow, so only the
 * commit is off). One `git fast-import` writes the blobs, the tree and the commit and moves both
 * refs (`--force`: a commit made in the place of main's last is no descendant of it); its objects
 * stay in a pack of their own (`fastimport.unpackLimit=0`, no second process to unpack them).
 */
function forge(ws: Workspace, f: Forgery): string {
  const parent = f.parent ?? tip(ws);
  const author = f.author ?? /^Canvas-Author: (.*)$/m.exec(f.message)![1]!;
  const changes = Object.entries(f.files ?? {}).map(([path, content]) => (content === null ? `D ${path}\n` : `M 100644 inline ${path}\n${data(content)}`));
  const ref = f.ref ?? 'refs/canvas/t';
  const stream = [
    'commit refs/heads/main\nmark :1\n',
    `author ${author} <> ${DATE}\ncommitter ${f.committer ?? 'canvas'} <> ${DATE}\n`,
    data(f.message),
    `from ${parent}\n`,
    ...changes,
    `\nreset ${ref}\nfrom :1\n\ndone\n`,
  ].join('');
  git(ws, ['-c', 'fastimport.unpackLimit=0', 'fast-import', '--quiet', '--force', '--done'], stream);
  for (const [path, content] of Object.entries(f.files ?? {})) {
    if (content === null) rmSync(join(ws.repo, path), { force: true });
    else writeFileSync(join(ws.repo, path), content);
  }
  return tip(ws);
}

/** Remove a reflog's last two entries (the move to a commit and the move back). */
function dropLastEntries(log: string): void {
  if (!existsSync(log)) return;
  const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  writeFileSync(log, `${lines.slice(0, -2).join('\n')}\n`);
}

/** Main's commit, from its ref file (the store and {@link forge} keep it loose). */
function tip(ws: Workspace): string {
  return readFileSync(join(ws.repo, '.git', 'refs', 'heads', 'main'), 'utf8').trim();
}

/** The document at main with one text node's text replaced (its v bumped). */
function replacedText(ws: Workspace, node: string, text: string): string {
  return show(ws, 't.xml').replace(new RegExp(`<text id="${node}" v="(\\d+)">[^<]*</text>`), (_, v: string) => `<text id="${node}" v="${Number(v) + 1}">${text}</text>`);
}

/** A replace of a text node by `author`, in the store's own format. */
function forgeReplace(b: Base, ws: Workspace, author: string, extra: Partial<Forgery> = {}, trailers: Partial<Record<TrailerKey, string>> = {}): string {
  const head = tip(ws);
  return forge(ws, {
    files: { 't.xml': replacedText(ws, b.node, `Rewritten by ${author.split(' ')[0]}.`) },
    message: message('replace', b.node, 'a forged edit', {
      'Canvas-Op': 'replace',
      'Canvas-Ledger': 't',
      'Canvas-Node': b.node,
      'Canvas-Author': author,
      'Canvas-Base': head,
      'Canvas-Previous': head,
      ...trailers,
    }),
    ...extra,
  });
}

function accessWith(grants: Record<string, string>): string {
  const sorted = Object.fromEntries(Object.entries(grants).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${JSON.stringify({ ledger: 't', grants: sorted }, null, 2)}\n`;
}

const GRANTS = { cam: 'commenter', eve: 'editor', leo: 'owner', vic: 'viewer' };

function forgeGrant(ws: Workspace, author: string, trailer: string, grants: Record<string, string> | null, op: CanvasOp = 'grant'): string {
  const head = tip(ws);
  return forge(ws, {
    ...(grants ? { files: { 'access/t.json': accessWith(grants) } } : {}),
    message: message(op, null, 'a forged grant', { 'Canvas-Op': op, 'Canvas-Ledger': 't', 'Canvas-Author': author, 'Canvas-Previous': head, 'Canvas-Grant': trailer }),
  });
}

function proposalFile(ws: Workspace, id: string): Record<string, unknown> {
  return JSON.parse(show(ws, `proposals/t/${id}.json`)) as Record<string, unknown>;
}

function proposalJson(p: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.entries(p).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/** An approval of the open proposal (a replace of the text node), with what to change. */
function forgeApproval(b: Base, ws: Workspace, o: { author?: string; text?: string; proposedBy?: string; proposedWhy?: string; file?: 'keep' | 'decided-by-other'; proposal?: string } = {}): string {
  const head = tip(ws);
  const id = o.proposal ?? b.open;
  const p = proposalFile(ws, id);
  const author = o.author ?? AUTHOR;
  const files: Record<string, string> = { 't.xml': replacedText(ws, b.node, o.text ?? 'Better draft.') };
  if (o.file !== 'keep') files[`proposals/t/${id}.json`] = proposalJson({ ...p, status: 'approved', decidedBy: o.file === 'decided-by-other' ? 'eve' : author, decision: 'agreed' });
  return forge(ws, {
    files,
    message: message('replace', b.node, 'agreed', {
      'Canvas-Op': 'replace',
      'Canvas-Ledger': 't',
      'Canvas-Node': b.node,
      'Canvas-Author': author,
      'Canvas-Base': p.base as string,
      'Canvas-Previous': head,
      'Canvas-Proposal': id,
      'Canvas-Proposed-By': o.proposedBy ?? (p.proposedBy as string),
      'Canvas-Proposed-Why': o.proposedWhy ?? (p.why as string),
    }),
  });
}

function forgeReject(b: Base, ws: Workspace, author: string, decidedBy = author): string {
  const head = tip(ws);
  const p = proposalFile(ws, b.open);
  return forge(ws, {
    files: { [`proposals/t/${b.open}.json`]: proposalJson({ ...p, status: 'rejected', decidedBy, decision: 'no' }) },
    message: message('reject', b.node, 'no', {
      'Canvas-Op': 'reject',
      'Canvas-Ledger': 't',
      'Canvas-Author': author,
      'Canvas-Previous': head,
      'Canvas-Proposal': b.open,
      'Canvas-Proposal-Node': b.node,
    }),
  });
}

function forgePropose(b: Base, ws: Workspace, author: string, o: { proposedBy?: string; fileId?: string; payload?: string; node?: string } = {}): string {
  const head = tip(ws);
  const id = 'abcdef0123';
  const node = o.node ?? b.node;
  const file = {
    anchor: null,
    base: head,
    id: o.fileId ?? id,
    ledger: 't',
    node,
    op: 'replace',
    payload: o.payload ?? '<text>Proposed by hand.</text>\n',
    proposedRevision: head,
    proposedBy: o.proposedBy ?? author,
    require: null,
    status: 'open',
    why: 'a forged proposal',
  };
  return forge(ws, {
    files: { [`proposals/t/${o.fileId ?? id}.json`]: proposalJson(file) },
    message: message('propose', node, 'a forged proposal', {
      'Canvas-Op': 'propose',
      'Canvas-Ledger': 't',
      'Canvas-Author': author,
      'Canvas-Previous': head,
      'Canvas-Proposal': id,
      'Canvas-Proposal-Node': node,
    }),
  });
}

/** A figure node replaced by hand with new content (v bumped). */
function forgeFigure(b: Base, ws: Workspace, figure: string, body: string): string {
  const head = tip(ws);
  const xml = show(ws, 't.xml');
  const at = xml.indexOf(`<figure id="${b.figure}"`);
  const end = xml.indexOf('</figure>\n', at) + '</figure>\n'.length;
  const v = Number(/v="(\d+)"/.exec(xml.slice(at))![1]);
  const next = `${xml.slice(0, at)}<figure id="${b.figure}" v="${v + 1}" kind="${figure}">${body}</figure>\n${xml.slice(end)}`;
  return forge(ws, {
    files: { 't.xml': next },
    message: message('replace', b.figure, 'a forged figure', {
      'Canvas-Op': 'replace',
      'Canvas-Ledger': 't',
      'Canvas-Node': b.figure,
      'Canvas-Author': AUTHOR,
      'Canvas-Base': head,
      'Canvas-Previous': head,
    }),
  });
}

/** Each tampering, and the violation (rule, and code where one applies) that must name it. */
const CASES: Array<{ name: string; tamper: (b: Base, ws: Workspace) => void; rule: VerifyRule; code?: string; cli?: true }> = [
  { name: 'a replace by an author with no role', cli: true, rule: 'authority', code: 'NO_ROLE', tamper: (b, ws) => forgeReplace(b, ws, 'zed | by-hand') },
  { name: 'a replace by a viewer', rule: 'authority', code: 'ROLE_TOO_LOW', tamper: (b, ws) => forgeReplace(b, ws, 'vic') },
  { name: 'a replace applied by a commenter (it should have been a proposal)', rule: 'authority', code: 'ROLE_TOO_LOW', tamper: (b, ws) => forgeReplace(b, ws, 'cam') },
  {
    name: 'a freeze by a commenter',
    rule: 'authority',
    code: 'ROLE_TOO_LOW',
    tamper: (_b, ws) => {
      const head = tip(ws);
      forge(ws, { message: message('freeze', null, 'done', { 'Canvas-Op': 'freeze', 'Canvas-Ledger': 't', 'Canvas-Author': 'cam', 'Canvas-Previous': head }) });
    },
  },
  {
    name: 'an abandon by a commenter',
    rule: 'authority',
    code: 'ROLE_TOO_LOW',
    tamper: (_b, ws) => {
      const head = tip(ws);
      forge(ws, { message: message('abandon', null, 'given up', { 'Canvas-Op': 'abandon', 'Canvas-Ledger': 't', 'Canvas-Author': 'cam', 'Canvas-Previous': head }) });
    },
  },
  {
    name: 'an abandon that changes the document',
    rule: 'files',
    tamper: (b, ws) => {
      const head = tip(ws);
      forge(ws, {
        files: { 't.xml': replacedText(ws, b.node, 'Quietly rewritten.') },
        message: message('abandon', null, 'given up', { 'Canvas-Op': 'abandon', 'Canvas-Ledger': 't', 'Canvas-Author': AUTHOR, 'Canvas-Previous': head }),
      });
    },
  },
  { name: 'a grant made by a commenter', rule: 'authority', code: 'ROLE_TOO_LOW', tamper: (_b, ws) => forgeGrant(ws, 'cam', 'cam owner', { ...GRANTS, cam: 'owner' }) },
  { name: 'a grant made by an editor', rule: 'authority', code: 'ROLE_TOO_LOW', tamper: (_b, ws) => forgeGrant(ws, 'eve', 'zed editor', { ...GRANTS, zed: 'editor' }) },
  { name: 'a grant made by someone with no role', rule: 'authority', code: 'NO_ROLE', tamper: (_b, ws) => forgeGrant(ws, 'zed', 'zed owner', { ...GRANTS, zed: 'owner' }) },
  { name: 'a Canvas-Grant trailer that disagrees with the access file', rule: 'grant', tamper: (_b, ws) => forgeGrant(ws, AUTHOR, 'zed viewer', { ...GRANTS, zed: 'owner' }) },
  { name: 'a grant that does not change the access file', rule: 'grant', tamper: (_b, ws) => forgeGrant(ws, AUTHOR, 'zed editor', null) },
  { name: 'a grant of owner to *', rule: 'grant', tamper: (_b, ws) => forgeGrant(ws, AUTHOR, '* owner', { ...GRANTS, '*': 'owner' }) },
  { name: 'a grant of a role that does not exist', rule: 'grant', code: 'BAD_ROLE', tamper: (_b, ws) => forgeGrant(ws, AUTHOR, 'zed admin', { ...GRANTS, zed: 'admin' }) },
  {
    name: 'a revoke that leaves no owner',
    rule: 'grant',
    code: 'LAST_OWNER',
    tamper: (_b, ws) => {
      const { leo: _gone, ...rest } = GRANTS;
      forgeGrant(ws, AUTHOR, 'leo none', rest, 'revoke');
    },
  },
  {
    name: 'an access file changed by a replace',
    rule: 'files',
    tamper: (b, ws) => forgeReplace(b, ws, AUTHOR, { files: { 't.xml': replacedText(ws, b.node, 'x'), 'access/t.json': accessWith({ ...GRANTS, zed: 'owner' }) } }),
  },
  { name: 'an approval by a commenter', rule: 'authority', code: 'ROLE_TOO_LOW', tamper: (b, ws) => forgeApproval(b, ws, { author: 'cam' }) },
  { name: 'an approval whose edit is not the proposal', rule: 'proposal', tamper: (b, ws) => forgeApproval(b, ws, { text: 'Something nobody proposed.' }) },
  { name: 'an approval naming another proposer', rule: 'proposal', tamper: (b, ws) => forgeApproval(b, ws, { proposedBy: 'eve' }) },
  { name: "an approval giving another reason as the proposer's", rule: 'proposal', tamper: (b, ws) => forgeApproval(b, ws, { proposedWhy: 'because I said so' }) },
  { name: 'an approval that leaves the proposal open', rule: 'proposal', tamper: (b, ws) => forgeApproval(b, ws, { file: 'keep' }) },
  { name: 'an approval recorded as decided by someone else', rule: 'proposal', tamper: (b, ws) => forgeApproval(b, ws, { file: 'decided-by-other' }) },
  { name: 'an approval of a proposal already approved', rule: 'proposal', tamper: (b, ws) => forgeApproval(b, ws, { proposal: b.approved, text: 'Second.' }) },
  { name: 'a reject by a commenter', rule: 'authority', code: 'ROLE_TOO_LOW', tamper: (b, ws) => forgeReject(b, ws, 'cam') },
  { name: 'a reject recorded as decided by someone else', rule: 'proposal', tamper: (b, ws) => forgeReject(b, ws, AUTHOR, 'eve') },
  { name: 'a proposal by a viewer', rule: 'authority', code: 'ROLE_TOO_LOW', tamper: (b, ws) => forgePropose(b, ws, 'vic') },
  { name: 'a proposal file naming another proposer', rule: 'proposal', tamper: (b, ws) => forgePropose(b, ws, 'cam', { proposedBy: 'eve' }) },
  { name: 'a Canvas-Proposal naming another file', rule: 'proposal', tamper: (b, ws) => forgePropose(b, ws, 'cam', { fileId: '0123456789' }) },
  {
    name: 'a proposal whose payload holds a script',
    rule: 'content',
    code: 'UNSAFE_SVG',
    tamper: (b, ws) => forgePropose(b, ws, 'cam', { node: b.figure, payload: `<figure kind="svg"><svg ${SVG}><script>alert(1)</script></svg></figure>\n` }),
  },
  { name: 'a script in an SVG figure', rule: 'content', code: 'UNSAFE_SVG', tamper: (b, ws) => forgeFigure(b, ws, 'svg', `\n    <svg ${SVG}>\n      <script>alert(1)</script>\n    </svg>\n  `) },
  { name: 'an event handler in an SVG figure', rule: 'content', code: 'UNSAFE_SVG', tamper: (b, ws) => forgeFigure(b, ws, 'svg', `\n    <svg ${SVG} onload="alert(1)"/>\n  `) },
  { name: 'a diagram source that does not parse', rule: 'content', code: 'DIAGRAM_SYNTAX', tamper: (b, ws) => forgeFigure(b, ws, 'diagram', 'diagram 1\nnode a "A\nwhat is this') },
  { name: 'a commit by a committer other than the store', rule: 'committer', tamper: (b, ws) => forgeReplace(b, ws, AUTHOR, { committer: 'mallory' }) },
  {
    name: 'an amended Canvas-Author with the refs moved along',
    rule: 'truncated',
    tamper: (_b, ws) => {
      // The last commit (leo's freeze), made again as eve's (an editor may freeze), in its place.
      const last = tip(ws);
      const body = git(ws, ['cat-file', 'commit', last]);
      const msg = body.slice(body.indexOf('\n\n') + 2).replace('Canvas-Author: leo | by-hand', 'Canvas-Author: eve');
      forge(ws, { message: `${msg}\n`, parent: /^parent ([0-9a-f]+)$/m.exec(body)![1]! });
    },
  },
  {
    name: 'the last commits dropped (reset --hard and update-ref)',
    cli: true,
    rule: 'truncated',
    tamper: (_b, ws) => {
      git(ws, ['reset', '-q', '--hard', 'HEAD~2']);
      git(ws, ['update-ref', 'refs/canvas/t', tip(ws)]);
    },
  },
  {
    name: 'main moved by writing its ref file, past the reflog',
    rule: 'reflog',
    tamper: (b, ws) => {
      const main = tip(ws);
      const commit = forgeReplace(b, ws, AUTHOR);
      // Undo the logged move, then write the same value straight into the ref files.
      git(ws, ['update-ref', 'refs/heads/main', main]);
      git(ws, ['update-ref', 'refs/canvas/t', main]);
      for (const ref of ['heads/main', 'canvas/t']) {
        dropLastEntries(join(ws.repo, '.git', 'logs', 'refs', ref));
        writeFileSync(join(ws.repo, '.git', 'refs', ref), `${commit}\n`);
      }
      dropLastEntries(join(ws.repo, '.git', 'logs', 'HEAD'));
    },
  },
  { name: "main's reflog deleted", rule: 'reflog', tamper: (_b, ws) => unlinkSync(join(ws.repo, '.git', 'logs', 'refs', 'heads', 'main')) },
  {
    name: 'a facts cache that names another creator',
    rule: 'cache',
    tamper: (_b, ws) => {
      const path = join(ws.repo, '.git', 'canvas-cache', 't.json');
      writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), creator: 'cam' }));
    },
  },
  {
    name: 'two nodes changed in one commit',
    rule: 'guard',
    code: 'TWO_NODES',
    tamper: (b, ws) => {
      const xml = replacedText(ws, b.node, 'One.').replace(/<section id="([a-z0-9]+)" v="(\d+)" title="[^"]*">/, (_, id: string, v: string) => `<section id="${id}" v="${Number(v) + 1}" title="Other">`);
      forgeReplace(b, ws, AUTHOR, { files: { 't.xml': xml } });
    },
  },
  { name: 'a Canvas-Previous that skips a commit', rule: 'chain', tamper: (b, ws) => forgeReplace(b, ws, AUTHOR, {}, { 'Canvas-Previous': git(ws, ['rev-parse', 'HEAD~1']) }) },
  {
    name: 'an edit whose base is a commit of no canvas',
    rule: 'base',
    code: 'FOREIGN_BASE',
    tamper: (b, ws) => {
      // A commit on main that names no canvas, then an edit of t decided against it.
      const previous = tip(ws);
      const other = forge(ws, { message: 'a note by hand\n', author: 'someone' });
      forgeReplace(b, ws, AUTHOR, {}, { 'Canvas-Base': other, 'Canvas-Previous': previous });
    },
  },
];

let base: Base;
let root: string;

/** A copy of a workspace, made in this process (as `cp -a` would: modes and times kept; the reflogs and caches come along). */
function copyWorkspace(from: string, dir: string): Workspace {
  cpSync(from, dir, { recursive: true, preserveTimestamps: true });
  return resolveWorkspace({ workspace: dir });
}

/** A copy of the base workspace. */
function copyBase(name: string): Workspace {
  return copyWorkspace(base.ws.root, join(root, name.replace(/[^a-z0-9]+/gi, '-')));
}

/** A second copy of a tampered workspace, for the command to verify beside the library (verify repairs what it may). */
function copyCase(ws: Workspace, name: string): Workspace {
  return copyWorkspace(ws.root, join(root, `${name.replace(/[^a-z0-9]+/gi, '-')}-cli`));
}

beforeAll(async () => {
  root = tempDir('canvas-verify-corpus-');
  const ws = tempWorkspace('canvas-verify-base-');
  const applied = (o: unknown) => {
    const x = o as { outcome: string; revision?: string; node?: string; proposalId?: string };
    if (x.outcome !== 'applied' && x.outcome !== 'proposed') throw new Error(`setup: ${JSON.stringify(o)}`);
    return x;
  };
  const rev = async () => (await readCanvas(ws, { ledger: 't' })).revision;
  applied(await createCanvas(ws, { ledger: 't', why: 'the corpus', author: AUTHOR }));
  const section = applied(await insertNode(ws, { ledger: 't', into: 'root', payload: { section: 'Notes' }, base: await rev(), why: 'a section', author: AUTHOR })).node!;
  const node = applied(await insertNode(ws, { ledger: 't', after: section, payload: { text: 'Draft.' }, base: await rev(), why: 'a draft', author: AUTHOR })).node!;
  const figure = applied(
    await insertNode(ws, {
      ledger: 't',
      after: node,
      payload: { xml: `<figure kind="svg"><svg ${SVG} viewBox="0 0 1 1"><rect x="0" y="0" width="1" height="1"/></svg></figure>` },
      base: await rev(),
      why: 'a figure',
      author: AUTHOR,
    }),
  ).node!;
  for (const [who, role] of [
    ['cam', 'commenter'],
    ['vic', 'viewer'],
    ['eve', 'editor'],
  ] as const) {
    applied(await grantRole(ws, { ledger: 't', who, role, why: `${who} joins`, author: AUTHOR }));
  }
  const open = applied(await replaceNode(ws, { ledger: 't', node, payload: { text: 'Better draft.' }, base: await rev(), why: 'clearer', author: 'cam' })).proposalId!;
  const approved = applied(await replaceNode(ws, { ledger: 't', node, payload: { text: 'Second.' }, base: await rev(), why: 'shorter', author: 'cam' })).proposalId!;
  applied(await approveProposal(ws, { ledger: 't', proposal: approved, why: 'agreed', author: AUTHOR }));
  const rejected = applied(await insertNode(ws, { ledger: 't', into: section, payload: { text: 'Note.' }, base: await rev(), why: 'a note', author: 'cam' })).proposalId!;
  applied(await rejectProposal(ws, { ledger: 't', proposal: rejected, why: 'not needed', author: 'eve' }));
  // Approvals of every kind of edit, so the clean workspace proves each one replays green.
  const approve = async (o: unknown, by: string) => applied(await approveProposal(ws, { ledger: 't', proposal: applied(o).proposalId!, why: 'fine', author: by }));
  const note = (await approve(await insertNode(ws, { ledger: 't', into: section, payload: { text: 'A note.' }, base: await rev(), why: 'a note', author: 'cam' }), 'eve')).node!;
  await approve(await moveNode(ws, { ledger: 't', node: figure, into: section, base: await rev(), why: 'with the notes', author: 'cam' }), AUTHOR);
  await approve(await replaceNode(ws, { ledger: 't', node: section, payload: { section: 'Notes and figure' }, base: await rev(), why: 'a better title', author: 'cam' }), AUTHOR);
  await approve(await removeNode(ws, { ledger: 't', node: note, base: await rev(), why: 'said elsewhere', author: 'cam' }), 'eve');
  applied(await replaceNode(ws, { ledger: 't', node, payload: { text: 'Eve wrote this.' }, base: await rev(), why: 'eve', author: 'eve' }));
  applied(await freezeCanvas(ws, { ledger: 't', why: 'done for now', author: AUTHOR }));
  // Its objects in one pack, as git's housekeeping leaves them (the store runs it now and then):
  // a copy for each case is then some 50 files instead of some 230, most of them loose objects.
  git(ws, ['repack', '-a', '-d', '-q']);
  base = { ws, node, section, figure, open, approved, rejected };
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(base.ws.root, { recursive: true, force: true });
});

describe('canvas verify against forged history (docs/store.md, "Verify")', () => {
  it('passes the workspace as the store wrote it, with nothing to repair', async () => {
    const report = await verifyWorkspace(copyBase('clean'));
    expect(report.violations).toEqual([]);
    expect(report.repaired).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it(`catches each of ${CASES.length} tamperings made with plain git, naming the rule (exit 4 from the command)`, async () => {
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
    const missed: string[] = [];
    for (const c of CASES) {
      const ws = copyBase(c.name);
      c.tamper(base, ws);
      const wanted = (v: { rule: string; code?: string | undefined }) => v.rule === c.rule && (c.code === undefined || v.code === c.code);
      // The command on two of them, on a copy of its own (verify repairs what it may), through
      // its entry in this process: the same parsing, report and exit code as the built CLI, whose
      // exit 4 from a process of its own test/store/write/guard.test.ts and
      // test/store/files/write-paths.test.ts pin. The library on all.
      if (c.cli) {
        const run = await runMain(copyCase(ws, c.name), ['verify', '--json']);
        // A command that printed no report is a miss that says how it ended, not a JSON error.
        if (!run.stdout.trim()) missed.push(`${c.name}: the command exited ${run.code} printing nothing; stderr: ${run.stderr.slice(0, 2000)}`);
        else {
          const report = JSON.parse(run.stdout) as { violations: Array<{ rule: string; code?: string }> };
          if (run.code !== 4 || !report.violations.some(wanted)) missed.push(`${c.name}: the command exited ${run.code} with ${run.stdout.slice(0, 400)}`);
        }
      }
      const report = await verifyWorkspace(ws);
      if (report.ok || !report.violations.some(wanted)) {
        missed.push(`${c.name} (want ${c.rule}${c.code ? ` ${c.code}` : ''}; got ${JSON.stringify(report.violations.map((v) => `${v.rule} ${v.code ?? ''}`))})`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('does not take a write cut short inside its ref transaction for truncation, and does take a value main left', async () => {
    // git logs a ref's new value just before it moves the ref: a kill between the two leaves a
    // log entry for a store commit on top of main that main never held (nor ever moved away from).
    const cut = async (mainLeftIt: boolean) => {
      const ws = copyBase(`cut-short-${mainLeftIt}`);
      const main = tip(ws);
      const head = main;
      const xml = replacedText(ws, base.node, 'Never applied.');
      const blob = git(ws, ['hash-object', '-w', '--stdin'], xml);
      const index = join(tempDir('canvas-forge-'), 'index');
      git(ws, ['read-tree', main], undefined, { GIT_INDEX_FILE: index });
      git(ws, ['update-index', '--cacheinfo', `100644,${blob},t.xml`], undefined, { GIT_INDEX_FILE: index });
      const tree = git(ws, ['write-tree'], undefined, { GIT_INDEX_FILE: index });
      const msg = message('replace', base.node, 'cut short', {
        'Canvas-Op': 'replace',
        'Canvas-Ledger': 't',
        'Canvas-Node': base.node,
        'Canvas-Author': AUTHOR,
        'Canvas-Base': head,
        'Canvas-Previous': head,
      });
      const x = git(ws, ['commit-tree', tree, '-p', main, '-F', '-'], msg, { GIT_AUTHOR_NAME: AUTHOR, GIT_AUTHOR_EMAIL: '', GIT_COMMITTER_NAME: 'canvas', GIT_COMMITTER_EMAIL: '' });
      for (const log of mainLeftIt ? [] : ['logs/refs/heads/main', 'logs/HEAD']) {
        writeFileSync(join(ws.repo, '.git', log), `${readFileSync(join(ws.repo, '.git', log), 'utf8')}${main} ${x} canvas <> 1767225600 +0000\n`);
      }
      // The canvas ref did move, and the next writer moved it back.
      git(ws, ['update-ref', 'refs/canvas/t', x, main]);
      git(ws, ['update-ref', 'refs/canvas/t', main, x]);
      if (mainLeftIt) {
        // Not a crash: main was at the commit, and was moved back.
        git(ws, ['update-ref', 'refs/heads/main', x, main]);
        git(ws, ['update-ref', 'refs/heads/main', main, x]);
      }
      const o = await replaceNode(ws, { ledger: 't', node: base.node, payload: { text: 'Applied.' }, base: main, why: 'after the crash', author: AUTHOR });
      expect(o.outcome).toBe('applied');
      return { violations: (await verifyWorkspace(ws)).violations, x };
    };
    expect((await cut(false)).violations).toEqual([]);
    const left = await cut(true);
    expect(left.violations).toEqual([expect.objectContaining({ rule: 'truncated', commit: left.x })]);
  });

  it('reports a canvas whose first commit is invalid, instead of answering CANVAS_NOT_FOUND', async () => {
    const ws = copyBase('first-commit');
    const head = tip(ws);
    const first = forge(ws, {
      files: { 'bad.xml': '<canvas ledger="bad" schema="2">\n  <bogus/>\n</canvas>\n' },
      message: message('create', null, 'by hand', { 'Canvas-Op': 'create', 'Canvas-Ledger': 'bad', 'Canvas-Author': AUTHOR }),
      parent: head,
      ref: 'refs/canvas/bad',
    });
    const render = await runMain(ws, ['render', 'bad', '--json']);
    expect(render.stderr + render.stdout).not.toContain('CANVAS_NOT_FOUND');
    const run = await runMain(ws, ['verify', 'bad', '--json']);
    expect(run.code).toBe(4);
    expect(JSON.parse(run.stdout).violations).toEqual(expect.arrayContaining([expect.objectContaining({ rule: 'schema', ledger: 'bad', commit: first })]));
  });
});
