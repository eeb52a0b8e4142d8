// Compile the texts a page and the index inline into src/render/html/templates.ts, so a renderer
// reads no file at run time (docs/projections.md, "The page"): the same module serves the tests
// (src/ under vite), the library (dist/lib, emitted by tsc unbundled) and the CLI's bundles, which
// an `import css from './page.css'` could not (only esbuild knows a text loader). `npm run build`
// runs it first; run it alone with `node scripts/templates.js` after editing templates/.
// test/render/templates.shared.test.ts checks that the module says what templates/ says.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The module's keys, each a file of templates/ and what it is. */
export const COMPILED = [
  { key: 'pageCss', file: 'page.css', what: "every page's stylesheet, and the first part of the index's" },
  { key: 'indexCss', file: 'index.css', what: "the index's own stylesheet, after the page's" },
  { key: 'indexScript', file: 'index.js', what: "the index's script: search and sorting of its rows" },
];

/** The module's path under the root. */
export const MODULE = 'src/render/html/templates.ts';

/** The text as a template literal: backslashes, backquotes and `${` escaped, nothing else changed. */
const literal = (text) => `\`${text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;

/**
 * The module's source for the templates under `root`.
 *
 * @param {string} root - the package root
 * @returns {string} the TypeScript source
 */
export function templatesModule(root) {
  const fields = COMPILED.map(({ key, file, what }) => `  /** \`templates/${file}\`: ${what}. */\n  ${key}: ${literal(readFileSync(join(root, 'templates', file), 'utf8'))},\n`);
  return [
    '// Written by scripts/templates.js from templates/ (npm run build runs it): edit the file in',
    '// templates/, never this one. One piece: the texts of templates/, whole, as the renderers inline them.',
    '',
    '/** The texts a page and the index inline, compiled in so a renderer reads no file (docs/projections.md, "The page"). */',
    `export const TEMPLATES: { ${COMPILED.map(({ key }) => `readonly ${key}: string`).join('; ')} } = {`,
    ...fields.map((f) => f.trimEnd()),
    '};',
    '',
  ].join('\n');
}

/**
 * Write the module when its source changed (an unchanged file keeps its time, so nothing that
 * watches src/ sees a change).
 *
 * @param {string} root - the package root
 * @returns {boolean} whether the file was written
 */
export function writeTemplatesModule(root) {
  const path = join(root, MODULE);
  const source = templatesModule(root);
  let old = null;
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    // not written yet
  }
  if (old === source) return false;
  writeFileSync(path, source);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const written = writeTemplatesModule(process.cwd());
  console.log(written ? `wrote ${MODULE}` : `${MODULE} is up to date`);
}
