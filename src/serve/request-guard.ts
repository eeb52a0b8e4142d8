import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { CanvasError } from '../model/canvas-error.js';

/** What the guard checks against: the server's own address and secret. */
export interface GuardOptions {
  /** The `Host` header a request must carry: the bound host and port, as in the printed URL. */
  host: string;
  /** The server's origin (`http://<host>`): a POST's `Origin` must be exactly this. */
  origin: string;
  /** The secret printed once in the start URL. */
  token: string;
  /** The cookie the secret is kept in (named by port: cookies are not kept apart by port). */
  cookie: string;
  /**
   * A path whose requests carry an agent's bearer token instead of the tab's secret (`/mcp`,
   * docs/mcp.md "Over HTTP"): its Host is checked, its Origin when it has one, and its token by its route.
   */
  bearerPath?: string | undefined;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A refusal of the guard as the page reads it: `{"error": {code, message, hint, data}}`.
 *
 * @param c - the request context
 * @param status - the HTTP status
 * @param e - the refusal
 */
export function refuse(c: Context, status: 400 | 403 | 404 | 405 | 409 | 413 | 415 | 500 | 503, e: CanvasError): Response {
  return c.json({ error: e.toJSON() }, status);
}

function forbidden(c: Context, rule: 'token' | 'host' | 'origin', message: string, hint: string): Response {
  return refuse(c, 403, new CanvasError('SERVE_FORBIDDEN', message, hint, { rule }));
}

/**
 * Where the token exchange sends the browser (docs/serve.md, "Security"): the request's own path,
 * as it was sent (still percent-encoded), made a path of this server whatever it holds. Leading
 * slashes and backslashes collapse to one slash, so `//evil.example/` (which a browser reads as
 * another host) becomes `/evil.example/`, a page of this server that is not there. A path holding
 * a carriage return or a line feed, raw or encoded, would split the response's headers: refused.
 *
 * @param url - the request's URL
 * @returns an absolute path of this server, beginning with one slash
 * @throws CanvasError `SERVE_BAD_REQUEST` (`data.rule` `path`)
 */
function sameOriginPath(url: string): string {
  const { pathname } = new URL(url);
  if (/[\r\n]|%0[ad]/i.test(pathname)) {
    throw new CanvasError('SERVE_BAD_REQUEST', 'the path holds a carriage return or a line feed', 'open the URL canvas serve printed', { rule: 'path' });
  }
  return `/${pathname.replace(/^[/\\]+/, '')}`;
}

/**
 * The checks every request passes before anything is read or written (docs/serve.md,
 * "Security"), in this order:
 *
 * 1. `Host` names the bound host and port exactly (a page of a rebinding DNS name is refused);
 * 2. the secret: a `?token=` equal to it is exchanged for an `HttpOnly; SameSite=Strict` cookie
 *    and the request redirected to the same path without it (so the secret leaves the address
 *    bar and the history), a path of this server only ({@link sameOriginPath}); otherwise the
 *    cookie must hold it;
 * 3. a POST carries an `Origin` equal to the server's own (no CORS: nothing answers a preflight,
 *    and no response names another origin).
 *
 * Body checks (JSON only, a size limit) belong to the write routes.
 */
export function requestGuard(options: GuardOptions): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.header('host') !== options.host) {
      return forbidden(c, 'host', `the Host header ${JSON.stringify(c.req.header('host') ?? '')} is not this server's ${options.host}`, `open the URL canvas serve printed`);
    }
    if (options.bearerPath !== undefined && c.req.path === options.bearerPath) {
      // An agent sends no Origin; a browser page does, and only this server's own may reach it.
      const origin = c.req.header('origin');
      if (origin !== undefined && origin !== options.origin) {
        return forbidden(c, 'origin', `a request from origin ${JSON.stringify(origin)} is not this server's ${options.origin}`, 'call /mcp from an agent, not from a page of another site');
      }
      return next();
    }
    const given = c.req.query('token');
    if (given !== undefined) {
      if (!same(given, options.token)) return forbidden(c, 'token', 'the token in the URL is not this server’s', 'open the URL canvas serve printed');
      const target = sameOriginPath(c.req.url);
      setCookie(c, options.cookie, options.token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      return c.redirect(target, 303);
    }
    const cookie = getCookie(c, options.cookie);
    if (cookie === undefined || !same(cookie, options.token)) {
      return forbidden(c, 'token', 'this request does not carry the server’s token', 'open the URL canvas serve printed (it holds the token once)');
    }
    if (c.req.method === 'POST' && c.req.header('origin') !== options.origin) {
      return forbidden(c, 'origin', `a write from origin ${JSON.stringify(c.req.header('origin') ?? '')} is not this server's ${options.origin}`, 'edit from a page this server served');
    }
    await next();
  };
}
