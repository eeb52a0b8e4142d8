// MCP over Streamable HTTP (docs/mcp.md, "Over HTTP") against the same over stdio: one write's
// round trip, from the client's call to its outcome, through the official v1 client (2025-11-25,
// what most hosts speak). Both servers are processes of the built CLI on one workspace: `canvas
// mcp --as bench` over stdio, and `canvas serve` with an agent token for `bench`, at /mcp. Each
// pair is one `canvas_replace` of the same node through each, in alternating order, each written
// against the revision the other's outcome gave. CPU: the two server processes' user + sys (with
// their git children, from /proc, 10 ms ticks) plus this client's, summed over the measured writes.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { addAgentToken, grantRole, insertNode, openCanvas, resolveWorkspace } from '../../src/store/index.js';
import { type BenchContext, type BenchResult, cliCommand, cliEnv, pairs } from '../lib/context.js';
import { interleave } from '../lib/measure.js';

const WHO = 'bench';
const AUTHOR = `${WHO} | by-hand`;
const LEDGER = 'roundtrip';
/** The target: an HTTP write round trip at most 1.5 times the stdio one (median of the pairs). */
const TARGET = 1.5;

/** User + sys CPU milliseconds of a live process and the children it waited for (/proc, 10 ms ticks). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return fields.slice(11, 15).reduce((t, x) => t + Number(x), 0) * 10;
}

const clientCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The benchmark `mcp-http`. */
export async function mcpHttpBench(ctx: BenchContext): Promise<BenchResult> {
  const dir = join(ctx.scratch, 'mcp-http-ws');
  mkdirSync(dir, { recursive: true });
  const ws = resolveWorkspace({ workspace: dir });
  const o = await openCanvas(ws, { ledger: LEDGER, problem: 'Agents elsewhere.', expectedValue: 'Writes as fast as at home.', why: 'bench', author: AUTHOR });
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  const t = await insertNode(ws, { ledger: LEDGER, into: 'root', payload: { text: 'edit 0' }, base: o.revision, why: 'bench', author: AUTHOR });
  if (t.outcome !== 'applied') throw new Error(JSON.stringify(t));
  await grantRole(ws, { ledger: LEDGER, who: '*', role: 'editor', why: 'bench', author: AUTHOR });
  const { token } = await addAgentToken(ws, WHO);
  const [node, args] = cliCommand(ctx);
  const env = cliEnv(ws, AUTHOR) as Record<string, string>;

  const serve = spawn(node, [...args, 'serve', '--port', '0', '--json', '--sync-every', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const started = await new Promise<string>((resolve, reject) => {
    serve.once('error', reject);
    createInterface({ input: serve.stdout! }).once('line', resolve);
  });
  const { origin } = JSON.parse(started) as { origin: string };
  const http = new Client({ name: 'bench-http', version: '0' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const stdioTransport = new StdioClientTransport({ command: node, args: [...args, 'mcp', '--as', WHO, '--workspace', ws.root], env, stderr: 'inherit' });
  const stdio = new Client({ name: 'bench-stdio', version: '0' });
  await stdio.connect(stdioTransport);
  const stdioPid = stdioTransport.pid!;

  let base = t.revision;
  let n = 0;
  const cpu = { http: 0, stdio: 0 };
  const write = (client: Client, pid: number, side: 'http' | 'stdio', measured: () => boolean) => async () => {
    n += 1;
    const cpu0 = cpuOf(pid) + clientCpu();
    const t0 = performance.now();
    const r = await client.callTool({
      name: 'canvas_replace',
      arguments: { workspace: ws.root, ledger: LEDGER, node: t.node!, text: `edit ${n}`, base, why: `bench ${n}` },
    });
    const ms = performance.now() - t0;
    const out = r.structuredContent as { outcome?: string; revision?: string };
    if (out?.outcome !== 'applied') throw new Error(`${side}: ${JSON.stringify(r)}`);
    base = out.revision!;
    if (measured()) cpu[side] += cpuOf(pid) + clientCpu() - cpu0;
    return ms;
  };
  // The per-pair ratio spreads widely on a shared machine (p25-p75 about 0.85-1.5 at a load of 9
  // for a median of 1.15): resampled, a median of 5 pairs lands above 1.5 one time in ten, of 15
  // one in forty to a hundred. And the first twenty or so calls run code not yet optimized, more
  // of it on the HTTP side (a server instance and the HTTP stack per request): their ratio is
  // about 1.3-1.5. So a quick run warms up with 10 pairs and measures 15 (docs/mcp.md, "Over HTTP").
  const [runs, warmup] = pairs(ctx, 60, 10, { runs: 15, warmup: 10 });
  let pair = 0;
  const counted = () => pair >= warmup;
  try {
    const c = await interleave(runs, warmup, write(http, serve.pid!, 'http', counted), async () => {
      const ms = await write(stdio, stdioPid, 'stdio', counted)();
      pair += 1;
      return ms;
    });
    const cpuRatio = cpu.http / cpu.stdio;
    ctx.log(`mcp-http: ${runs} pairs, median ${c.a.median.toFixed(1)} ms (HTTP) vs ${c.b.median.toFixed(1)} ms (stdio), CPU ${cpu.http.toFixed(1)} vs ${cpu.stdio.toFixed(1)} ms`);
    return {
      name: 'MCP write round trip, Streamable HTTP vs stdio',
      measured: 'canvas_replace over HTTP (canvas serve /mcp, bearer token), v1 client',
      baseline: 'canvas_replace over stdio (canvas mcp), v1 client, same workspace',
      target: `<= ${TARGET}x`,
      a: c.a,
      b: c.b,
      ratio: c.ratio,
      pass: c.ratio.median <= TARGET,
      figure: `median ratio ${c.ratio.median.toFixed(2)}x (CPU of servers and client, summed: ${cpuRatio.toFixed(2)}x)`,
      detail: { runs, cpuMs: cpu, cpuRatio },
    };
  } finally {
    await http.close();
    await stdio.close();
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve.once('exit', resolve));
  }
}
