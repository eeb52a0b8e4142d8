import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/workspace.js';

// The folder rules of docs/architecture.md ("Folders and arrows", "One piece", "Citations"),
// measured on src/ and test/.

const SRC = join(ROOT, 'src');
const TEST = join(ROOT, 'test');

/** Every text file under `dir` (source, scripts, fixtures), as paths relative to the root. */
function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js|mjs|md|json|css)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

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
  return relativeImports(text).map((spec) =>
    relative(SRC, resolve(SRC, dirname(file), spec))
      .split('\\')
      .join('/'),
  );
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

  it('the store\'s git plumbing, shared remote and search import nothing of its write path (docs/architecture.md, "Inside `store/`")', () => {
    const plumbing = sourceFiles(SRC).filter((f) => f.startsWith('store/git/') || f.startsWith('store/remote/') || f.startsWith('store/search/'));
    expect(plumbing.length).toBeGreaterThan(0);
    const drawn = plumbing.flatMap((f) =>
      importedFiles(f)
        .filter((t) => t.startsWith('store/write/'))
        .map((t) => `${f} imports ${t}`),
    );
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

/** The table of docs/architecture.md, "Where a behaviour lives". */
function behaviourTable(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const start = doc.indexOf('## Where a behaviour lives');
  expect(start).toBeGreaterThan(0);
  return doc.slice(start, doc.indexOf('\n## ', start + 1));
}

/**
 * What a row of the behaviour table names that does not exist: a path (under src/, else from the
 * root) or a file name (somewhere under src/), and a function, class or constant (declared in src/).
 */
function missingInTable(table: string, files: readonly string[], source: string): string[] {
  const names = new Set([...table.matchAll(/`([^`\s<>*]+)`/g)].map((m) => m[1]!));
  const bases = new Set(files.map((f) => f.slice(f.lastIndexOf('/') + 1)));
  const missing: string[] = [];
  for (const name of names) {
    if (/\.(ts|js|css)$|\/$/.test(name)) {
      const found = name.includes('/') ? [join(SRC, name), join(ROOT, name)].some((p) => existsSync(p)) : bases.has(name);
      if (!found) missing.push(name);
    } else if (/^[A-Za-z][A-Za-z0-9]+$/.test(name) && !new RegExp(`\\b(?:function|class|const) ${name}\\b`).test(source)) missing.push(name);
  }
  return missing.sort();
}

/** Whether a file's text is over {@link MAX_LINES} lines without a top comment saying why it is one piece. */
function unexplainedLong(text: string): boolean {
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return lines > MAX_LINES && !ONE_PIECE.test(leadingComment(text));
}

describe('where a behaviour lives (docs/architecture.md)', () => {
  const files = sourceFiles(SRC);
  const source = files.map((f) => readFileSync(join(SRC, f), 'utf8')).join('\n');

  it('every file and function the table names exists', () => {
    expect(missingInTable(behaviourTable(), files, source)).toEqual([]);
  });

  it('names every MCP tool and prompt, each beside the file that registers it', () => {
    const registered = files.filter((f) => /^mcp\/register-[a-z-]+\.ts$/.test(f)).flatMap((f) => [...readFileSync(join(SRC, f), 'utf8').matchAll(/'(canvas_[a-z_]+)'/g)].map((m) => `${f}: ${m[1]}`));
    const rows = behaviourTable().split('\n');
    const named = rows.flatMap((row) =>
      // Each "`mcp/register-x.ts`: `canvas_a`, `canvas_b`" group of a row.
      [...row.matchAll(/`(mcp\/register-[a-z-]+\.ts)`:((?: `canvas_[a-z_]+`,?)+)/g)].flatMap((m) => [...m[2]!.matchAll(/`(canvas_[a-z_]+)`/g)].map((t) => `${m[1]}: ${t[1]}`)),
    );
    expect(registered.length).toBeGreaterThan(20);
    expect([...new Set(named)].sort()).toEqual([...new Set(registered)].sort());
  });

  it('names a missing path, file and function, and passes what exists', () => {
    const table = '| a | `store/write/run-write.ts` (`runWrite`), `check-base.ts`, `mcp/app/`, `store/write/gone.ts` (`noSuchFunction`), `nowhere.ts`, `nothing/`, `templates/page.css` |';
    expect(missingInTable(table, files, source)).toEqual(['noSuchFunction', 'nothing/', 'nowhere.ts', 'store/write/gone.ts']);
  });
});

describe('file size (docs/architecture.md, "One piece")', () => {
  it(`no file in src/ (the tab's script under src/serve/live/ included) over ${MAX_LINES} lines without a top comment saying why it is one piece`, () => {
    const files = sourceFiles(SRC);
    expect(files).toContain('serve/live/main.ts');
    expect(files.filter((file) => unexplainedLong(readFileSync(join(SRC, file), 'utf8')))).toEqual([]);
  });

  it('fails on a long file without the comment, and passes it with one', () => {
    const body = 'const a = 1;\n'.repeat(MAX_LINES);
    expect(unexplainedLong(body)).toBe(false);
    expect(unexplainedLong(`${body}const b = 2;\n`)).toBe(true);
    expect(unexplainedLong(`// One piece: the steps share one state.\n${body}`)).toBe(false);
    expect(unexplainedLong(`${body}// One piece: too late.\n`)).toBe(true);
  });

  it('reads the marker only from the comment at the top', () => {
    expect(ONE_PIECE.test(leadingComment('// One piece: the steps share one state.\nimport x from "y";'))).toBe(true);
    expect(ONE_PIECE.test(leadingComment('/**\n * One piece: why.\n */\nconst a = 1;'))).toBe(true);
    expect(ONE_PIECE.test(leadingComment('import x from "y";\n// One piece: too late.'))).toBe(false);
  });
});

/** The docs/ citations of a text: each `docs/<file>.md`, with the section it names when it names one (a name may run over a comment's line break). */
function docCitations(file: string, text: string): { file: string; doc: string; section: string | null }[] {
  return [...text.matchAll(/docs\/([a-z0-9-]+\.md)`?(?:,? "([^"]{1,120})")?/g)].map((m) => ({
    file,
    doc: m[1]!,
    section: m[2] === undefined ? null : m[2].replace(/\s*\n\s*(?:\*|\/\/)?\s*/g, ' '),
  }));
}

/** The citations among `cited` whose docs file or section does not exist, as `file: docs/<doc> "<section>"`. */
function missingCitations(cited: readonly { file: string; doc: string; section: string | null }[]): string[] {
  const missing: string[] = [];
  for (const c of cited) {
    let headings: Set<string>;
    try {
      headings = headingsOf(c.doc);
    } catch {
      missing.push(`${c.file}: docs/${c.doc}`);
      continue;
    }
    if (c.section !== null && !headings.has(c.section)) missing.push(`${c.file}: docs/${c.doc} "${c.section}"`);
  }
  return missing;
}

/** The headings of a docs file, without their `#` marks. */
function headingsOf(doc: string): Set<string> {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  const headings = [...text.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.trim());
  // A bold label opening a paragraph or a list item (`**Reason**:`, `- **\`render\`**`) names a part too.
  const labels = [...text.matchAll(/^(?:- )?\*\*([^*\n]+)\*\*/gm)].map((m) => m[1]!.replaceAll('`', '').replace(/[.:]$/, '').trim());
  return new Set([...headings, ...labels]);
}

/**
 * The phrasings that cite a document the repository does not hold: the design and its sections,
 * the spec and its files, the style guide and its habits, the engineers' notes, the acceptance
 * ledger. Their rules are written into docs/, and a comment cites that instead. The shared corpus
 * of test documents (test/helpers/corpus.ts) is data a test reads, not a document it cites.
 */
const OUTSIDE = [
  /\b(?:DESIGN|STYLE|DEVELOPERS)\.md\b/i,
  /\bdesign(?:'s)? (?:sections?|§) ?[0-9]/i,
  /\bsections? [0-9]+(?: and [0-9]+)? of the design\b/i,
  /\bthe design\b/i,
  /\bstyle habits?\b|\bhabits? [0-9]/i,
  /\bspec\/[0-9]|\bspec "|\bthe spec\b|\bspec's\b/i,
  /\bacceptance ledger\b/i,
  /\bnotes\/(?:libraries|peers|measured)|(?<![\w.~-])\/work\/(?!shared\/corpus\b)/i,
];

/** The lines of a text that cite a document outside the repository, as `file:line`. */
function citesOutside(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (OUTSIDE.some((p) => p.test(line)) ? [`${file}:${i + 1}`] : []));
}

describe('comments point at what a reader can open (docs/architecture.md, "Citations")', () => {
  it('no file in src/ or test/ cites a document the repository does not hold, in any phrasing', () => {
    // This file holds the phrasings themselves, in the rule and in its check below.
    const files = [...allFiles(SRC), ...allFiles(TEST)].filter((f) => f !== 'test/architecture.shared.test.ts');
    expect(files.length).toBeGreaterThan(500);
    expect(files.flatMap((f) => citesOutside(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('catches each phrasing, in a comment or a test title, and passes what only looks like one', () => {
    const cited = [
      '// The one error class (STYLE habit 4).',
      "describe('idempotency keys (design section 6)', () => {",
      '// A built site in a browser (design sections 7 and 8).',
      '// As section 6 of the design says.',
      '/** Every bad reason spec/001 names. */',
      '// The spec\'s own example ("Edits").',
      '// The four claims the spec makes.',
      '// See DESIGN.md and STYLE.md.',
      "// Verify (the acceptance ledger's `verify` is the model).",
      '// Measured in notes/libraries.md.',
      '// Read /work/shared/spec/001.txt.',
      '// The minimum of the design.',
    ];
    expect(cited.filter((line) => citesOutside('x.ts', line).length === 0)).toEqual([]);
    const clean = [
      '// The one error class of the project (docs/errors.md).',
      "const spec = toSpec(input); // an edit's spec",
      '// Best effort by design: a write has already happened.',
      "const CORPUS = '/work/shared/corpus/madr';",
      "const DOC_WORKSPACE = '/srv/work/acme';",
      '// The specifier of an import.',
    ];
    expect(clean.flatMap((line) => citesOutside('x.ts', line))).toEqual([]);
  });

  it('every docs file a comment in src/, test/, scripts/ or bench/ cites exists, and so does the section it names', () => {
    const files = [...sourceFiles(SRC).map((f) => `src/${f}`), ...allFiles(TEST), ...allFiles(join(ROOT, 'scripts')), ...allFiles(join(ROOT, 'bench')), 'vitest.config.ts'].filter(
      (f) => f !== 'test/architecture.shared.test.ts' && f !== 'bench/results.json',
    );
    const cited = files.flatMap((f) => docCitations(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(cited.filter((c) => c.file.startsWith('test/')).length).toBeGreaterThan(50);
    expect(cited.filter((c) => c.file.startsWith('scripts/')).length).toBeGreaterThan(5);
    expect(cited.filter((c) => c.file.startsWith('bench/')).length).toBeGreaterThan(5);
    expect(missingCitations(cited)).toEqual([]);
  });

  it('names a missing docs file and a missing section, and passes one that exists', () => {
    const text = [
      '// The order the files start in (docs/testing.md, "Longest first").',
      '// Kept apart (docs/testing.md, "The longest files first").',
      '// Gone (docs/nowhere.md).',
      '/* A name over a line break (docs/testing.md, "Output',
      ' * schemas compiled once"). */',
      '// A file alone: docs/testing.md.',
    ].join('\n');
    expect(missingCitations(docCitations('x.ts', text))).toEqual(['x.ts: docs/testing.md "Longest first"', 'x.ts: docs/nowhere.md']);
  });
});
