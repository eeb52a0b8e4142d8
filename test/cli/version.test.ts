// The package's version is written once, in package.json: the CLI's bundle gets it at build time,
// the library and the MCP server read it from there (src/store/files/read-package-version.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPackageVersion } from '../../src/store/files/read-package-version.js';
import { connectAs } from '../helpers/mcp-client.js';
import { ROOT, runCli, tempWorkspace } from '../helpers/workspace.js';

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

describe("the package's version", () => {
  it('is what canvas --version prints, what the library reads and what the MCP server reports', async () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await runCli(null, ['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(readPackageVersion()).toBe(version);
    const eve = await connectAs(tempWorkspace(), 'eve');
    try {
      expect(eve.client.getServerVersion()).toMatchObject({ name: 'canvas', version });
    } finally {
      await eve.close();
    }
  });
});
