import { CanvasError } from '../model/canvas-error.js';
import type { PayloadInput } from '../model/payload-from-input.js';
import { resolveWorkspace, type Workspace } from '../store/repo/workspace.js';
import { readInputFile } from './read-input-file.js';

/** The options every command takes (docs/cli.md). */
export interface GlobalOptions {
  workspace?: string;
  author?: string;
  json?: boolean;
}

/** The payload flags of insert and replace. */
export interface PayloadOptions {
  xml?: string;
  xmlFile?: string;
  text?: string;
  question?: string;
  answered?: boolean;
  section?: string;
  excalidrawFile?: string;
  caption?: string;
}

/** Resolve the workspace from `--workspace`, `CANVAS_WORKSPACE`, `OPENCLAW_WORKSPACE`. */
export function workspaceOf(o: GlobalOptions): Workspace {
  return resolveWorkspace({ workspace: o.workspace });
}

/**
 * The author from `--author`, else `CANVAS_AUTHOR` (its form checked by the store).
 *
 * @throws CanvasError `TOO_LONG` for an author of more than 256 characters
 */
export function authorOf(o: GlobalOptions): string {
  const author = o.author ?? process.env.CANVAS_AUTHOR ?? '';
  // Its limit, before any work (docs/cli.md, "Limits").
  if (author.length > MAX_AUTHOR) {
    throw new CanvasError('TOO_LONG', `the author is ${author.length.toLocaleString('en-US')} characters; an author holds at most ${MAX_AUTHOR}`, 'pass a short --author, such as "leo | step:review"', {
      argument: 'author',
      limit: MAX_AUTHOR,
      unit: 'characters',
      size: author.length,
    });
  }
  return author;
}

/** The longest author (`--author`, `CANVAS_AUTHOR`), in characters (docs/cli.md, "Limits"). */
const MAX_AUTHOR = 256;

/**
 * Exactly one payload flag: `--xml`, `--xml-file`, `--text`, `--question` (open unless
 * `--answered`), `--section` or `--excalidraw-file` (with an optional `--caption`).
 *
 * @throws CanvasError `USAGE` when none or several are given, or the file cannot be read or is not
 *   a regular file (`-` is standard input); `TOO_LARGE`, `BAD_ENCODING` (docs/cli.md "Payload files")
 */
export function payloadOf(o: PayloadOptions): PayloadInput {
  const given = (['xml', 'xmlFile', 'text', 'question', 'section', 'excalidrawFile'] as const).filter((k) => o[k] !== undefined);
  const flags = '--xml, --xml-file, --text, --question, --section or --excalidraw-file';
  if (given.length !== 1) {
    throw new CanvasError(
      'USAGE',
      given.length === 0 ? `a payload is required: one of ${flags}` : `give one payload, not ${given.length}: one of ${flags}`,
      'for example --text "We ship on Friday." or --xml "<question>Who owns it?</question>"',
    );
  }
  if (o.answered && o.question === undefined) {
    throw new CanvasError('USAGE', '--answered marks a --question payload', 'for example --question "Who owns it?" --answered');
  }
  if (o.caption !== undefined && o.excalidrawFile === undefined) {
    throw new CanvasError('USAGE', '--caption goes with --excalidraw-file', 'for example --excalidraw-file sketch.excalidraw --caption "The services"; other figures carry caption="..." in --xml');
  }
  if (o.excalidrawFile !== undefined) {
    const excalidraw = readInputFile(o.excalidrawFile, '--excalidraw-file');
    return o.caption === undefined ? { excalidraw } : { excalidraw, caption: o.caption };
  }
  if (o.xml !== undefined) return { xml: o.xml };
  if (o.xmlFile !== undefined) return { xml: readInputFile(o.xmlFile, '--xml-file') };
  if (o.text !== undefined) return { text: o.text };
  if (o.question !== undefined) return o.answered ? { question: o.question, answered: true } : { question: o.question };
  return { section: o.section! };
}
