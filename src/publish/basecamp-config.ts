import { CanvasError } from '../model/canvas-error.js';

/** Basecamp's own API root. */
const DEFAULT_API_URL = 'https://3.basecampapi.com';

/** How to reach Basecamp: the API root, the bearer token and the User-Agent. */
export interface BasecampConfig {
  apiUrl: string;
  token: string;
  userAgent: string;
}

const CONTACT = /[^\s@()<>]+@[^\s@()<>]+\.[^\s@()<>]+|https?:\/\/[^\s()<>]+/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function refuse(message: string, hint: string): CanvasError {
  return new CanvasError('PUBLISH_CONFIG', message, hint);
}

/**
 * Read the Basecamp settings from the environment: `BASECAMP_ACCESS_TOKEN` (the OAuth bearer token),
 * `BASECAMP_API_URL` (default {@link DEFAULT_API_URL}), and the User-Agent Basecamp requires:
 * `userAgent`, else `BASECAMP_USER_AGENT`, else `canvas (<BASECAMP_CONTACT>)`.
 *
 * @param env - the environment (token, API root, User-Agent, contact)
 * @param userAgent - a User-Agent from the command line, if given
 * @returns the settings; the token is never printed by the publisher
 * @throws CanvasError `PUBLISH_CONFIG` when the token is unset, the User-Agent has no contact
 *   (an e-mail address or a URL), or the API root is not `https://` (loopback `http://` excepted)
 */
export function basecampConfig(env: NodeJS.ProcessEnv, userAgent?: string): BasecampConfig {
  const token = env.BASECAMP_ACCESS_TOKEN?.trim();
  if (!token) {
    throw refuse('BASECAMP_ACCESS_TOKEN is not set', 'export BASECAMP_ACCESS_TOKEN with an OAuth access token of the person who owns the comment');
  }
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw refuse('BASECAMP_ACCESS_TOKEN holds a character a token cannot have (a space, a line break, a control or non-ASCII character)', 'export the token alone, exactly as issued');
  }
  const contact = env.BASECAMP_CONTACT?.trim();
  const ua = userAgent ?? env.BASECAMP_USER_AGENT ?? (contact ? `canvas (${contact})` : undefined);
  if (!ua || /[\r\n]/.test(ua) || !CONTACT.test(ua)) {
    throw refuse(
      ua ? `the User-Agent ${JSON.stringify(ua)} names no contact` : 'no User-Agent is configured',
      'Basecamp requires the application name and an e-mail address or URL: export BASECAMP_CONTACT=you@example.com, or BASECAMP_USER_AGENT="canvas (you@example.com)", or pass --user-agent',
    );
  }
  const raw = (env.BASECAMP_API_URL?.trim() || DEFAULT_API_URL).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(`BASECAMP_API_URL ${JSON.stringify(raw)} is not a URL`, `unset it to use ${DEFAULT_API_URL}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw refuse(`BASECAMP_API_URL ${raw} is not https: the token would travel in clear`, `use an https:// root (default ${DEFAULT_API_URL}); plain http is allowed only on a loopback address`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw refuse(`BASECAMP_API_URL ${raw} must be a bare root, without query, fragment or credentials`, `for example ${DEFAULT_API_URL}`);
  }
  return { apiUrl: raw, token, userAgent: ua };
}
