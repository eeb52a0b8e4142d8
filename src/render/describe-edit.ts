import type { SnapshotEdit } from '../model/snapshot.js';
import { formatDate } from './format-date.js';

/**
 * One edit in words, the same in every projection: `<op> <node> by <author>, <date>`.
 *
 * @param edit - a commit of the canvas
 * @returns for example `replace b7 by leo | by-hand, 2026-01-01 00:00 UTC` (the reason is shown apart)
 */
export function describeEdit(edit: SnapshotEdit): string {
  return `${edit.op}${edit.node ? ` ${edit.node}` : ''} by ${edit.author}, ${formatDate(edit.date)}`;
}
