#!/usr/bin/env node
// The MCP conformance suite (@modelcontextprotocol/conformance, from the npm registry at a pinned
// version, run by Node 22 through npx) against `canvas serve`'s /mcp (docs/mcp.md, "Conformance").
// A workspace is made with one canvas and an agent token; the built CLI serves it on a free
// loopback port. The suite's client sends no Authorization header, so it talks to a loopback
// relay that adds the agent's bearer token, as a configured host does, and passes everything
// else through (a Host or Origin naming the relay is said as the server's, any other, such as the
// rebinding scenario's evil.example.com, goes through unchanged for the server to judge). Each
// scenario that applies runs alone, all in one npx; the script fails on any failed check.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NODE = 'node@22.23.3';
/** The scenarios that apply to any server (docs/mcp.md, "Conformance" says why the others do not). */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

const root = join(import.meta.dirname, '..');
const cli = join(root, 'bin', 'canvas.js');
const dir = mkdtempSync(join(tmpdir(), 'canvas-conformance-'));
const env = { ...process.env, CANVAS_WORKSPACE: dir, CANVAS_AUTHOR: 'conformance', NO_COLOR: '1' };
delete env.NODE_OPTIONS;
const canvas = (...args) => execFileSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });

canvas('open', 'conformance', '--problem', 'The suite reads a canvas.', '--expected-value', 'Every check passes.', '--why', 'the conformance suite lists it');
const { token } = JSON.parse(canvas('token', 'add', 'conformance', '--json'));
const serve = spawn(process.execPath, [cli, 'serve', '--port', '0', '--json', '--sync-every', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const { port } = JSON.parse(await new Promise((resolve) => createInterface({ input: serve.stdout }).once('line', resolve)));
const server = `127.0.0.1:${port}`;

const relay = createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  if (headers.host === relayHost) headers.host = server;
  if (headers.origin === `http://${relayHost}`) headers.origin = `http://${server}`;
  const out = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers, setHost: false }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => res.destroy());
  req.pipe(out);
});
await new Promise((resolve) => relay.listen(0, '127.0.0.1', resolve));
const relayHost = `127.0.0.1:${relay.address().port}`;

const started = Date.now();
let code;
try {
  // One npx for every scenario: npx's own start (resolving Node 22 and the suite) costs seconds.
  const loop = `f=0; for s in ${SCENARIOS.join(' ')}; do conformance server --url http://${relayHost}/mcp --scenario $s || { f=1; echo "conformance: failed: $s" >&2; }; done; exit $f`;
  const args = ['-y', '-p', NODE, '-p', SUITE, '-c', loop];
  code = await new Promise((resolve) => spawn('npx', args, { stdio: 'inherit', env: { ...process.env, npm_config_loglevel: 'error' } }).on('close', resolve));
} finally {
  relay.close();
  serve.kill('SIGTERM');
  await new Promise((resolve) => serve.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (code !== 0) {
  process.stderr.write(`conformance: a scenario failed (above), or the suite could not run (exit ${code}); ${seconds} s\n`);
  process.exit(1);
}
process.stdout.write(`conformance: ${SCENARIOS.length} scenarios passed (${SCENARIOS.join(', ')}) in ${seconds} s\n`);
