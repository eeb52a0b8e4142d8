/**
 * Every environment variable the tool reads, in one place: what `canvas help environment` prints
 * (docs/cli.md, "Environment"). A test scans `src/` for every variable read and checks it against
 * this list, both ways.
 */
export const ENVIRONMENT: ReadonlyArray<readonly [name: string, what: string]> = [
  ['CANVAS_WORKSPACE', 'the workspace when --workspace is not given'],
  ['OPENCLAW_WORKSPACE', 'the workspace when neither --workspace nor CANVAS_WORKSPACE is given'],
  ['CANVAS_LEDGER', 'canvas hook: the canvas when --ledger is not given (else the file .canvas-ledger in the working directory)'],
  ['CANVAS_AUTHOR', 'the author of writes when --author is not given: "<who>[ | step:<step>][ | run:<run>]" or "<who> | by-hand"'],
  ['CANVAS_CHECK_AUTHOR', 'canvas check: the author of the questions it asks (default "coherence | step:check")'],
  ['CANVAS_MODEL_URL', 'canvas check: the OpenAI-compatible API to ask (docs/coherence.md)'],
  ['CANVAS_MODEL', 'canvas check: the model to ask'],
  ['CANVAS_MODEL_API_KEY', 'canvas check: the API key, if the API needs one (never printed)'],
  ['BASECAMP_ACCESS_TOKEN', 'canvas publish: the OAuth token, required to send (docs/basecamp.md)'],
  ['BASECAMP_API_URL', 'canvas publish: the API (default https://3.basecampapi.com)'],
  ['BASECAMP_USER_AGENT', 'canvas publish: the User-Agent Basecamp requires, "name (contact)"'],
  ['BASECAMP_CONTACT', 'canvas publish: the contact for the default User-Agent "canvas (<contact>)"'],
  ['CANVAS_LOCK_TIMEOUT_MS', 'how long a write waits for the repository lock, in ms (default 60000), before LOCK_TIMEOUT'],
  ['CANVAS_GIT_IDLE_MS', 'how long a long-lived process keeps its git helpers after their last use, in ms (default 2000)'],
  ['CANVAS_REMOTE_TOKEN', "the shared remote's token, given to git by a credential helper when it asks (never in a URL or an argument)"],
  ['CANVAS_REMOTE_USER', 'the user name given with CANVAS_REMOTE_TOKEN (default x-access-token)'],
  ['CANVAS_PUSH_ROUNDS', 'with a shared remote: how many pushes a write tries when others push first, 1 to 100 (default 8), before REMOTE_BUSY'],
  ['CANVAS_DEBUG', '1: an internal error prints its stack trace'],
  ['CANVAS_COMPILE_CACHE', "the compile cache's directory, an absolute path (default <tmpdir>/canvas-compile-cache-<uid>)"],
  ['CANVAS_DISABLE_COMPILE_CACHE', 'set (to anything but 0 or empty): no compile cache'],
  ['NODE_OPTIONS', "Node's own; part of the compile cache's key (code compiled under other flags is not reused)"],
  ['GIT_AUTHOR_DATE', 'the date of the commits a write makes (every other GIT_* variable is cleared before git runs)'],
  ['GIT_COMMITTER_DATE', 'the committer date of those commits'],
  ['FORCE_COLOR', 'colour even when not on a terminal; 0 or false: never (it wins over NO_COLOR)'],
  ['NO_COLOR', 'set and not empty: no colour (https://no-color.org)'],
  ['TERM', 'dumb: no colour'],
];

/** The text of `canvas help environment`: one variable a line, name and what it does. */
export function environmentHelp(): string {
  const width = Math.max(...ENVIRONMENT.map(([name]) => name.length));
  return ['Environment variables canvas reads (docs/cli.md, "Environment"):', '', ...ENVIRONMENT.map(([name, what]) => `  ${name.padEnd(width)}  ${what}`), ''].join('\n');
}
