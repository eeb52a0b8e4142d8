import { readFileSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { testClient } from '../helpers/mcp-client.js';
import { ROOT, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

// The client configurations of docs/mcp.md ("Client configuration"), read from the doc itself:
// each is parsed and the server started with exactly its command line, through initialize and
// tools/list with the SDK's client.

const DOC = readFileSync(join(ROOT, 'docs', 'mcp.md'), 'utf8');
/** The workspace the doc names; the test serves a temporary one in its place. */
const DOC_WORKSPACE = '/srv/work/acme';

interface StdioServer {
  command: string;
  args: string[];
}

/** The server entry of a JSON block of the doc whose fence names `file`. */
function jsonBlock(file: string): unknown {
  const m = new RegExp(`\`\`\`json ${file.replaceAll('.', '\\.')}\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
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
  // `canvas` on the PATH is this checkout's bin/canvas.js, as a global install links it.
  const bin = tempDir('canvas-mcp-bin-');
  symlinkSync(join(ROOT, 'bin', 'canvas.js'), join(bin, 'canvas'));

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
      const sdk = testClient();
      await sdk.connect(transport);
      try {
        expect(sdk.getServerVersion()?.name).toBe('canvas');
        const { tools } = await sdk.listTools();
        expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['canvas_read', 'canvas_list', 'canvas_insert']));
      } finally {
        await sdk.close();
      }
    });
  }
});
