import { CanvasError } from '../../model/canvas-error.js';

/**
 * The error for a fetch or push that did not reach the remote, or that the remote refused
 * (docs/errors.md, `REMOTE_UNREACHABLE`, `REMOTE_REFUSED`): git's own message, last lines first.
 *
 * @param what - `fetch` or `push`
 * @param url - the remote's URL
 * @param stderr - what git said
 * @param refused - whether the remote answered and refused (a hook, a permission), rather than not answering
 */
export function remoteFailed(what: 'fetch' | 'push', url: string, stderr: string, refused: boolean): CanvasError {
  const said = stderr.trim().split('\n').filter(Boolean).slice(-3).join('; ') || 'no message';
  return refused
    ? new CanvasError('REMOTE_REFUSED', `the remote ${url} refused the ${what}: ${said}`, 'nothing was written; see what the remote says (its hooks, your permissions), then write again', {
        url,
        stderr,
      })
    : new CanvasError('REMOTE_UNREACHABLE', `could not ${what} ${url}: ${said}`, 'nothing was written; check the network and the URL (`canvas remote show`), then write again', {
        url,
        stderr,
      });
}
