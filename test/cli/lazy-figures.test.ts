import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseOf, ROOT, runCli, tempWorkspace } from '../helpers/workspace.js';

/**
 * A preload that records every module URL the process resolves through the ESM loader (which
 * every `import()` of jsdom, DOMPurify and dagre goes through), written to $CANVAS_PROBE_OUT.
 */
function probe(): { env: Record<string, string>; loaded: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-probe-'));
  const out = join(dir, 'resolved.txt');
  const hooks = [
    "import { appendFileSync } from 'node:fs';",
    'export async function resolve(specifier, context, next) {',
    '  const r = await next(specifier, context);',
    "  appendFileSync(process.env.CANVAS_PROBE_OUT, r.url + '\\n');",
    '  return r;',
    '}',
  ].join('\n');
  writeFileSync(join(dir, 'hooks.mjs'), hooks);
  writeFileSync(join(dir, 'probe.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${join(dir, 'hooks.mjs')}`)});\n`);
  writeFileSync(out, '');
  return {
    env: { NODE_OPTIONS: `--import ${join(dir, 'probe.mjs')}`, CANVAS_PROBE_OUT: out },
    loaded: () => {
      const urls = readFileSync(out, 'utf8').split('\n');
      writeFileSync(out, '');
      return urls;
    },
  };
}

const HEAVY = /node_modules\/(jsdom|dompurify|@dagrejs)\//;

describe('heavy figure modules load only when a figure needs them', () => {
  it('canvas read loads neither jsdom, DOMPurify nor dagre; an insert of an svg figure loads jsdom', async () => {
    const ws = tempWorkspace();
    const p = probe();
    const env = p.env;

    const created = await runCli(ws, ['create', 'lazy-1', '--why', 'start the canvas'], env);
    expect(created.code).toBe(0);
    expect(p.loaded().filter((u) => HEAVY.test(u))).toEqual([]);

    const read = await runCli(ws, ['read', 'lazy-1'], env);
    expect(read.code).toBe(0);
    const readUrls = p.loaded();
    expect(readUrls.some((u) => u.includes('/dist/cli/'))).toBe(true); // the probe saw the CLI load
    expect(readUrls.filter((u) => HEAVY.test(u))).toEqual([]);

    // The control: the same probe does see jsdom and DOMPurify when an svg figure is written.
    const svg = '<figure kind="svg"><svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg></figure>';
    const insert = await runCli(ws, ['insert', 'lazy-1', '--into', 'root', '--base', baseOf(read.stdout), '--why', 'add a picture', '--xml', svg], env);
    expect(insert.code, insert.stderr).toBe(0);
    const insertUrls = p.loaded().filter((u) => HEAVY.test(u));
    expect(insertUrls.some((u) => /node_modules\/jsdom\//.test(u))).toBe(true);
    expect(insertUrls.some((u) => /node_modules\/dompurify\//.test(u))).toBe(true);

    // Reading a canvas that holds an svg figure stays light too.
    const again = await runCli(ws, ['read', 'lazy-1'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('<svg');
    expect(p.loaded().filter((u) => HEAVY.test(u))).toEqual([]);
  });
});

describe('the CLI bundle keeps heavy figure modules behind dynamic imports', () => {
  it('no chunk the entry loads statically mentions jsdom, dompurify or dagre', () => {
    const dir = join(ROOT, 'dist', 'cli');
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(join(dir, file), 'utf8');
      expect(code, file).not.toMatch(/jsdom|dompurify|@dagrejs/);
      for (const m of code.matchAll(/(?:from|import) "\.\/([^"]+)"/g)) visit(m[1]!);
    };
    visit('canvas.js');
    expect(seen.size).toBeGreaterThan(1);
    // ... while the SVG checker is still in the bundle, behind import() from a chunk the CLI
    // loads (statically, or with the write path, which is itself imported when a write runs).
    const reachable = new Set<string>();
    const walk = (file: string): void => {
      if (reachable.has(file)) return;
      reachable.add(file);
      const code = readFileSync(join(dir, file), 'utf8');
      for (const m of code.matchAll(/(?:from |import |import\()"\.\/([^"]+)"/g)) if (!/^check-svg-/.test(m[1]!)) walk(m[1]!);
    };
    walk('canvas.js');
    const dynamic = [...reachable].some((f) => /import\("\.\/check-svg-[A-Z0-9]+\.js"\)/.test(readFileSync(join(dir, f), 'utf8')));
    expect(dynamic).toBe(true);
  });
});
