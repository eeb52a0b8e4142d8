import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorKindOf, exitCodeFor, type ErrorCode } from '../../src/model/canvas-error.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import { createCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { connectAs, type McpSession } from '../helpers/mcp-client.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, repoState, runCli, tempWorkspace } from '../helpers/workspace.js';

// The attack script: hostile input through the command line and MCP, each asserting its code,
// its exit code, and that the repository and its working files are unchanged. Most cases run
// through the CLI's own entry (`main`, in process: its parsing, its single catch and its exit
// code mapping), a subset as real processes, and the MCP ones through one long-lived SDK client.

let ws: Workspace;
let base = '';
let otherBase = '';
let section = '';
let inner = '';
let text = '';
let files = '';
let mcp: McpSession;

const SVG = 'xmlns="http://www.w3.org/2000/svg"';
const svg = (body: string, attrs = '') => `<figure kind="svg"><svg ${SVG}${attrs}>${body}</svg></figure>`;

beforeAll(async () => {
  ws = tempWorkspace('canvas-attack-');
  await createCanvas(ws, { ledger: 'a1', why: 'the attacked canvas', author: AUTHOR });
  await createCanvas(ws, { ledger: 'b2', why: 'another canvas', author: AUTHOR });
  otherBase = (await readCanvas(ws, { ledger: 'b2' })).revision;
  let o = (await insertNode(ws, { ledger: 'a1', into: 'root', payload: { section: 'Options' }, base: (await readCanvas(ws, { ledger: 'a1' })).revision, why: 'room', author: AUTHOR })) as Applied;
  section = o.node!;
  o = (await insertNode(ws, { ledger: 'a1', into: section, payload: { section: 'Inner' }, base: o.revision, why: 'nested', author: AUTHOR })) as Applied;
  inner = o.node!;
  o = (await insertNode(ws, { ledger: 'a1', after: section, payload: { text: 'Plain text.' }, base: o.revision, why: 'a paragraph', author: AUTHOR })) as Applied;
  text = o.node!;
  await grantRole(ws, { ledger: 'a1', who: 'vic', role: 'viewer', why: 'a viewer', author: AUTHOR });
  await grantRole(ws, { ledger: 'a1', who: 'cam', role: 'commenter', why: 'a commenter', author: AUTHOR });
  base = (await readCanvas(ws, { ledger: 'a1' })).revision;
  files = join(ws.root, 'hostile-files');
  mkdirSync(files);
  mcp = await connectAs(ws, 'leo');
});

afterAll(async () => {
  await mcp?.close();
});

/** Write a hostile file and return its path. */
function file(name: string, content: string | Buffer): string {
  const p = join(files, name);
  writeFileSync(p, content);
  return p;
}

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

/** The code a --json run answered: a rejected outcome's code or the error shape's. */
function codeOf(stdout: string): string | undefined {
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    const json = JSON.parse(line) as { code?: string; error?: { code?: string } };
    return json.code ?? json.error?.code;
  } catch {
    return undefined;
  }
}

/** One hostile command line: a name, the argv after `canvas`, and the expected code. */
type Case = [name: string, argv: () => string[], code: ErrorCode];

const W = () => ['--workspace', ws.root, '--json'];
const insert = (payload: string[], extra: string[] = []) => ['insert', 'a1', '--into', 'root', ...payload, '--base', base, '--why', 'hostile', '--author', AUTHOR, ...W(), ...extra];
const xml = (fragment: string) => insert(['--xml', fragment]);
const xmlFile = (name: string, content: string | Buffer) => insert(['--xml-file', file(name, content)]);
const replace = (node: () => string, payload: string[], extra: string[] = []) => ['replace', 'a1', node(), ...payload, '--base', base, '--why', 'hostile', '--author', AUTHOR, ...W(), ...extra];
const withWhy = (why: string) => ['replace', 'a1', text, '--text', 'new words', '--base', base, '--why', why, '--author', AUTHOR, ...W()];
const withAuthor = (author: string) => ['replace', 'a1', text, '--text', 'new words', '--base', base, '--why', 'hostile', '--author', author, ...W()];
const create = (ledger: string) => ['create', ledger, '--why', 'hostile', '--author', AUTHOR, ...W()];

