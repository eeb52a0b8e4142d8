import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/workspace.js';

// The folder rules of docs/architecture.md ("Folders and arrows", "One piece"), measured on src/.

const SRC = join(ROOT, 'src');

/** Every `.ts` file under `dir`, as paths relative to src/ with `/` separators. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts')) out.push(relative(SRC, full).split('\\').join('/'));
  }
  return out.sort();
}

/** The folder of src/ a file belongs to; the root file `index.ts` is its own. */
function folderOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : file;
}

/** The relative specifiers a file imports: static, type-only, re-exports and dynamic `import()`. */
function relativeImports(text: string): string[] {
  const found: string[] = [];
  const patterns = [/\bfrom\s+'(\.\.?\/[^']+)'/g, /\bimport\s+'(\.\.?\/[^']+)'/g, /\bimport\(\s*'(\.\.?\/[^']+)'\s*\)/g];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.push(m[1]!);
  return found;
}

/**
 * What each folder may import (besides itself), from docs/architecture.md: arrows point down only.
 * `index.ts` declares the public surface and may name anything.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  model: [],
  store: ['model'],
  render: ['model'],
  site: ['model', 'store', 'render'],
  publish: ['model', 'store', 'render'],
  check: ['model', 'store', 'render'],
  import: ['model', 'store', 'render'],
  serve: ['model', 'store', 'render'],
  mcp: ['model', 'store', 'render', 'site', 'publish', 'check', 'import'],
  cli: ['model', 'store', 'render', 'site', 'publish', 'check', 'import', 'serve', 'mcp'],
  'index.ts': ['model', 'store', 'render', 'site', 'publish', 'check', 'import', 'serve', 'mcp', 'cli'],
};

/** The files of src/ a file imports, as paths relative to src/ (`.js` specifiers as written). */
function importedFiles(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  return relativeImports(text).map((spec) => relative(SRC, resolve(SRC, dirname(file), spec)).split('\\').join('/'));
}

/** Every arrow between two folders: `from -> to` with the file that draws it. */
function folderArrows(): { from: string; to: string; file: string }[] {
  const arrows: { from: string; to: string; file: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    for (const target of importedFiles(file)) {
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to) arrows.push({ from, to, file });
    }
  }
  return arrows;
}

/** The comment lines at the top of a file, before its first line of code. */
function leadingComment(text: string): string {
  const lines: string[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (inBlock) {
      lines.push(t);
      if (t.includes('*/')) inBlock = false;
    } else if (t.startsWith('//')) lines.push(t);
    else if (t.startsWith('/*')) {
      lines.push(t);
      inBlock = !t.includes('*/');
    } else if (t !== '') break;
  }
  return lines.join('\n');
}

const MAX_LINES = 300;
const ONE_PIECE = /\bOne piece\b/;

