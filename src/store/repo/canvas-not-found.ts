import { CanvasError } from '../../model/canvas-error.js';
import { isLedgerId } from '../../model/check-ledger-id.js';
import type { RepoReader } from './repo-reader.js';
import type { Workspace } from './workspace.js';

/**
 * The refusal of a write naming a canvas that does not exist (docs/errors.md, `CANVAS_NOT_FOUND`).
 * When the command's other argument (the node, or the proposal) names a canvas that does exist,
 * the arguments were most likely given the wrong way round (`canvas replace <node> <ledger>`): the
 * message says they look swapped and the hint gives the command the right way round, instead of
 * suggesting a canvas named after the node.
 *
 * @param ws - the workspace
 * @param ledger - the ledger id the command named, which has no canvas
 * @param command - the command and the other argument, for example `{ name: 'replace', other: 'b7' }`
 * @param reader - an open reader of the repository, or null when there is no repository yet
 * @returns the `CANVAS_NOT_FOUND` error to throw; `data.swapped` is true when the arguments look swapped
 */
export async function canvasNotFound(
  ws: Workspace,
  ledger: string,
  command: { name: string; other?: string | undefined },
  reader: RepoReader | null,
): Promise<CanvasError> {
  const other = command.other;
  if (reader && other !== undefined && other !== ledger && isLedgerId(other) && (await reader.revision(other))) {
    return new CanvasError(
      'CANVAS_NOT_FOUND',
      `there is no canvas ${ledger} in ${ws.root}, but ${other} is one: the arguments look swapped (the ledger comes first, then the ${command.name === 'approve' || command.name === 'reject' ? 'proposal' : 'node'})`,
      `canvas ${command.name} ${other} ${ledger} ...`,
      { ledger, swapped: true, canvas: other },
    );
  }
  return new CanvasError('CANVAS_NOT_FOUND', `there is no canvas ${ledger} in ${ws.root}`, `create it first: canvas create ${ledger} --why "..."`, { ledger });
}