const LEDGERS: Case[] = ['../x', 'A', 'x.xml', 'a..b', 'x.', 'x.lock', 'a/b', 'a b', 'ä', 'x'.repeat(65), '.hidden', '_x', 'x\u0000y', 'x\ny', 'index.html'].map(
  (id): Case => [`ledger id ${JSON.stringify(id)}`, () => create(id), 'BAD_LEDGER_ID'],
);

const REASONS: Case[] = [
  '',
  '   ',
  'a\nb',
  'a\rb',
  'bell\u0007',
  'nul\u0000',
  'next\u0085line',
  'ls\u2028',
  'ps\u2029',
  'rlo\u202e',
  'isolate\u2066',
  'del\u007f',
  'tab\there',
  'x'.repeat(501),
  'lone \ud800',
].map((why): Case => [`reason ${JSON.stringify(why.slice(0, 20))}`, () => withWhy(why), 'BAD_REASON']);

const AUTHORS: Case[] = [
  ' leo',
  'leo ',
  'leo|step:x',
  'leo |step:x',
  'leo| step:x',
  'leo  | step:x',
  'leo | step: x',
  'leo | nope:x',
  'leo | run:a | step:b',
  'leo | step:a | step:b',
  'leo | by-hand | step:x',
  'le o',
  'leo\n| by-hand',
  '-leo',
  '\u00a0leo',
].map((author): Case => [`author ${JSON.stringify(author)}`, () => withAuthor(author), 'BAD_AUTHOR']);