describe('the folder rules (docs/architecture.md)', () => {
  it('every folder of src/ has its rule, so a new folder is placed deliberately', () => {
    const folders = [...new Set(sourceFiles(SRC).map(folderOf))].sort();
    expect(folders).toEqual(Object.keys(MAY_IMPORT).sort());
  });

  it('no arrow points up or sideways: each folder imports only the folders below it', () => {
    const upward = folderArrows()
      .filter((a) => !(MAY_IMPORT[a.from] ?? []).includes(a.to))
      .map((a) => `${a.file} imports ${a.to}/`);
    expect(upward).toEqual([]);
  });

  it('inside the store each folder imports only the layers below it (docs/architecture.md, "Inside `store/`")', () => {
    // The layers of docs/architecture.md's table, lowest first; folders of one layer do not import each other.
    const LAYERS: Readonly<Record<string, number>> = { files: 1, git: 2, repo: 3, remote: 4, watch: 4, read: 5, write: 5, search: 6, verify: 6 };
    const inStore = sourceFiles(SRC).filter((f) => f.startsWith('store/') && f.split('/').length > 2);
    expect([...new Set(inStore.map((f) => f.split('/')[1]!))].sort()).toEqual(Object.keys(LAYERS).sort());
    const drawn = inStore.flatMap((f) => {
      const from = f.split('/')[1]!;
      return importedFiles(f)
        .filter((t) => t.startsWith('store/') && t.split('/').length > 2)
        .filter((t) => t.split('/')[1] !== from && !((LAYERS[t.split('/')[1]!] ?? 99) < LAYERS[from]!))
        .map((t) => `${f} imports ${t}`);
    });
    expect(drawn).toEqual([]);
  });

  it("the store's git plumbing, shared remote and search import nothing of its write path (docs/architecture.md, \"Inside `store/`\")", () => {
    const plumbing = sourceFiles(SRC).filter((f) => f.startsWith('store/git/') || f.startsWith('store/remote/') || f.startsWith('store/search/'));
    expect(plumbing.length).toBeGreaterThan(0);
    const drawn = plumbing.flatMap((f) => importedFiles(f).filter((t) => t.startsWith('store/write/')).map((t) => `${f} imports ${t}`));
    expect(drawn).toEqual([]);
  });

  it('the folders draw no cycle', () => {
    const edges = new Map<string, Set<string>>();
    for (const a of folderArrows()) {
      if (!edges.has(a.from)) edges.set(a.from, new Set());
      edges.get(a.from)!.add(a.to);
    }
    const cycles: string[] = [];
    const visit = (node: string, path: string[]): void => {
      if (path.includes(node)) {
        cycles.push([...path.slice(path.indexOf(node)), node].join(' -> '));
        return;
      }
      for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
    };
    for (const start of edges.keys()) visit(start, []);
    expect(cycles).toEqual([]);
  });

  it('catches an upward arrow when one is drawn (the scanner reads every import form)', () => {
    const text = [
      "import { a } from '../store/a.js';",
      "import type { B } from '../cli/b.js';",
      "export { c } from './c.js';",
      "import '../render/side-effect.js';",
      "const m = await import('../mcp/m.js');",
    ].join('\n');
    expect(relativeImports(text)).toEqual(['../store/a.js', '../cli/b.js', './c.js', '../render/side-effect.js', '../mcp/m.js']);
  });
});

describe('file size (docs/architecture.md, "One piece")', () => {
  it(`no file in src/ over ${MAX_LINES} lines without a top comment saying why it is one piece`, () => {
    const unexplained = sourceFiles(SRC).filter((file) => {
      const text = readFileSync(join(SRC, file), 'utf8');
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      return lines > MAX_LINES && !ONE_PIECE.test(leadingComment(text));
    });
    expect(unexplained).toEqual([]);
  });

  it('reads the marker only from the comment at the top', () => {
    expect(ONE_PIECE.test(leadingComment('// One piece: the steps share one state.\nimport x from "y";'))).toBe(true);
    expect(ONE_PIECE.test(leadingComment('/**\n * One piece: why.\n */\nconst a = 1;'))).toBe(true);
    expect(ONE_PIECE.test(leadingComment('import x from "y";\n// One piece: too late.'))).toBe(false);
  });
});

/** Every `docs/<file>.md` a comment in src/ cites, with the section it names when it names one. */
function docCitations(): { file: string; doc: string; section: string | null }[] {
  const out: { file: string; doc: string; section: string | null }[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const m of text.matchAll(/docs\/([a-z0-9-]+\.md)`?(?:,? "([^"\n]+)")?/g)) out.push({ file, doc: m[1]!, section: m[2] ?? null });
  }
  return out;
}

/** The headings of a docs file, without their `#` marks. */
function headingsOf(doc: string): Set<string> {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  const headings = [...text.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.trim());
  // A bold label opening a paragraph or a list item (`**Reason**:`, `- **\`render\`**`) names a part too.
  const labels = [...text.matchAll(/^(?:- )?\*\*([^*\n]+)\*\*/gm)].map((m) => m[1]!.replaceAll('`', '').replace(/[.:]$/, '').trim());
  return new Set([...headings, ...labels]);
}

describe('comments point at what a reader can open (docs/architecture.md, "Citations")', () => {
  it('no comment in src/ cites a document the repository does not hold', () => {
    const outside = sourceFiles(SRC).flatMap((file) =>
      readFileSync(join(SRC, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/design sections? [0-9]|spec\/0|notes\/libraries|\bspec "/.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(outside).toEqual([]);
  });

  it('every docs file a comment cites exists, and so does the section it names', () => {
    const missing: string[] = [];
    for (const c of docCitations()) {
      let headings: Set<string>;
      try {
        headings = headingsOf(c.doc);
      } catch {
        missing.push(`${c.file}: docs/${c.doc}`);
        continue;
      }
      if (c.section !== null && !headings.has(c.section)) missing.push(`${c.file}: docs/${c.doc} "${c.section}"`);
    }
    expect(missing).toEqual([]);
  });
});
