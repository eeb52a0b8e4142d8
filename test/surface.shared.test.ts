import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as checkEntry from '../src/check/index.js';
import * as importEntry from '../src/import/index.js';
import * as api from '../src/index.js';
import * as mcpEntry from '../src/mcp/index.js';
import { ERROR_CODES, EXIT_CODES } from '../src/model/canvas-error.js';
import * as modelEntry from '../src/model/index.js';
import * as publishEntry from '../src/publish/index.js';
import * as renderEntry from '../src/render/index.js';
import * as siteEntry from '../src/site/index.js';
import { AUTHOR, ROOT, tempWorkspace } from './helpers/workspace.js';
import { tempDir } from './helpers/temp-dir.js';

/** Every entry of the package (docs/library.md, "Entries"): its `exports` key and its module. */
const ENTRIES: Record<string, Record<string, unknown>> = {
  '.': api,
  './check': checkEntry,
  './import': importEntry,
  './mcp': mcpEntry,
  './model': modelEntry,
  './publish': publishEntry,
  './render': renderEntry,
  './site': siteEntry,
};

/** The source file of an entry. */
const sourceOf = (key: string): string => (key === '.' ? 'src/index.ts' : `src/${key.slice(2)}/index.ts`);

describe('the declared surface', () => {
  it('each entry names every public value export (growing the API is a visible decision)', () => {
    const surface = Object.fromEntries(Object.entries(ENTRIES).map(([key, mod]) => [key, Object.keys(mod).sort()]));
    expect(surface).toMatchInlineSnapshot(`
      {
        ".": [
          "CanvasError",
          "ERROR_CODES",
          "abandonCanvas",
          "ackInbox",
          "approveProposal",
          "canvasEdges",
          "canvasLog",
          "createCanvas",
          "exitCodeFor",
          "freezeCanvas",
          "grantRole",
          "insertNode",
          "listCanvasEntries",
          "listCanvases",
          "listProposals",
          "listWatchers",
          "moveNode",
          "nodeHistory",
          "openCanvas",
          "readAccess",
          "readCanvas",
          "readCanvasText",
          "readInbox",
          "readSnapshot",
          "rejectProposal",
          "removeNode",
          "replaceNode",
          "resolveWorkspace",
          "revokeRole",
          "searchCanvases",
          "setRemote",
          "showRemote",
          "syncWorkspace",
          "unsetRemote",
          "unwatchCanvas",
          "verifyWorkspace",
          "watchCanvas",
        ],
        "./check": [
          "CHECK_AUTHOR",
          "checkCoherence",
        ],
        "./import": [
          "importMarkdown",
        ],
        "./mcp": [
          "createMcpServer",
          "startMcpServer",
        ],
        "./model": [
          "diffCanvases",
          "parseCanvas",
          "parseDiagram",
          "parsePayload",
          "serializeCanvas",
          "serializeNode",
        ],
        "./publish": [
          "markdownToBasecampHtml",
          "publishComment",
        ],
        "./render": [
          "doneArtifact",
          "drawDiagram",
          "drawExcalidraw",
          "drawFigures",
          "exportScene",
          "preparePage",
          "renderComment",
          "renderDone",
          "renderPage",
          "renderPrompt",
          "sanitizeSvg",
        ],
        "./site": [
          "buildSite",
          "loadRenderers",
        ],
      }
    `);
    for (const key of Object.keys(ENTRIES)) expect(readFileSync(join(ROOT, sourceOf(key)), 'utf8'), key).not.toMatch(/^export \* from/m);
  });

  it("package.json's exports declare exactly these entries, each typed, and the build emits them where they point", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, string | { types: string; default: string }>;
      sideEffects: unknown;
    };
    expect(manifest.sideEffects).toBe(false);
    const declared = Object.keys(manifest.exports).filter((k) => k !== './package.json');
    expect(declared.sort()).toEqual(Object.keys(ENTRIES).sort());
    // Every src/<folder>/index.ts is an entry: an index file nobody declared would be a surface by
    // accident. But the store's: the surface the folders above it import, whose functions the
    // main entry exports (docs/library.md, "Entries").
    const indexes = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'store' && existsSync(join(ROOT, 'src', d.name, 'index.ts')))
      .map((d) => `./${d.name}`);
    expect(['.', ...indexes].sort()).toEqual(declared.sort());
    for (const key of declared) {
      const target = manifest.exports[key];
      if (typeof target !== 'object') throw new Error(`${key}: no conditions`);
      const base = sourceOf(key)
        .replace(/^src\//, './dist/lib/')
        .replace(/\.ts$/, '');
      expect(target, key).toEqual({ types: `${base}.d.ts`, default: `${base}.js` });
    }
  });

  it('the main entry holds no static value export but the error class and the workspace resolver (docs/library.md, "A light main entry")', () => {
    const text = readFileSync(join(ROOT, 'src/index.ts'), 'utf8');
    const light = new Set(['./model/canvas-error.js', './store/repo/workspace.js']);
    const statements = text.match(/^(?:export|import)\s[^;]*?from '[^']+';/gms) ?? [];
    const heavy: string[] = [];
    for (const s of statements) {
      const from = /from '([^']+)';$/.exec(s)![1]!;
      const typeOnly =
        /^(?:export|import) type\s/.test(s) ||
        !/\{([^}]*)\}/
          .exec(s)?.[1]
          ?.split(',')
          .some((n) => n.trim() !== '' && !n.trim().startsWith('type '));
      if (!typeOnly && !light.has(from)) heavy.push(s.replace(/\s+/g, ' '));
    }
    expect(heavy).toEqual([]);
    // The rest is loaded on first call.
    expect(text).toMatch(/import\('\.\/store\/write\/node-writes\.js'\)/);
  });

  it('a store function of the main entry is the store function, loaded on its first call', async () => {
    const ws = tempWorkspace();
    expect((await api.createCanvas(ws, { ledger: 'lazy', why: 'a canvas to read', author: AUTHOR })).outcome).toBe('applied');
    expect((await api.readCanvas(ws, { ledger: 'lazy' })).xml).toContain('<canvas ledger="lazy"');
    const edges: api.CanvasEdges = await api.canvasEdges(ws, 'lazy');
    expect(edges.actors.map((a) => [a.who, a.acts, a.last.op])).toEqual([['leo', 1, 'create']]);
    const err = await api.readCanvas(ws, { ledger: 'no-such-canvas' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(api.CanvasError);
    expect((err as api.CanvasError).code).toBe('CANVAS_NOT_FOUND');
  });

  it('the shared remote through the main entry: set, a write pushed, sync and show agreeing with the remote', async () => {
    const ws = tempWorkspace();
    const bare = join(tempDir('canvas-surface-remote-'), 'shared.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    expect(await api.setRemote(ws, bare)).toBe(bare);
    expect(await api.showRemote(ws)).toEqual({ url: bare, main: null });
    const created = await api.createCanvas(ws, { ledger: 'shared', why: 'a canvas pushed to the remote', author: AUTHOR });
    const main = execFileSync('git', ['-C', bare, 'rev-parse', 'refs/heads/main'], { encoding: 'utf8' }).trim();
    expect(created.outcome === 'applied' && created.revision).toBe(main);
    const report: api.SyncReport = await api.syncWorkspace(ws);
    expect(report).toEqual({ url: bare, main, followed: false, pushed: false });
    const shown: api.RemoteReport = await api.showRemote(ws);
    expect(shown).toEqual({ url: bare, main });
    expect(await api.unsetRemote(ws)).toBe(bare);
    expect(((await api.showRemote(ws).catch((e: unknown) => e)) as api.CanvasError).code).toBe('NO_REMOTE');
  });

  it('docs/errors.md documents every error code', () => {
    const doc = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
    const documented = [...doc.matchAll(/^## ([A-Z_]+)$/gm)].map((m) => m[1]);
    for (const code of ERROR_CODES) expect(documented, code).toContain(code);
    expect(documented.filter((c) => !ERROR_CODES.includes(c as never))).toEqual([]);
  });

  it('docs/cli.md, "Exit codes", gives each exit code of EXIT_CODES its number, and no other', () => {
    const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Exit codes\n'), doc.indexOf('\n## ', doc.indexOf('## Exit codes\n') + 1));
    const rows = [...section.matchAll(/^\| (\d+) \| `([a-z-]+)` \|/gm)].map((m) => [m[2]!, Number(m[1])]);
    expect(rows.length).toBeGreaterThan(10);
    expect(Object.fromEntries(rows)).toEqual(EXIT_CODES);
    expect(rows).toHaveLength(Object.keys(EXIT_CODES).length);
  });
});