const PAYLOADS: Case[] = [
  ['a DOCTYPE', () => xml('<!DOCTYPE text [<!ENTITY x "y">]><text>&x;</text>'), 'UNSAFE_XML'],
  [
    'billion laughs',
    () => xml(`<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><text>&lol9;</text>`),
    'UNSAFE_XML',
  ],
  ['an external entity', () => xml('<!DOCTYPE t [<!ENTITY e SYSTEM "file:///etc/passwd">]><text>&e;</text>'), 'UNSAFE_XML'],
  ['an undefined entity', () => xml('<text>&nbsp;</text>'), 'UNSAFE_XML'],
  ['an XML declaration', () => xml('<?xml version="1.0"?><text>x</text>'), 'UNSAFE_XML'],
  ['a processing instruction', () => xml('<text>x<?php echo 1; ?></text>'), 'UNSAFE_XML'],
  ['a comment', () => xml('<text>x<!-- hidden --></text>'), 'UNSAFE_XML'],
  ['unclosed element', () => xml('<text>x'), 'XML_PARSE'],
  ['mismatched tags', () => xml('<text>x</question>'), 'XML_PARSE'],
  ['no element', () => xml('just words'), 'XML_PARSE'],
  ['empty payload', () => xml(''), 'XML_PARSE'],
  ['two byte order marks', () => xml('\ufeff\ufeff<text>x</text>'), 'XML_PARSE'],
  ['an unknown element', () => xml('<div>x</div>'), 'SCHEMA'],
  ['an HTML script element', () => xml('<script>alert(1)</script>'), 'SCHEMA'],
  ['an unknown attribute', () => xml('<text open="true">x</text>'), 'SCHEMA'],
  ['an event handler attribute', () => xml('<link href="https://x.org" onclick="alert(1)">x</link>'), 'SCHEMA'],
  ['a whole canvas as payload', () => xml('<canvas ledger="a1" schema="2"></canvas>'), 'SCHEMA'],
  ['an item alone', () => xml('<item>x</item>'), 'SCHEMA'],
  ['a blank text', () => xml('<text>   </text>'), 'SCHEMA'],
  ['mixed content', () => xml('<text>a <b>bold</b></text>'), 'SCHEMA'],
  ['a control character reference', () => xml('<text>a&#1;b</text>'), 'SCHEMA'],
  ['a raw control character', () => xml('<text>a\u0001b</text>'), 'SCHEMA'],
  ['a carriage return reference', () => xml('<text>a&#13;b</text>'), 'SCHEMA'],
  ['U+FFFE', () => xml('<text>a&#xFFFE;b</text>'), 'SCHEMA'],
  ['a C1 control in an attribute', () => xml('<link href="https://x.org/\u0085">x</link>'), 'SCHEMA'],
  ['a one-column table', () => xml('<table><row><cell>a</cell></row></table>'), 'SCHEMA'],
  ['uneven table rows', () => xml('<table><row><cell>a</cell><cell>b</cell></row><row><cell>c</cell><cell>d</cell><cell>e</cell></row></table>'), 'SCHEMA'],
  ['an empty list', () => xml('<list></list>'), 'SCHEMA'],
  ['ordered="yes"', () => xml('<list ordered="yes"><item>a</item></list>'), 'SCHEMA'],
  ['answered="false"', () => xml('<question answered="false">why?</question>'), 'SCHEMA'],
  ['a figure of an unknown kind', () => xml('<figure kind="png">x</figure>'), 'SCHEMA'],
  ['an svg figure without the namespace', () => xml('<figure kind="svg"><svg><rect/></svg></figure>'), 'SCHEMA'],
  ['a two-line section title', () => xml('<section title="a&#10;b"></section>'), 'SCHEMA'],
  ['a link without href', () => xml('<link>x</link>'), 'SCHEMA'],
  ['a payload carrying id', () => xml('<text id="zz9">x</text>'), 'PAYLOAD_HAS_ID'],
  ['a payload carrying v', () => xml('<text v="7">x</text>'), 'PAYLOAD_HAS_ID'],
  ['a section born full', () => xml('<section title="S"><text>x</text></section>'), 'PAYLOAD_CHILDREN'],
  ['svg with a script', () => xml(svg('<script>alert(1)</script>')), 'UNSAFE_SVG'],
  ['svg with onload', () => xml(svg('<rect width="1" height="1"/>', ' onload="alert(1)"')), 'UNSAFE_SVG'],
  ['svg with foreignObject', () => xml(svg('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>')), 'UNSAFE_SVG'],
  ['svg with a javascript: link', () => xml(svg('<a href="javascript:alert(1)"><text>x</text></a>')), 'UNSAFE_SVG'],
  ['svg with a style element', () => xml(svg('<style>rect{fill:url(https://evil.example/x)}</style>')), 'UNSAFE_SVG'],
  ['svg using an external file', () => xml(svg('<use href="https://evil.example/x.svg#a"/>')), 'UNSAFE_SVG'],
  ['a diagram that does not parse', () => xml('<figure kind="diagram">diagram 1\nnode a "unclosed</figure>'), 'DIAGRAM_SYNTAX'],
  ['a diagram without its header', () => xml('<figure kind="diagram">A -> B</figure>'), 'DIAGRAM_SYNTAX'],
  ['10,000 nested sections', () => xml(`${'<section title="a">'.repeat(10_000)}${'</section>'.repeat(10_000)}`), 'TOO_DEEP'],
  ['5,000 nested svg groups', () => xml(svg(`${'<g>'.repeat(5_000)}${'</g>'.repeat(5_000)}`)), 'TOO_DEEP'],
  ['a 20 MB text', () => insert(['--text', 'x'.repeat(20_000_000)]), 'TOO_LARGE'],
  ['a 20 MB xml payload', () => xml(`<text>${'y'.repeat(20_000_000)}</text>`), 'TOO_LARGE'],
  ['a text node over 128 KiB', () => insert(['--text', 'z'.repeat(140_000)]), 'TOO_LARGE'],
  ['a list over 128 KiB', () => xml(`<list>${'<item>an item of a list</item>'.repeat(6_000)}</list>`), 'TOO_LARGE'],
  ['a text of control characters', () => insert(['--text', 'a\u0000b']), 'SCHEMA'],
  ['a blank --text', () => insert(['--text', ' \n\t ']), 'SCHEMA'],
  ['a lone surrogate in --question', () => insert(['--question', 'why \udc00']), 'SCHEMA'],
  ['a two-line --section', () => insert(['--section', 'one\ntwo']), 'SCHEMA'],
];

