import { CanvasError } from '../../model/canvas-error.js';
import { maskCredentials } from '../../model/mask-credentials.js';

/**
 * What git says when the remote wanted a credential it was not given, or refused the one it was
 * (over HTTP: 401, or no terminal to ask on; over ssh: the key refused).
 */
const AUTH =
  /Authentication failed|could not read (?:Username|Password)|terminal prompts disabled|returned error: 40[13]\b|HTTP Basic: Access denied|Permission denied \((?:publickey|password|keyboard-interactive)/i;

/**
 * The error for a fetch or push that did not reach the remote, that the remote refused, or that
 * lacked a credential the remote wanted (docs/errors.md, `REMOTE_UNREACHABLE`, `REMOTE_REFUSED`,
 * `REMOTE_AUTH`): git's own message, last lines first, with every credential in it and in the
 * URL masked (docs/remote.md, "Credentials").
 *
 * @param what - `fetch` or `push`
 * @param given - the remote's URL (its credentials masked here)
 * @param raw - what git said (its credentials masked here)
 * @param refused - whether the remote answered and refused (a hook, a permission), rather than not answering
 * @param after - what the hint says of the work and how to try again: a write's by default; a
 *   build from a remote (`canvas build --from`) and setting a remote say their own, so a hint
 *   never tells a build to "write again"
 */
export function remoteFailed(
  what: 'fetch' | 'push',
  given: string,
  raw: string,
  refused: boolean,
  after: { done: string; again: string; where?: string } = { done: 'nothing was written', again: 'write again' },
): CanvasError {
  const url = maskCredentials(given);
  const stderr = maskCredentials(raw);
  const said = stderr.trim().split('\n').filter(Boolean).slice(-3).join('; ') || 'no message';
  if (AUTH.test(stderr)) {
    return new CanvasError(
      'REMOTE_AUTH',
      `the remote ${url} wants a credential it was not given, or refused the one it was: ${said}`,
      `${after.done}; give git the credential without a prompt: a token in CANVAS_REMOTE_TOKEN (CANVAS_REMOTE_USER for the user name), a credential helper in the repository, or an ssh key (docs/remote.md, "Credentials")`,
      { url, stderr },
    );
  }
  return refused
    ? new CanvasError('REMOTE_REFUSED', `the remote ${url} refused the ${what}: ${said}`, `${after.done}; see what the remote says (its hooks, your permissions), then ${after.again}`, {
        url,
        stderr,
      })
    : new CanvasError('REMOTE_UNREACHABLE', `could not ${what} ${url}: ${said}`, `${after.done}; check ${after.where ?? 'the network and the URL (`canvas remote show`)'}, then ${after.again}`, {
        url,
        stderr,
      });
}
