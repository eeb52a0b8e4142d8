/** A URL's scheme and userinfo: `scheme://userinfo@`. */
const USERINFO = /\b([A-Za-z][A-Za-z0-9+.-]*):\/\/([^\s/@'"]+)@/g;

/**
 * Mask the credentials of every URL in a text (docs/remote.md, "Credentials"): a password after
 * `user:` becomes `***`, and so does the whole userinfo of an `http` or `https` URL that has no
 * password, which is where a token given as the user name goes (`https://<token>@host/...`). The
 * user of an `ssh://git@host` URL is no secret and stays. Everything else is left as it is, so a
 * message, a report or git's own words can be shown, logged and printed as JSON.
 *
 * @param text - a URL, or any text that may hold some (git's stderr, an error message)
 * @returns the text with each such credential replaced by `***`
 */
export function maskCredentials(text: string): string {
  return text.replace(USERINFO, (whole, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    if (colon >= 0) return `${scheme}://${userinfo.slice(0, colon)}:***@`;
    return /^https?$/i.test(scheme) ? `${scheme}://***@` : whole;
  });
}