const FILES: Case[] = [
  ['--xml-file that does not exist', () => insert(['--xml-file', join(files, 'missing.xml')]), 'USAGE'],
  ['--xml-file naming a directory', () => insert(['--xml-file', files]), 'USAGE'],
  ['--xml-file naming /dev/zero', () => insert(['--xml-file', '/dev/zero']), 'USAGE'],
  ['--xml-file naming /dev/urandom', () => insert(['--xml-file', '/dev/urandom']), 'USAGE'],
  ['--xml-file with 0xff', () => xmlFile('ff.xml', bytes('<text>', [0xff], '</text>')), 'BAD_ENCODING'],
  ['--xml-file with an overlong form', () => xmlFile('overlong.xml', bytes('<text>', [0xc0, 0xaf], '</text>')), 'BAD_ENCODING'],
  ['--xml-file with an encoded surrogate', () => xmlFile('surrogate.xml', bytes('<text>', [0xed, 0xb0, 0x80], '</text>')), 'BAD_ENCODING'],
  ['--xml-file cut short', () => xmlFile('short.xml', bytes('<text>x</text>', [0xf0, 0x9f, 0x98])), 'BAD_ENCODING'],
  ['--xml-file with a bad byte in an attribute', () => xmlFile('attr.xml', bytes('<link href="https://x.org/', [0xfe], '">x</link>')), 'BAD_ENCODING'],
  ['--xml-file in UTF-16', () => xmlFile('utf16.xml', Buffer.from('\ufeff<text>x</text>', 'utf16le')), 'BAD_ENCODING'],
  ['--xml-file in Latin-1', () => xmlFile('latin1.xml', Buffer.from('<text>café</text>', 'latin1')), 'BAD_ENCODING'],
  ['--xml-file with two byte order marks', () => xmlFile('boms.xml', bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], '<text>x</text>')), 'XML_PARSE'],
  ['--xml-file over the input limit', () => xmlFile('huge.xml', Buffer.alloc(1_100_000, 0x78)), 'TOO_LARGE'],
  ['--xml-file nested too deep', () => xmlFile('deep.xml', svg(`${'<g>'.repeat(200)}${'</g>'.repeat(200)}`)), 'TOO_DEEP'],
  ['--markdown with a bad byte', () => ['import', 'imp', '--markdown', file('bad.md', bytes('# T\n\n', [0xc3, 0x28], '\n')), '--why', 'hostile', '--author', AUTHOR, ...W()], 'BAD_ENCODING'],
  ['--markdown naming a directory', () => ['import', 'imp', '--markdown', files, '--why', 'hostile', '--author', AUTHOR, ...W()], 'USAGE'],
  ['--markdown over the input limit', () => ['import', 'imp', '--markdown', file('huge.md', Buffer.alloc(1_100_000, 0x61)), '--why', 'hostile', '--author', AUTHOR, ...W()], 'TOO_LARGE'],
];

