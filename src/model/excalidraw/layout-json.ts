import type { JsonToken } from './scan-json.js';

function lay(t: JsonToken, indent: string, out: string[]): void {
  if (t.kind === 'object') {
    if (t.entries.length === 0) {
      out.push('{}');
      return;
    }
    const inner = `${indent}  `;
    out.push('{');
    t.entries.forEach((e, i) => {
      out.push(i === 0 ? `\n${inner}${e.rawKey}: ` : `,\n${inner}${e.rawKey}: `);
      lay(e.value, inner, out);
    });
    out.push(`\n${indent}}`);
  } else if (t.kind === 'array') {
    if (t.items.length === 0) {
      out.push('[]');
      return;
    }
    const inner = `${indent}  `;
    out.push('[');
    t.items.forEach((item, i) => {
      out.push(i === 0 ? `\n${inner}` : `,\n${inner}`);
      lay(item, inner, out);
    });
    out.push(`\n${indent}]`);
  } else {
    out.push(t.raw);
  }
}

/**
 * Lay a scene's tokens out in the canonical whitespace of docs/excalidraw.md, "The stored form":
 * the layout of `JSON.stringify(scene, null, 2)`, which is how Excalidraw itself saves a file,
 * with every key, string and number written exactly as it was read.
 *
 * @param top - the scene as {@link scanJson} read it
 * @returns the text, without a final line feed
 */
export function layoutJson(top: JsonToken): string {
  const out: string[] = [];
  lay(top, '', out);
  return out.join('');
}
