import { isAscii } from 'node:buffer';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { loadedBy, matching } from '../helpers/loaded-modules.js';
import { baseOf, ROOT, runCli, tempWorkspace } from '../helpers/workspace.js';

/** The write path and the renderers: what a read never needs. */
const HEAVY = /^(node_modules\/(hast-util-to-html|mdast-util-to-markdown)\/|src\/(store\/write\/|store\/read\/read-snapshot|render\/))/;
/**
 * The XML parser and the schema check: `canvas read` runs them on bytes the store did not write
 * itself (so committed bytes a write would refuse are refused: test/cli/unsafe-reads.test.ts),
 * not on the bytes its own last write checked; `history` and `log` print no document.
 */
const PARSER = /^(node_modules\/(@rgrove\/parse-xml|xast-util-from-xml)\/|src\/model\/(parse-canvas|convert-element)\.ts)/;

describe('what canvas read, history and log run (nothing but the read itself)', () => {
  let ws: Workspace;
  let node: string;
  beforeAll(async () => {
    ws = tempWorkspace();
    expect((await runCli(ws, ['create', 'light', '--why', 'a canvas to read'])).code).toBe(0);
    const read = await runCli(ws, ['read', 'light']);
    const insert = await runCli(ws, ['insert', 'light', '--into', 'root', '--base', baseOf(read.stdout), '--text', 'one node', '--why', 'something to read']);
    expect(insert.code, insert.stderr).toBe(0);
    node = /applied insert (\S+)/.exec(insert.stdout)![1]!;
  });

  it('neither the write path nor a renderer, and not the lazy bundle; no XML parser for bytes the store wrote', async () => {
    for (const args of [
      ['read', 'light'],
      ['history', 'light', node],
      ['log', 'light'],
    ]) {
      const r = await loadedBy(ws, args);
      expect(r.code, r.stderr).toBe(0);
      expect([...r.bundles].sort(), args[0]).toEqual(['canvas.cjs', 'start.cjs']);
      expect(r.modules.has('src/cli/main.ts'), args[0]).toBe(true);
      expect(matching(r.modules, HEAVY), args[0]).toEqual([]);
      expect(matching(r.modules, PARSER), args[0]).toEqual([]);
      // A read takes no lock and hashes nothing: loading Node's crypto would cost it about 3.6%.
      expect(matching(r.builtins, /^node:(internal\/)?crypto\b/), args[0]).toEqual([]);
    }
  });

  it('a read parses and checks the bytes when the store has no record of writing them', async () => {
    const cache = join(ws.repo, '.git', 'canvas-cache', 'trees', 'light.json');
    const kept = readFileSync(cache);
    try {
      // The same bytes with a record naming other ones (the store's write of an older revision).
      writeFileSync(cache, kept.toString('utf8').replace(/^\{"blob":"[0-9a-f]{4}/, '{"blob":"0000'));
      const other = await loadedBy(ws, ['read', 'light']);
      expect(other.code, other.stderr).toBe(0);
      expect(matching(other.modules, PARSER).length > 0).toBe(true);
      expect(matching(other.builtins, /^node:(internal\/)?crypto\b/)).toEqual([]);
      // The same bytes, recorded as passing the checks of another version (an older build's,
      // before a check tightened): checked again.
      writeFileSync(cache, kept.toString('utf8').replace(/^(\{"blob":"[0-9a-f]+","checks":)\d+,/, '$11,'));
      const older = await loadedBy(ws, ['read', 'light']);
      expect(older.code, older.stderr).toBe(0);
      expect(older.stdout).toBe(other.stdout);
      expect(matching(older.modules, PARSER).length > 0).toBe(true);
      rmSync(cache);
      const none = await loadedBy(ws, ['read', 'light']);
      expect(none.code, none.stderr).toBe(0);
      expect(none.stdout).toBe(other.stdout);
      expect(matching(none.modules, PARSER).length > 0).toBe(true);
    } finally {
      writeFileSync(cache, kept);
    }
  });

  it('the probe sees what a write runs: the write path', async () => {
    const read = await runCli(ws, ['read', 'light']);
    const r = await loadedBy(ws, ['replace', 'light', node, '--base', baseOf(read.stdout), '--text', 'one node, changed', '--why', 'check the probe']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.modules.has('src/store/write/apply-edit.ts')).toBe(true);
    expect(r.modules.has('src/store/write/check-base.ts')).toBe(true);
    expect(r.bundles).not.toContain('canvas-lazy.cjs');
    expect(r.builtins).toContain('node:crypto');
    // Nor what only a clock or a recursive removal would load (about 1.2 ms of a write for
    // perf_hooks, src/store/write/run-locked.ts; rimraf, src/store/files/remove-quietly.ts).
    expect(matching(r.builtins, /^node:(perf_hooks|internal\/perf\/(performance|usertiming|nodetiming)|internal\/fs\/rimraf)$/)).toEqual([]);
  });

  it('the entry bundle holds no server: canvas serve and its HTTP packages are in the lazy bundle', () => {
    // esbuild names each module it bundles in a comment line; the entry is what every command
    // compiles (its source is read and hashed at every start), so a module only one command
    // uses belongs in canvas-lazy.cjs.
    const modules = (file: string) => readFileSync(join(ROOT, 'dist', 'cli', file), 'utf8').match(/^\/\/ (src|node_modules)\/\S+/gm) ?? [];
    const heavy = /^\/\/ (src\/serve\/|node_modules\/(hono|@hono\/node-server)\/)/;
    expect(modules('canvas.cjs').filter((m) => heavy.test(m))).toEqual([]);
    expect(modules('canvas-lazy.cjs').some((m) => m.startsWith('// src/serve/'))).toBe(true);
  });

  it('the bundles are ASCII, so the start copies their source rather than decode it (scripts/build.js, 3b)', () => {
    for (const file of ['canvas.cjs', 'canvas-lazy.cjs']) expect(isAscii(readFileSync(join(ROOT, 'dist', 'cli', file))), file).toBe(true);
  });
});