const EDITS: Case[] = [
  ['an unknown node', () => replace(() => 'zzzz', ['--text', 'x']), 'NODE_NOT_FOUND'],
  ['a node id that is not one', () => replace(() => '../../etc', ['--text', 'x']), 'NODE_NOT_FOUND'],
  ['--into a text node', () => ['insert', 'a1', '--into', text, '--text', 'x', '--base', base, '--why', 'h', '--author', AUTHOR, ...W()], 'BAD_ANCHOR'],
  ['both --after and --into', () => ['insert', 'a1', '--after', text, '--into', 'root', '--text', 'x', '--base', base, '--why', 'h', '--author', AUTHOR, ...W()], 'USAGE'],
  ['neither --after nor --into', () => ['insert', 'a1', '--text', 'x', '--base', base, '--why', 'h', '--author', AUTHOR, ...W()], 'USAGE'],
  ['two payloads', () => insert(['--text', 'x', '--question', 'y?']), 'USAGE'],
  ['no payload', () => insert([]), 'USAGE'],
  ['a section into a nested section', () => ['insert', 'a1', '--into', inner, '--section', 'Too deep', '--base', base, '--why', 'h', '--author', AUTHOR, ...W()], 'NESTING'],
  ['removing a section with children', () => ['remove', 'a1', section, '--base', base, '--why', 'h', '--author', AUTHOR, ...W()], 'HAS_CHILDREN'],
  ['a section with children replaced by a text', () => replace(() => section, ['--text', 'flat']), 'HAS_CHILDREN'],
  ['a move into its own subtree', () => ['move', 'a1', section, '--into', inner, '--base', base, '--why', 'h', '--author', AUTHOR, ...W()], 'MOVE_INTO_SELF'],
  ['a replace that changes nothing', () => replace(() => text, ['--text', 'Plain text.']), 'NO_CHANGE'],
  ['no --base', () => ['replace', 'a1', text, '--text', 'x', '--why', 'h', '--author', AUTHOR, ...W()], 'BASE_REQUIRED'],
  ['a base that is not hex', () => replace(() => text, ['--text', 'x']).map((a) => (a === base ? 'not-a-sha' : a)), 'UNKNOWN_BASE'],
  ['a base of forty zeros', () => replace(() => text, ['--text', 'x']).map((a) => (a === base ? '0'.repeat(40) : a)), 'UNKNOWN_BASE'],
  ['a base too short', () => replace(() => text, ['--text', 'x']).map((a) => (a === base ? base.slice(0, 4) : a)), 'UNKNOWN_BASE'],
  ["another canvas's revision as base", () => replace(() => text, ['--text', 'x']).map((a) => (a === base ? otherBase : a)), 'FOREIGN_BASE'],
  ['a --require that is unknown', () => replace(() => text, ['--text', 'x'], ['--require', 'f'.repeat(40)]), 'UNKNOWN_BASE'],
  ['an idempotency key with a space', () => replace(() => text, ['--text', 'x'], ['--idempotency-key', 'a b']), 'USAGE'],
  ['an idempotency key too long', () => replace(() => text, ['--text', 'x'], ['--idempotency-key', 'k'.repeat(129)]), 'USAGE'],
  ['an idempotency key with a newline', () => replace(() => text, ['--text', 'x'], ['--idempotency-key', 'a\nCanvas-Op: create']), 'USAGE'],
  ['a viewer writing', () => withAuthor('vic'), 'ROLE_TOO_LOW'],
  ['a viewer freezing', () => ['freeze', 'a1', '--why', 'h', '--author', 'vic', ...W()], 'ROLE_TOO_LOW'],
  ['a commenter freezing', () => ['freeze', 'a1', '--why', 'h', '--author', 'cam', ...W()], 'ROLE_TOO_LOW'],
  ['a who without a grant', () => withAuthor('zed'), 'NO_ROLE'],
  ['a commenter granting', () => ['grant', 'a1', 'zed', 'owner', '--why', 'h', '--author', 'cam', ...W()], 'ROLE_TOO_LOW'],
  ['a role that does not exist', () => ['grant', 'a1', 'zed', 'admin', '--why', 'h', '--author', AUTHOR, ...W()], 'BAD_ROLE'],
  ['revoking the last owner', () => ['revoke', 'a1', 'leo', '--why', 'h', '--author', AUTHOR, ...W()], 'LAST_OWNER'],
  ['approving a proposal that does not exist', () => ['approve', 'a1', '0123456789', '--why', 'h', '--author', AUTHOR, ...W()], 'PROPOSAL_NOT_FOUND'],
  ['rejecting a proposal id that is a path', () => ['reject', 'a1', '../../x', '--why', 'h', '--author', AUTHOR, ...W()], 'PROPOSAL_NOT_FOUND'],
  ['creating a canvas that exists', () => create('a1'), 'CANVAS_EXISTS'],
  ['writing to a canvas that does not exist', () => ['freeze', 'nope', '--why', 'h', '--author', AUTHOR, ...W()], 'CANVAS_NOT_FOUND'],
  ['reading a canvas that does not exist', () => ['read', 'nope', ...W()], 'CANVAS_NOT_FOUND'],
  ['reading an unknown node', () => ['read', 'a1', '--id', 'zzzz', ...W()], 'NODE_NOT_FOUND'],
  ['reading at an unknown sha', () => ['read', 'a1', '--at', 'e'.repeat(40), ...W()], 'UNKNOWN_BASE'],
  ['reading a bad ledger id', () => ['read', '../../etc/passwd', ...W()], 'BAD_LEDGER_ID'],
  ['options after -- taken as too many arguments', () => ['history', '--', '-rf', 'x', ...W()], 'USAGE'],
  ['a workspace that does not exist', () => ['read', 'a1', '--workspace', join(ws.root, 'missing'), '--json'], 'NO_WORKSPACE'],
  ['an unknown command', () => ['destroy', 'a1', ...W()], 'USAGE'],
  ['an unknown option', () => ['read', 'a1', '--exec', 'rm', ...W()], 'USAGE'],
  ['an option before the command', () => ['--workspace', ws.root, 'read', 'a1', '--json'], 'USAGE'],
];

