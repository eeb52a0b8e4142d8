import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { ERROR_CODES } from '../src/model/canvas-error.js';
import { ROOT } from './helpers/workspace.js';

describe('the declared surface', () => {
  it('src/index.ts names every public value export (growing the API is a visible decision)', () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "CHECK_AUTHOR",
        "CanvasError",
        "ERROR_CODES",
        "approveProposal",
        "canvasLog",
        "checkCoherence",
        "createCanvas",
        "createMcpServer",
        "diffCanvases",
        "drawDiagram",
        "drawFigures",
        "exitCodeFor",
        "freezeCanvas",
        "grantRole",
        "importMarkdown",
        "insertNode",
        "listCanvases",
        "listProposals",
        "markdownToBasecampHtml",
        "moveNode",
        "nodeHistory",
        "openCanvas",
        "parseCanvas",
        "parseDiagram",
        "parsePayload",
        "preparePage",
        "publishComment",
        "readAccess",
        "readCanvas",
        "readCanvasText",
        "readSnapshot",
        "rejectProposal",
        "removeNode",
        "renderComment",
        "renderPage",
        "renderPrompt",
        "replaceNode",
        "resolveWorkspace",
        "revokeRole",
        "sanitizeSvg",
        "serializeCanvas",
        "serializeNode",
        "startMcpServer",
        "verifyWorkspace",
      ]
    `);
    expect(readFileSync(join(ROOT, 'src/index.ts'), 'utf8')).not.toMatch(/^export \* from/m);
  });

  it('docs/errors.md documents every error code', () => {
    const doc = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
    const documented = [...doc.matchAll(/^## ([A-Z_]+)$/gm)].map((m) => m[1]);
    for (const code of ERROR_CODES) expect(documented, code).toContain(code);
    expect(documented.filter((c) => !ERROR_CODES.includes(c as never))).toEqual([]);
  });
});
