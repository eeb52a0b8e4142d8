// The habits every command has (docs/cli.md, "Every command"): --quiet, colour by FORCE_COLOR and
// NO_COLOR, `-o -`, completion scripts, `canvas help environment`, help with an example for each
// command, and a conflict's hint on stderr.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/cli/environment.js';
import { VOCABULARY } from '../../src/cli/help-texts.js';
import { buildProgram } from '../../src/cli/main.js';
import { useColor } from '../../src/cli/output.js';
import { parseAuthor } from '../../src/model/parse-author.js';
import { AUTHOR_PART } from '../../src/model/patterns.js';
import { parsePayload } from '../../src/model/parse-payload.js';
import { NODE_TYPES } from '../../src/model/types.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, repoState, ROOT, tempWorkspace } from '../helpers/workspace.js';

/** What `canvas <command> --help` prints, the text after the options included. */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  command.outputHelp();
  return text;
}

/** The visible commands of the whole program. */
function commands(): Command[] {
  return buildProgram().commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
}

describe('--quiet, on every command: only errors', () => {
  let ws: Workspace;
  let base: string;
  let node: string;
  beforeAll(async () => {
    ws = tempWorkspace();
    expect((await runMain(ws, ['create', 'quiet', '--why', 'a canvas to be quiet about'])).code).toBe(0);
    const inserted = await runMain(ws, ['insert', 'quiet', '--into', 'root', '--text', 'one', '--base', baseOf((await runMain(ws, ['read', 'quiet'])).stdout), '--why', 'a node']);
    node = /applied insert (\S+)/.exec(inserted.stdout)![1]!;
    base = baseOf((await runMain(ws, ['read', 'quiet'])).stdout);
    // The node moves on, so a write against `base` is a conflict.
    expect((await runMain(ws, ['replace', 'quiet', node, '--text', 'two', '--base', base, '--why', 'changed'])).code).toBe(0);
  });

  it('every command takes it (commands added later get it too: main adds it to each)', () => {
    for (const c of buildProgram().commands)
      expect(
        c.options.map((o) => o.long),
        c.name(),
      ).toContain('--quiet');
  });

  it('a write, a read and a render print nothing and exit 0', async () => {
    const head = baseOf((await runMain(ws, ['read', 'quiet'])).stdout);
    for (const args of [
      ['insert', 'quiet', '--into', 'root', '--text', 'three', '--base', head, '--why', 'another node', '--quiet'],
      ['read', 'quiet', '-q'],
      ['render', 'quiet', '--format', 'text', '-q'],
      ['log', 'quiet', '--quiet', '--json'],
    ]) {
      const r = await runMain(ws, args);
      expect(r, args.join(' ')).toEqual({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('an error is still printed, on stderr, or as JSON on stdout with --json; nothing is written', async () => {
    const before = repoState(ws);
    const r = await runMain(ws, ['replace', 'quiet', 'zz9', '--text', 'x', '--base', base, '--why', 'no such node', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^canvas: NODE_NOT_FOUND: /);
    const j = await runMain(ws, ['read', 'nope', '--quiet', '--json']);
    expect(j.code).toBe(2);
    expect(JSON.parse(j.stdout)).toMatchObject({ error: { code: 'CANVAS_NOT_FOUND' } });
    expect(repoState(ws)).toEqual(before);
  });

  it('a conflict says so on stderr, with its hint; without --quiet the diff stays on stdout and the hint goes to stderr', async () => {
    const before = repoState(ws);
    const quiet = await runMain(ws, ['replace', 'quiet', node, '--text', 'mine', '--base', base, '--why', 'against an old base', '-q']);
    expect(quiet.code).toBe(3);
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr).toMatch(new RegExp(`^canvas: STALE_BASE: ${node} changed since your base [0-9a-f]{12}; nothing was applied\\nhint: read it again`));
    const loud = await runMain(ws, ['replace', 'quiet', node, '--text', 'mine', '--base', base, '--why', 'against an old base']);
    expect(loud.code).toBe(3);
    expect(loud.stdout).toMatch(/^conflict: /);
    expect(loud.stdout).toContain(`replaced ${node}`);
    expect(loud.stdout).not.toContain('hint:');
    expect(loud.stderr).toBe('hint: read it again (canvas read quiet), decide again, and write against the new Canvas-Base\n');
    const json = await runMain(ws, ['replace', 'quiet', node, '--text', 'mine', '--base', base, '--why', 'against an old base', '-q', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE' });
    expect(repoState(ws)).toEqual(before);
  });

  it('-o - is standard output', async () => {
    const plain = await runMain(ws, ['render', 'quiet', '--format', 'comment']);
    const dash = await runMain(ws, ['render', 'quiet', '--format', 'comment', '-o', '-']);
    expect(dash).toEqual({ code: 0, stdout: plain.stdout, stderr: '' });
    expect(plain.stdout).toContain('three');
    const prompt = await runMain(ws, ['prompt', 'quiet', '-o', '-', '--json']);
    expect(JSON.parse(prompt.stdout)).toMatchObject({ ledger: 'quiet', format: 'text', content: expect.stringContaining('Canvas-Base:') });
  });
});

describe('colour (docs/cli.md, "Output")', () => {
  const saved = { FORCE_COLOR: process.env.FORCE_COLOR, NO_COLOR: process.env.NO_COLOR, TERM: process.env.TERM };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  const tty = { isTTY: true } as NodeJS.WriteStream;
  const pipe = { isTTY: false } as NodeJS.WriteStream;

  it.each([
    // FORCE_COLOR, NO_COLOR, TERM, on a terminal, in a pipe
    [undefined, undefined, 'xterm', true, false],
    [undefined, '1', 'xterm', false, false],
    [undefined, '', 'xterm', true, false], // an empty NO_COLOR is not set (no-color.org)
    ['1', undefined, 'xterm', true, true],
    ['', undefined, 'xterm', true, true],
    ['1', '1', 'xterm', true, true], // FORCE_COLOR wins, as in Node
    ['0', undefined, 'xterm', false, false],
    ['false', undefined, 'xterm', false, false],
    [undefined, undefined, 'dumb', false, false],
  ])('FORCE_COLOR=%s NO_COLOR=%s TERM=%s: terminal %s, pipe %s', (force, no, term, onTty, onPipe) => {
    for (const [k, v] of Object.entries({ FORCE_COLOR: force, NO_COLOR: no, TERM: term })) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    expect(useColor(tty)).toBe(onTty);
    expect(useColor(pipe)).toBe(onPipe);
  });

  it('FORCE_COLOR colours an error in a pipe', async () => {
    const r = await runMain(null, ['read', 'nope', '--workspace', '/nonexistent-canvas-workspace'], { FORCE_COLOR: '1' });
    expect(r.stderr).toMatch(/^\u001b\[31mcanvas: NO_WORKSPACE\u001b\[0m: /);
  });
});

describe('canvas completion bash|zsh|fish (@bomb.sh/tab, from the commands themselves)', () => {
  it('prints a script per shell that asks `canvas complete` for the words; the bash one parses', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await runMain(null, ['completion', shell]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, shell).toContain('canvas complete --');
    }
    const bash = await runMain(null, ['completion', 'bash']);
    const check = spawnSync('bash', ['-n'], { input: bash.stdout, encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    const bad = await runMain(null, ['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^canvas: USAGE: .*tcsh/);
  });

  it('completes commands, options and the choices of an option', async () => {
    expect((await runMain(null, ['complete', '--', 'ins'])).stdout).toMatch(/^insert\t/m);
    const options = (await runMain(null, ['complete', '--', 'insert', '--a'])).stdout;
    expect(options).toMatch(/^--after\t/m);
    expect(options).toMatch(/^--answered\t/m);
    const formats = (await runMain(null, ['complete', '--', 'render', 'x', '--format', ''])).stdout;
    expect(formats.split('\n').map((l) => l.split('\t')[0])).toEqual(expect.arrayContaining(['html', 'comment', 'text']));
  });
});

/** Every environment variable a file of src/ reads (not the ones it sets for git). */
function variablesRead(): Set<string> {
  const found = new Set<string>();
  const files = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
  for (const file of files(join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:process\.)?env(?:\.([A-Z][A-Z0-9_]*)(?![A-Z0-9_])|\[['"]([A-Z][A-Z0-9_]*)['"]\])(?!\s*=[^=])/g)) found.add((m[1] ?? m[2])!);
    for (const m of text.matchAll(/['"]([A-Z][A-Z0-9_]*)['"] in process\.env/g)) found.add(m[1]!);
  }
  return found;
}

describe('canvas help environment', () => {
  it('lists every environment variable the code reads, and nothing it does not', () => {
    const listed = ENVIRONMENT.map(([name]) => name);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...variablesRead()].sort());
  });

  it('prints each one with what it does; docs/cli.md lists the same', async () => {
    const r = await runMain(null, ['help', 'environment']);
    expect(r.code).toBe(0);
    const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Environment'), doc.indexOf('\n## ', doc.indexOf('## Environment') + 1));
    for (const [name] of ENVIRONMENT) {
      expect(r.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
      expect(section, name).toContain(`\`${name}\``);
    }
  });
});

describe('help', () => {
  it('shows an example of every command', () => {
    for (const c of commands()) expect(helpOf(c), c.name()).toMatch(/\nExamples?:\n {2}canvas /);
  });

  it('gives every identity in an example in a form the command takes: --author an author, --as a bare who', () => {
    let seen = 0;
    for (const c of commands()) {
      const examples = helpOf(c).split(/\nExamples?:\n/)[1] ?? '';
      for (const m of examples.matchAll(/^ {2}canvas .*$/gm)) {
        for (const flag of m[0].matchAll(/--(author|as) (?:"([^"]*)"|(\S+))/g)) {
          const value = flag[2] ?? flag[3]!;
          seen += 1;
          if (flag[1] === 'as') expect(AUTHOR_PART.test(value), `${c.name()}: --as ${value}`).toBe(true);
          else expect(() => parseAuthor(value), `${c.name()}: --author ${value}`).not.toThrow();
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('says which place and which payload an edit needs, and lists the vocabulary with an example per element', () => {
    const byName = new Map(commands().map((c) => [c.name(), helpOf(c)]));
    expect(byName.get('insert')).toContain('exactly one of --after <node>');
    expect(byName.get('move')).toContain('exactly one of --after <node>');
    for (const name of ['insert', 'replace']) {
      const text = byName.get(name)!;
      expect(text).toContain('Payload: exactly one of --xml FRAGMENT, --xml-file PATH');
      for (const [, example] of VOCABULARY) expect(text).toContain(example);
    }
  });

  it('each vocabulary example is a payload the store takes, one per element of the schema', () => {
    const elements = VOCABULARY.map(([element]) => element);
    expect([...elements].sort()).toEqual([...NODE_TYPES].sort());
    for (const [element, example] of VOCABULARY) expect(parsePayload(example.split('   (')[0]!).type, element).toBe(element);
    // The figure's line names every kind the model has.
    const union = /export type FigureKind = ([^;]+);/.exec(readFileSync(join(ROOT, 'src/model/types.ts'), 'utf8'))![1]!;
    const figure = VOCABULARY.find(([element]) => element === 'figure')![1];
    for (const kind of union.split('|').map((k) => k.trim().replace(/'/g, ''))) expect(figure, kind).toContain(kind);
  });

  it("canvas help <command> is that command's help; an unknown topic is USAGE", async () => {
    const r = await runMain(null, ['help', 'insert']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: canvas insert');
    expect(r.stdout).toContain('Examples:');
    const bad = await runMain(null, ['help', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^canvas: USAGE: no help on "nope"/);
  });

  it('the built CLI completes and helps the same way (one real spawn)', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'bin', 'canvas.js'), 'complete', '--', 'rep'], { encoding: 'utf8' });
    expect(out).toMatch(/^replace\t/m);
  });
});