const CLI_CASES: Case[] = [...LEDGERS, ...REASONS, ...AUTHORS, ...PAYLOADS, ...FILES, ...EDITS];

/** The subset run as real processes: the flags and streams only a process has. */
const SPAWNED: Array<[name: string, argv: () => string[], code: ErrorCode, input?: Buffer]> = [
  ['a named pipe as --xml-file', () => insert(['--xml-file', join(files, 'pipe.xml')]), 'USAGE'],
  ['a named pipe as --markdown', () => ['import', 'imp', '--markdown', join(files, 'pipe.xml'), '--why', 'h', '--author', AUTHOR, ...W()], 'USAGE'],
  ['a bad byte on standard input', () => insert(['--xml-file', '-']), 'BAD_ENCODING', bytes('<text>', [0xe9], '</text>')],
  ['a deep payload from a file', () => insert(['--xml-file', join(files, 'deep.xml')]), 'TOO_DEEP'],
  ['a reserved ledger id', () => create('index.html'), 'BAD_LEDGER_ID'],
  ['an author with a leading space from the environment', () => ['replace', 'a1', text, '--text', 'x', '--base', base, '--why', 'h', ...W()], 'BAD_AUTHOR'],
  ['a reason with a line break', () => withWhy('one\ntwo'), 'BAD_REASON'],
  ['a DOCTYPE', () => xml('<!DOCTYPE x><text>x</text>'), 'UNSAFE_XML'],
  ['a viewer writing', () => withAuthor('vic'), 'ROLE_TOO_LOW'],
  ['a who without a grant', () => withAuthor('zed'), 'NO_ROLE'],
  ['a huge file', () => insert(['--xml-file', join(files, 'huge.xml')]), 'TOO_LARGE'],
  ['an unknown option', () => ['read', 'a1', '--exec', 'rm', ...W()], 'USAGE'],
];

