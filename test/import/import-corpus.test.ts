import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { visit } from 'unist-util-visit';
import { buildSite } from '../../src/site/build-site.js';
import { loadRenderers } from '../../src/site/load-renderers.js';
import { describe, expect, it } from 'vitest';
import { type ImportResult, importMarkdown } from '../../src/import/import-markdown.js';
import { planImport } from '../../src/import/plan-import.js';
import { LEDGER_ID } from '../../src/model/patterns.js';
import { parseCanvas } from '../../src/model/parse-canvas.js';
import { serializeCanvas } from '../../src/model/serialize-canvas.js';
import type { CanvasNode } from '../../src/model/types.js';
import { listCanvases } from '../../src/store/repo/list-canvases.js';
import { nodeHistory } from '../../src/store/read/node-history.js';
import { readCanvasText } from '../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../src/store/verify/verify-workspace.js';
import { MADR_CORPUS } from '../helpers/corpus.js';
import { AUTHOR, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The MADR decision records (read in place, never copied into the project). */
const CORPUS = MADR_CORPUS ?? '';
const WHY = 'seed the canvas from the MADR decision record';

/** A ledger id from a file name: lower case, the extension dropped, anything else made a dash. */
function ledgerOf(file: string): string {
  const id = file
    .replace(/\.md$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64)
    .replace(/\.xml$/, '-xml');
  if (!LEDGER_ID.test(id)) throw new Error(`no ledger id for ${file}`);
  return id;
}

function count(nodes: readonly CanvasNode[]): CanvasNode[] {
  return nodes.flatMap((n) => (n.type === 'section' ? [n, ...count(n.children)] : [n]));
}

describe.skipIf(MADR_CORPUS === null)('canvas import and build on the MADR corpus', () => {
  it('imports every decision record into one workspace; each canvas is canonical, counts match, each node has its one insert', async () => {
    expect(existsSync(CORPUS), `the corpus ${CORPUS} is missing (set CANVAS_MADR_CORPUS)`).toBe(true);
    const files = readdirSync(CORPUS)
      .filter((f) => f.endsWith('.md'))
      .sort();
    // 0000-0018, the template and the index (the LICENSE files are not Markdown).
    expect(files).toHaveLength(21);
    expect(files).toEqual(expect.arrayContaining(['adr-template.md', 'index.md', '0000-use-markdown-architectural-decision-records.md']));
    const ws = tempWorkspace();
    const results = new Map<string, { result: ImportResult; markdown: string }>();
    for (const file of files) {
      const markdown = readFileSync(`${CORPUS}/${file}`, 'utf8');
      const result = await importMarkdown(ws, { ledger: ledgerOf(file), markdown, why: WHY, author: AUTHOR, source: file });
      expect(result.ledger).toBe(ledgerOf(file));
      results.set(file, { result, markdown });
    }
    expect((await listCanvases(ws)).map((c) => c.ledger).sort()).toEqual(files.map(ledgerOf).sort());

    for (const [file, { result, markdown }] of results) {
      const ledger = ledgerOf(file);
      // (a) The stored bytes parse and are canonical (verify, below, replays every commit).
      const { xml, revision } = await readCanvasText(ws, { ledger });
      expect(revision).toBe(result.revision);
      const canvas = parseCanvas(xml, ledger);
      expect(serializeCanvas(canvas)).toBe(xml);
      // (b) The node count equals the block count the import reported, and the ids match.
      const stored = count(canvas.children);
      expect(stored.length, file).toBe(result.blocks);
      expect(
        stored.map((n) => n.id),
        file,
      ).toEqual(result.nodes.map((n) => n.id));
      expect(stored.every((n) => n.v === 1)).toBe(true);
      // Every record has its H1 and at least one section; nothing was left blank.
      expect(result.nodes.some((n) => n.type === 'section') || file === 'index.md', file).toBe(true);
      // (c) Each node's history is exactly one commit: its insert, with the reason written.
      const kinds = planImport(markdown).nodes.map((n) => n.kind);
      expect(kinds).toHaveLength(result.nodes.length);
      for (const [i, n] of result.nodes.entries()) {
        const history = await nodeHistory(ws, { ledger, node: n.id });
        expect(history, `${file} ${n.id}`).toHaveLength(1);
        expect(history[0]).toMatchObject({ op: 'insert', node: n.id, author: AUTHOR, reason: `${WHY} (import: ${file} line ${n.line}: ${kinds[i]})` });
      }
    }
    // `canvas verify` replays every commit of the workspace against the rules.
    const report = await verifyWorkspace(ws);
    expect(report.violations).toEqual([]);
    expect(report.canvases).toBe(files.length);

    // The whole corpus built into one site: every page validates, every comment is Markdown
    // without raw HTML, and the index lists every canvas.
    const out = join(tempDir('canvas-corpus-site-'), 'site');
    const built = await buildSite(ws, { out }, await loadRenderers());
    expect(built.failed).toEqual([]);
    expect(built.built.sort()).toEqual(files.map(ledgerOf).sort());
    const validator = new HtmlValidate(new FileSystemConfigLoader());
    for (const file of files) {
      const ledger = ledgerOf(file);
      const page = await validator.validateFile(join(out, ledger, 'index.html'));
      expect(page.results.flatMap((r) => r.messages.map((m) => `${ledger} ${m.line}:${m.column} ${m.ruleId} ${m.message}`))).toEqual([]);
      const comment = fromMarkdown(readFileSync(join(out, ledger, 'comment.md'), 'utf8'));
      const html: string[] = [];
      visit(comment, 'html', (n) => void html.push(String((n as { value: string }).value)));
      expect(html, ledger).toEqual([]);
    }
    const index = readFileSync(join(out, 'index.html'), 'utf8');
    for (const file of files) expect(index).toContain(`href="${ledgerOf(file)}/index.html"`);
    expect((await validator.validateFile(join(out, 'index.html'))).valid).toBe(true);
  });
});
