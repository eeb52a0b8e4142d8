/**
 * git's own smart HTTP, as a hosted git server serves it (docs/remote.md, "Credentials"): `git
 * http-backend` run as a CGI program behind a loopback HTTP server with basic authentication.
 * Every request without the right `Authorization` gets 401 with a `WWW-Authenticate` challenge,
 * as GitHub, GitLab and Gitea answer; an authenticated one is handed to http-backend with
 * `REMOTE_USER` set, which lets it receive pushes. Repositories live under a root of their own:
 * `<url>/<name>.git` is `<root>/<name>.git`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './temp-dir.js';

/** A running server. */
export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`: a repository's URL is this and `/<name>.git`. */
  origin: string;
  /** The folder holding the bare repositories. */
  root: string;
  /** Make a bare repository `<name>.git` that takes pushes; returns its URL without credentials. */
  bare(name: string): string;
  /** How many requests came without the right credential (each answered 401). */
  refused(): number;
  close(): Promise<void>;
}

/** Run one request through `git http-backend` (CGI) and write its answer. */
function backend(root: string, req: IncomingMessage, res: ServerResponse, user: string): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH ?? '',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GATEWAY_INTERFACE: 'CGI/1.1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: user,
      REMOTE_ADDR: '127.0.0.1',
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  req.pipe(child.stdin);
  child.stdin.on('error', () => {});
  let head = Buffer.alloc(0);
  let headed = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headed) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    headed = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end + 4));
  });
  child.on('close', () => res.end());
}

/**
 * Start the server on 127.0.0.1, port 0.
 *
 * @param credential - the one user and password it takes
 */
export async function startGitHttpServer(credential: { user: string; password: string }): Promise<GitHttpServer> {
  const root = tempDir('canvas-git-http-');
  const expected = `Basic ${Buffer.from(`${credential.user}:${credential.password}`).toString('base64')}`;
  let refused = 0;
  const server: Server = createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      refused += 1;
      req.resume();
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="canvas"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    backend(root, req, res, credential.user);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    root,
    bare(name) {
      const dir = join(root, `${name}.git`);
      execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', dir]);
      execFileSync('git', ['-C', dir, 'config', 'http.receivepack', 'true']);
      return `${origin}/${name}.git`;
    },
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
