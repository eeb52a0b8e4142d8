import { type CanvasError, EXIT_CODES } from '../model/canvas-error.js';
import type { DiffEntry, Outcome } from '../store/repo/outcome.js';
import type { RefRepair } from '../store/repo/rebuild-canvas-refs.js';
import { isQuiet, writeAlways } from './quiet.js';
import { mayBeTerminal, writeStdout } from './write-stdout.js';

/**
 * Whether to colour (docs/cli.md, "Output"), as Node itself decides: `FORCE_COLOR` set wins (`0`
 * or `false` turns colour off, any other value, empty included, on); else `NO_COLOR` with a value
 * turns it off (https://no-color.org: an empty one does not); else colour on a terminal whose
 * `TERM` is not `dumb`.
 */
export function useColor(stream: NodeJS.WriteStream): boolean {
  const force = process.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (process.env.NO_COLOR) return false;
  return Boolean(stream.isTTY) && process.env.TERM !== 'dumb';
}

/** Wrap text in an ANSI colour when the stream takes colour. */
function paint(stream: NodeJS.WriteStream, code: number, text: string): string {
  return useColor(stream) ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/**
 * A message or hint as the terminal should show it (docs/cli.md, "Output"): a control character
 * other than line feed and tab, a bidirectional control or a line or paragraph separator that a
 * refused argument carried is written as `\uXXXX`, so that it is seen instead of obeyed (an
 * escape sequence, text turned right to left).
 */
function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Print a value as one line of JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Print an error that is not an outcome: JSON on stdout with --json, else code, message, hint on stderr. */
export function printError(e: CanvasError, json: boolean): void {
  if (json) {
    writeAlways(`${JSON.stringify({ error: e })}\n`);
    return;
  }
  const err = process.stderr;
  err.write(`${paint(err, 31, `canvas: ${e.code}`)}: ${visible(e.message)}\n`);
  if (e.hint) err.write(`${paint(err, 2, 'hint')}: ${visible(e.hint)}\n`);
}

/**
 * The one stderr line for canvas refs a command rebuilt from main (docs/store.md, "Canvas refs"),
 * for example `canvas: rebuilt refs/canvas/* from main for 2 canvases (a, b): 2 missing`.
 */
export function refRepairLine(repairs: readonly RefRepair[]): string {
  const missing = repairs.filter((r) => r.from === null).length;
  const moved = repairs.length - missing;
  const names =
    repairs
      .slice(0, 5)
      .map((r) => r.ledger)
      .join(', ') + (repairs.length > 5 ? `, and ${repairs.length - 5} more` : '');
  const what = [missing > 0 ? `${missing} missing` : '', moved > 0 ? `${moved} not at the canvas's latest commit` : ''].filter(Boolean).join(', ');
  return `canvas: rebuilt refs/canvas/* from main for ${repairs.length} ${repairs.length === 1 ? 'canvas' : 'canvases'} (${names}): ${what}\n`;
}

function short(sha: string): string {
  return sha.slice(0, 12);
}

/** Human lines for a diff since base (docs/diff.md has the JSON). */
export function diffLines(diff: readonly DiffEntry[]): string[] {
  const out: string[] = [];
  for (const d of diff) {
    const type = d.after?.type ?? d.before?.type ?? 'node';
    const place = d.before && d.after && d.before.parent !== d.after.parent ? `, from ${d.before.parent} to ${d.after.parent}` : '';
    out.push(`  ${d.change} ${d.node} (${type}${place})`);
    if (d.before) out.push(`    - ${d.before.xml.split('\n').join('\n      ')}`);
    if (d.after) out.push(`    + ${d.after.xml.split('\n').join('\n      ')}`);
    for (const c of d.commits) out.push(`    ${short(c.commit)} ${c.op} by ${c.author}: ${c.reason}`);
  }
  return out;
}

/**
 * Print a write's outcome. Applied and proposed go to stdout; a conflict goes to stdout (it is
 * the answer: the node's diff since base) with its hint on stderr; a rejection goes to stderr
 * with its hint.
 *
 * @param ledger - the canvas written, which a conflict's hint names in the read it asks for
 * @returns the exit code ({@link EXIT_CODES}): `ok` applied or proposed, `conflict`, `rejected`
 */
export function printOutcome(o: Outcome, json: boolean, op: string, ledger?: string): number {
  if (json) {
    // A refusal is reported even by a quiet run.
    if (o.outcome === 'conflict' || o.outcome === 'rejected') writeAlways(`${JSON.stringify(o)}\n`);
    else printJson(o);
    return o.outcome === 'conflict' || o.outcome === 'rejected' ? EXIT_CODES[o.outcome] : EXIT_CODES.ok;
  }
  switch (o.outcome) {
    case 'applied': {
      const what = o.replayed ? 'already applied' : 'applied';
      // Without making process.stdout where nothing else did: a pipe or a file is no terminal,
      // so it takes no colour unless FORCE_COLOR asks (src/cli/write-stdout.ts).
      const shown = mayBeTerminal(1) || process.env.FORCE_COLOR !== undefined ? paint(process.stdout, 32, what) : what;
      const lines = [`${shown} ${op}${o.node ? ` ${o.node}` : ''}\n`, o.nodes ? `nodes: ${o.nodes.join(' ')}\n` : '', `Canvas-Base: ${o.revision}\n`];
      if (o.diff.length > 0) lines.push(`changed in this canvas since your base (you had not seen these):\n${diffLines(o.diff).join('\n')}\n`);
      writeStdout(lines.join(''));
      return EXIT_CODES.ok;
    }
    case 'proposed': {
      const out = process.stdout;
      out.write(`${paint(out, 33, o.replayed ? 'already proposed' : 'proposed')} ${o.proposalId} (an editor or owner approves it)\nCanvas-Base: ${o.revision}\n`);
      return EXIT_CODES.ok;
    }
    case 'conflict': {
      const out = process.stdout;
      const why = o.code === 'REQUIRE_CHANGED' ? `the canvas changed since --require ${short(o.expectedRevision)}` : `${o.node} changed since your base ${short(o.expectedRevision)}`;
      out.write(`${paint(out, 31, 'conflict')}: ${why}; nothing was applied\n`);
      out.write(`Canvas-Base: ${o.currentRevision}\n`);
      out.write(`${diffLines(o.diff).join('\n')}\n`);
      // The hint goes where every hint goes; a quiet run, which prints no diff, still says why.
      const err = process.stderr;
      if (isQuiet()) err.write(`${paint(err, 31, `canvas: ${o.code}`)}: ${why}; nothing was applied\n`);
      err.write(`${paint(err, 2, 'hint')}: read it again (canvas read ${ledger ?? '<ledger>'}), decide again, and write against the new Canvas-Base\n`);
      return EXIT_CODES.conflict;
    }
    case 'rejected': {
      const err = process.stderr;
      err.write(`${paint(err, 31, `canvas: ${o.code}`)}: ${visible(o.reason)}\n`);
      if (o.hint) err.write(`${paint(err, 2, 'hint')}: ${visible(o.hint)}\n`);
      return EXIT_CODES.rejected;
    }
  }
}
