import { CanvasError } from '../../model/canvas-error.js';
import { isLedgerId } from '../../model/check-ledger-id.js';
import type { RepoReader } from './repo-reader.js';

/**
 * The refusal of a command naming a canvas that does not exist (docs/errors.md, `CANVAS_NOT_FOUND`):
 * the one message and hint every read and write gives, with the ledger id in `data.ledger`.
 *
 * @param root - the workspace's root, named in the message
 * @param ledger - the ledger id the command named, which has no canvas
 * @param at - the commit of `--at`, when the canvas was asked for as of one (it did not exist then)
 * @returns the `CANVAS_NOT_FOUND` error to throw
 */
export function canvasNotFound(root: string, ledger: string, at?: string): CanvasError {
  if (at !== undefined) {
    return new CanvasError('CANVAS_NOT_FOUND', `canvas ${ledger} did not exist at ${at}`, `run \`canvas log ${ledger}\` for its revisions`, { ledger });
  }
  return new CanvasError('CANVAS_NOT_FOUND', `there is no canvas ${ledger} in ${root}`, `see the canvases there: canvas list; or create it: canvas create ${ledger} --why "..."`, {
    ledger,
  });
}

/**
 * {@link canvasNotFound} for a command with a second argument (the node, or the proposal): when
 * that argument names a canvas that does exist, the arguments were most likely given the wrong way
 * round (`canvas replace <node> <ledger>`), so the message says they look swapped and the hint
 * gives the command the right way round, instead of suggesting a canvas named after the node.
 *
 * @param root - the workspace's root, named in the message
 * @param ledger - the ledger id the command named, which has no canvas
 * @param command - the command and the other argument, for example `{ name: 'replace', other: 'b7' }`
 * @param reader - an open reader of the repository, or null when there is no repository yet
 * @returns the `CANVAS_NOT_FOUND` error to throw; `data.swapped` is true when the arguments look swapped
 */
export async function canvasNotFoundFor(root: string, ledger: string, command: { name: string; other?: string | undefined }, reader: RepoReader | null): Promise<CanvasError> {
  const other = command.other;
  if (reader && other !== undefined && other !== ledger && isLedgerId(other) && (await reader.revision(other))) {
    return new CanvasError(
      'CANVAS_NOT_FOUND',
      `there is no canvas ${ledger} in ${root}, but ${other} is one: the arguments look swapped (the ledger comes first, then the ${command.name === 'approve' || command.name === 'reject' ? 'proposal' : 'node'})`,
      `canvas ${command.name} ${other} ${ledger} ...`,
      { ledger, swapped: true, canvas: other },
    );
  }
  return canvasNotFound(root, ledger);
}