/** Hostile MCP tool calls: the tool, its arguments, and the code its refusal carries. */
type McpCase = [name: string, tool: string, args: () => Record<string, unknown>, code: string];
const common = () => ({ workspace: ws.root, ledger: 'a1', why: 'hostile' });
const mInsert = (payload: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ ...common(), into: 'root', base, ...payload, ...extra });
const MCP_CASES: McpCase[] = [
  ...['', ' ', 'a\nb', 'a\rb', 'x\u0000', 'x\u0085', 'x\u2028', 'x\u202e', 'x'.repeat(501)].map(
    (why): McpCase => [`reason ${JSON.stringify(why.slice(0, 12))}`, 'canvas_replace', () => ({ ...common(), node: text, text: 'x', base, why }), 'BAD_REASON'],
  ),
  ...['../x', 'A', 'x.xml', 'a..b', 'index.lock'].map((ledger): McpCase => [`ledger ${ledger}`, 'canvas_insert', () => ({ ...mInsert({ text: 'x' }), ledger }), 'BAD_LEDGER_ID']),
  ['a step smuggling a run', 'canvas_insert', () => mInsert({ text: 'x' }, { step: 'x | run:y' }), 'BAD_AUTHOR'],
  ['a run with a space', 'canvas_insert', () => mInsert({ text: 'x' }, { run: ' r' }), 'BAD_AUTHOR'],
  ['another workspace', 'canvas_insert', () => ({ ...mInsert({ text: 'x' }), workspace: '/' }), 'WORKSPACE_MISMATCH'],
  ['a relative workspace', 'canvas_insert', () => ({ ...mInsert({ text: 'x' }), workspace: '.' }), 'WORKSPACE_MISMATCH'],
  ['a DOCTYPE', 'canvas_insert', () => mInsert({ xml: '<!DOCTYPE t [<!ENTITY e SYSTEM "file:///etc/passwd">]><text>&e;</text>' }), 'UNSAFE_XML'],
  ['a comment', 'canvas_insert', () => mInsert({ xml: '<text>x<!-- y --></text>' }), 'UNSAFE_XML'],
  ['malformed XML', 'canvas_insert', () => mInsert({ xml: '<text>' }), 'XML_PARSE'],
  ['an unknown element', 'canvas_insert', () => mInsert({ xml: '<iframe src="x"></iframe>' }), 'SCHEMA'],
  ['a control character', 'canvas_insert', () => mInsert({ text: 'a\u0007b' }), 'SCHEMA'],
  ['svg with a script', 'canvas_insert', () => mInsert({ xml: svg('<script>alert(1)</script>') }), 'UNSAFE_SVG'],
  ['a deep svg', 'canvas_insert', () => mInsert({ xml: svg(`${'<g>'.repeat(5_000)}${'</g>'.repeat(5_000)}`) }), 'TOO_DEEP'],
  ['a 2 MB text', 'canvas_insert', () => mInsert({ text: 'x'.repeat(2_000_000) }), 'TOO_LARGE'],
  ['a node over 128 KiB', 'canvas_insert', () => mInsert({ question: `${'why '.repeat(40_000)}?` }), 'TOO_LARGE'],
  ['a payload carrying id', 'canvas_insert', () => mInsert({ xml: '<text id="abc">x</text>' }), 'PAYLOAD_HAS_ID'],
  ['two payloads', 'canvas_insert', () => mInsert({ text: 'x', section: 'y' }), 'USAGE'],
  ['no payload', 'canvas_insert', () => mInsert({}), 'USAGE'],
  ['both after and into', 'canvas_insert', () => mInsert({ text: 'x' }, { after: text }), 'USAGE'],
  ['an unknown node', 'canvas_remove', () => ({ ...common(), node: 'zzzz', base }), 'NODE_NOT_FOUND'],
  ['a base of zeros', 'canvas_remove', () => ({ ...common(), node: text, base: '0'.repeat(40) }), 'UNKNOWN_BASE'],
  ["another canvas's base", 'canvas_remove', () => ({ ...common(), node: text, base: otherBase }), 'FOREIGN_BASE'],
  ['no base', 'canvas_remove', () => ({ ...common(), node: text }), 'BASE_REQUIRED'],
  ['a section with children removed', 'canvas_remove', () => ({ ...common(), node: section, base }), 'HAS_CHILDREN'],
  ['a move into itself', 'canvas_move', () => ({ ...common(), node: section, into: inner, base }), 'MOVE_INTO_SELF'],
  ['a bad idempotency key', 'canvas_replace', () => ({ ...common(), node: text, text: 'x', base, idempotencyKey: 'a b' }), 'USAGE'],
  ['a proposal that does not exist', 'canvas_approve_proposal', () => ({ ...common(), proposalId: 'ffffffffff' }), 'PROPOSAL_NOT_FOUND'],
  ['a read of a canvas that does not exist', 'canvas_read', () => ({ workspace: ws.root, ledger: 'nope' }), 'CANVAS_NOT_FOUND'],
  ['a read at an unknown sha', 'canvas_read', () => ({ workspace: ws.root, ledger: 'a1', at: '1'.repeat(40) }), 'UNKNOWN_BASE'],
  ['a history of a bad ledger', 'canvas_history', () => ({ workspace: ws.root, ledger: '../x', node: 'x' }), 'BAD_LEDGER_ID'],
];

