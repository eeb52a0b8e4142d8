import { CanvasError } from '../model/canvas-error.js';
import { checkLedgerId } from '../model/check-ledger-id.js';
import { parseCanvas } from '../model/parse-canvas.js';
import type { Canvas } from '../model/types.js';
import { resolveBase } from './commits-since.js';
import { RepoReader } from './repo-reader.js';
import { revisionAt } from './revision-at.js';
import type { Workspace } from './workspace.js';

/** A canvas as read at one revision. */
export interface CanvasText {
  ledger: string;
  /**
   * The revision to write against (`Canvas-Base:`): the canvas's latest commit, or with `at` its
   * latest commit at or before `at` (never `at` itself when that is another canvas's commit).
   */
  revision: string;
  /** The canonical XML. */
  xml: string;
}

/** Options of {@link readCanvasText}. */
export interface ReadOptions {
  ledger: string;
  /** A commit on main (7+ hex): the canvas as it stood there, at its own revision as of that commit. */
  at?: string | undefined;
}

/**
 * Read a canvas's XML and revision, and its tree: the bytes are parsed and checked before anyone
 * prints them, so committed bytes the write path would refuse (a DOCTYPE committed by hand, say)
 * are refused on every read path the same way (docs/store.md, "Reads").
 *
 * @returns ledger, revision (full sha), XML and the parsed tree
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, `UNKNOWN_BASE` (a bad `at`), and what
 *   the stored bytes break: `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING`
 */
export async function readCheckedCanvas(ws: Workspace, options: ReadOptions, reader?: RepoReader): Promise<CanvasText & { canvas: Canvas }> {
  const ledger = checkLedgerId(options.ledger);
  const r = reader ?? new RepoReader(ws);
  try {
    const revision = options.at !== undefined ? await revisionAt(r, ledger, await resolveBase(r, options.at, '--at')) : await r.revision(ledger);
    const bytes = revision ? await r.file(revision, `${ledger}.xml`) : null;
    if (!revision || !bytes) {
      throw new CanvasError(
        'CANVAS_NOT_FOUND',
        options.at !== undefined ? `canvas ${ledger} did not exist at ${options.at}` : `there is no canvas ${ledger} in ${ws.root}`,
        options.at !== undefined ? `run \`canvas log ${ledger}\` for its revisions` : `create it: canvas create ${ledger} --why "..."`,
        { ledger },
      );
    }
    const xml = bytes.toString('utf8');
    return { ledger, revision, xml, canvas: parseCanvas(xml, ledger) };
  } finally {
    if (!reader) r.close();
  }
}

/**
 * Read a canvas's canonical XML and revision (what `canvas read` prints): one
 * `git cat-file --batch` process and the XML parser, nothing heavier. The bytes are parsed and
 * checked first, so what is printed is what a write would accept (docs/store.md, "Reads").
 *
 * @returns ledger, revision (full sha) and XML
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, `UNKNOWN_BASE` (a bad `at`),
 *   `XML_PARSE`, `UNSAFE_XML`, `SCHEMA`, `NESTING` (the stored bytes)
 */
export async function readCanvasText(ws: Workspace, options: ReadOptions, reader?: RepoReader): Promise<CanvasText> {
  const { canvas: _canvas, ...text } = await readCheckedCanvas(ws, options, reader);
  return text;
}
