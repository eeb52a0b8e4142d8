import { readFileSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHttp } from '../../src/mcp/mcp-http.js';
import { type RunningServer, serveCanvas } from '../../src/serve/serve-canvas.js';
import { addAgentToken } from '../../src/store/index.js';
import { testClient } from '../helpers/mcp-client.js';
import { ROOT, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

// The client configurations of docs/mcp.md ("Client configuration"), read from the doc itself:
// each is parsed and the server started with exactly its command line, through initialize and
// tools/list with the SDK's client.

const DOC = readFileSync(join(ROOT, 'docs', 'mcp.md'), 'utf8');
/** The workspace the doc names; the test serves a temporary one in its place. */
const DOC_WORKSPACE = '/srv/work/acme';

/** Connect the SDK's client through `transport`: the server is canvas, and tools/list names its tools. */
async function expectCanvasTools(transport: Transport): Promise<void> {
  const sdk = testClient();
  await sdk.connect(transport);
  try {
    expect(sdk.getServerVersion()?.name).toBe('canvas');
    const { tools } = await sdk.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['canvas_read', 'canvas_list', 'canvas_insert']));
  } finally {
    await sdk.close();
  }
}

interface StdioServer {
  command: string;
  args: string[];
}

/** The server entry of a JSON block of the doc whose fence names `file`. */
function jsonBlock(file: string): unknown {
  const m = new RegExp(`\`\`\`json ${file.replaceAll('.', '\\.').replaceAll('(', '\\(').replaceAll(')', '\\)')}\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
  if (!m) throw new Error(`docs/mcp.md has no json block for ${file}`);
  return JSON.parse(m[1]!);
}

/** The command line after `--` of the doc's `claude mcp add` line. */
function claudeCode(): StdioServer {
  const m = /^claude mcp add (.*)$/m.exec(DOC);
  if (!m) throw new Error('docs/mcp.md has no claude mcp add line');
  const words = m[1]!.split(/\s+/);
  const end = words.indexOf('--');
  // The server's name is the last word before `--`; the options before it say stdio.
  expect(words.slice(0, end)).toEqual(['--transport', 'stdio', '--scope', 'user', 'canvas']);
  const [command, ...args] = words.slice(end + 1);
  return { command: command!, args };
}

const CLIENTS: Record<string, () => StdioServer> = {
  'Claude Code': claudeCode,
  'Claude Desktop': () => (jsonBlock('claude_desktop_config.json') as { mcpServers: { canvas: StdioServer } }).mcpServers.canvas,
  'VS Code': () => {
    const entry = (jsonBlock('.vscode/mcp.json') as { servers: { canvas: StdioServer & { type: string } } }).servers.canvas;
    expect(entry.type).toBe('stdio');
    return entry;
  },
  Cursor: () => (jsonBlock('.cursor/mcp.json') as { mcpServers: { canvas: StdioServer } }).mcpServers.canvas,
};

describe('the client configurations of docs/mcp.md start the server', () => {
  // `canvas` on the PATH is this checkout's bin/canvas.js, as a global install links it (made when
  // the tests start, not when they are collected: `vitest list` runs no hook that would remove it).
  let bin: string;
  beforeAll(() => {
    bin = tempDir('canvas-mcp-bin-');
    symlinkSync(join(ROOT, 'bin', 'canvas.js'), join(bin, 'canvas'));
  });

  for (const [client, entryOf] of Object.entries(CLIENTS)) {
    it(`${client}: the documented command line completes initialize and tools/list`, async () => {
      const entry = entryOf();
      expect(entry.command).toBe('canvas');
      expect(entry.args).toEqual(['mcp', '--as', 'planner', '--workspace', DOC_WORKSPACE]);
      const ws = tempWorkspace('canvas-mcp-client-');
      const transport = new StdioClientTransport({
        command: entry.command,
        args: entry.args.map((a) => (a === DOC_WORKSPACE ? ws.root : a)),
        env: { ...(process.env as Record<string, string>), PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
        stderr: 'pipe',
      });
      await expectCanvasTools(transport);
    });
  }
});

/** The address the HTTP configurations of the doc name; the test serves on a free port in its place. */
const DOC_URL = 'http://127.0.0.1:4173/mcp';

interface HttpServer {
  url: string;
  headers: Record<string, string>;
}

/** The URL and header of the doc's `claude mcp add --transport http` line, with `$CANVAS_TOKEN` as the shell expands it. */
function claudeCodeHttp(token: string): HttpServer {
  const m = /^claude mcp add --transport http --scope user canvas (\S+) --header "([^"]+)"$/m.exec(DOC);
  if (!m) throw new Error('docs/mcp.md has no claude mcp add --transport http line');
  const [name, value] = m[2]!.replace('$CANVAS_TOKEN', token).split(/:\s*/, 2) as [string, string];
  return { url: m[1]!, headers: { [name]: value } };
}

const HTTP_CLIENTS: Record<string, (token: string) => HttpServer> = {
  'Claude Code': claudeCodeHttp,
  'VS Code': (token) => {
    const config = jsonBlock('.vscode/mcp.json (http)') as { inputs: Array<{ id: string; password: boolean }>; servers: { canvas: HttpServer & { type: string } } };
    const entry = config.servers.canvas;
    expect(entry.type).toBe('http');
    // VS Code asks for each input it names and puts the answer in its place.
    expect(config.inputs).toEqual([expect.objectContaining({ type: 'promptString', id: 'canvas-token', password: true })]);
    return { url: entry.url, headers: { Authorization: entry.headers.Authorization!.replace('${input:canvas-token}', token) } };
  },
  Cursor: (token) => {
    const entry = (jsonBlock('.cursor/mcp.json (http)') as { mcpServers: { canvas: HttpServer } }).mcpServers.canvas;
    return { url: entry.url, headers: { Authorization: entry.headers.Authorization!.replace('${env:CANVAS_TOKEN}', token) } };
  },
};

describe('the HTTP configurations of docs/mcp.md reach canvas serve', () => {
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    const ws = tempWorkspace('canvas-mcp-http-client-');
    token = (await addAgentToken(ws, 'planner')).token;
    server = await serveCanvas(ws, { port: 0, rescanMs: 60_000, mcp: await createMcpHttp(ws) });
  });
  afterAll(() => server.close());

  for (const [client, entryOf] of Object.entries(HTTP_CLIENTS)) {
    it(`${client}: the documented address and header complete initialize and tools/list`, async () => {
      const entry = entryOf(token);
      expect(entry.url).toBe(DOC_URL);
      expect(entry.headers).toEqual({ Authorization: `Bearer ${token}` });
      await expectCanvasTools(new StreamableHTTPClientTransport(new URL(entry.url.replace('127.0.0.1:4173', `127.0.0.1:${server.port}`)), { requestInit: { headers: entry.headers } }));
    });
  }
});

describe('server.json describes the package for the MCP registry', () => {
  it('names the package and version of package.json, its mcpName, and the command line of canvas mcp', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; mcpName: string };
    const server = JSON.parse(readFileSync(join(ROOT, 'server.json'), 'utf8')) as {
      name: string;
      version: string;
      packages: Array<{ registryType: string; identifier: string; version: string; transport: { type: string }; packageArguments: Array<{ value?: string; name?: string }> }>;
      remotes: Array<{ type: string; url: string }>;
    };
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    expect(server.packages).toEqual([expect.objectContaining({ registryType: 'npm', identifier: pkg.name, version: pkg.version, transport: { type: 'stdio' } })]);
    expect(server.packages[0]!.packageArguments.map((a) => a.value ?? a.name)).toEqual(['mcp', '--as']);
    expect(server.remotes).toEqual([expect.objectContaining({ type: 'streamable-http', url: 'http://{host}:{port}/mcp' })]);
  });
});