/** Calls the SDK or the guard refuses as invalid arguments (isError: true, -32602). */
const MCP_INVALID: Array<[name: string, tool: string, args: () => Record<string, unknown>]> = [
  ['a __proto__ key', 'canvas_insert', () => JSON.parse(`{"workspace":${JSON.stringify(ws.root)},"ledger":"a1","into":"root","text":"x","base":"${base}","why":"w","__proto__":{"why":"x"}}`)],
  ['a __proto__ key holding a string', 'canvas_read', () => JSON.parse(`{"workspace":${JSON.stringify(ws.root)},"ledger":"a1","__proto__":"x"}`)],
  ['an unknown argument', 'canvas_insert', () => mInsert({ text: 'x' }, { author: 'someone-else' })],
  ['a number as ledger', 'canvas_read', () => ({ workspace: ws.root, ledger: 7 })],
  ['a missing why', 'canvas_insert', () => ({ workspace: ws.root, ledger: 'a1', into: 'root', text: 'x', base })],
  ['an object as text', 'canvas_insert', () => mInsert({ text: { toString: 'x' } })],
];

describe('the attack script', () => {
  it(`refuses ${CLI_CASES.length} hostile command lines through the CLI's entry, each with its code and exit code, writing nothing`, async () => {
    const wrong: string[] = [];
    for (const [name, argv, code] of CLI_CASES) {
      const before = repoState(ws);
      const r = await runMain(null, argv(), { CANVAS_AUTHOR: '' });
      const got = codeOf(r.stdout);
      if (got !== code || r.code !== exitCodeFor(errorKindOf(code))) wrong.push(`${name}: expected ${code}, got ${got} (exit ${r.code}) ${r.stdout.slice(0, 300)}`);
      expect(repoState(ws), name).toEqual(before);
    }
    expect(wrong).toEqual([]);
  });

  it(`refuses ${SPAWNED.length} hostile command lines as real processes, writing nothing`, async () => {
    execFileSync('mkfifo', [join(files, 'pipe.xml')]);
    const before = repoState(ws);
    const wrong: string[] = [];
    for (const [name, argv, code, input] of SPAWNED) {
      const env = name.includes('environment') ? { CANVAS_AUTHOR: ' leo' } : {};
      const r = await runCli(ws, argv(), env, input);
      const got = codeOf(r.stdout);
      if (got !== code || r.code !== exitCodeFor(errorKindOf(code))) wrong.push(`${name}: expected ${code}, got ${got} (exit ${r.code}) ${r.stdout.slice(0, 200)} ${r.stderr.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
    expect(repoState(ws)).toEqual(before);
  });

  it(`refuses ${MCP_CASES.length + MCP_INVALID.length} hostile MCP calls through one client, writing nothing`, async () => {
    const wrong: string[] = [];
    const before = repoState(ws);
    for (const [name, tool, args, code] of MCP_CASES) {
      const r = await mcp.call(tool, args());
      const json = JSON.parse(r.text) as { code?: string; error?: { code?: string } };
      const got = json.code ?? json.error?.code;
      if (got !== code || r.isError) wrong.push(`${name}: expected ${code}, got ${got} ${r.text.slice(0, 200)}`);
    }
    for (const [name, tool, args] of MCP_INVALID) {
      const r = await mcp.call(tool, args());
      if (!r.isError || !r.text.startsWith('Input validation error: ')) wrong.push(`${name}: expected an invalid-arguments result, got ${r.text.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
    expect(repoState(ws)).toEqual(before);
  });

  it('runs at least 150 hostile inputs in all', () => {
    expect(CLI_CASES.length + SPAWNED.length + MCP_CASES.length + MCP_INVALID.length).toBeGreaterThanOrEqual(150);
  });
});
