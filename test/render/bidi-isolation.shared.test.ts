import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/render/comment/render-comment.js';
import { preparePage } from '../../src/render/html/prepare-page.js';
import { renderPage } from '../../src/render/html/render-page.js';
import { pageOf } from './page-of.js';
import { isolateBidi } from '../../src/render/isolate-bidi.js';
import { renderPrompt } from '../../src/render/text/render-prompt.js';
import { snapshotOf } from './snapshot-of.js';

/**
 * Unicode's explicit bidi levels, reduced to what matters here: how many embeddings, overrides
 * and isolates are open at each position of one line (a line feed ends them all). PDI closes the
 * innermost open isolate and everything opened inside it, or is ignored; PDF closes an embedding
 * opened inside the current isolate, or is ignored.
 */
function depths(line: string): number[] {
  const stack: ('e' | 'i')[] = [];
  const out: number[] = [];
  for (const ch of line) {
    out.push(stack.length);
    if ('\u202A\u202B\u202D\u202E'.includes(ch)) stack.push('e');
    else if ('\u2066\u2067\u2068'.includes(ch)) stack.push('i');
    else if (ch === '\u2069') {
      const at = stack.lastIndexOf('i');
      if (at >= 0) stack.length = at;
    } else if (ch === '\u202C' && stack.at(-1) === 'e') stack.pop();
  }
  out.push(stack.length);
  return out;
}

/** Every place in the output where a word that is not the hostile text's own sits inside its controls. */
function leaks(output: string, words: readonly string[]): string[] {
  const found: string[] = [];
  output.split('\n').forEach((line, n) => {
    const d = depths(line);
    const chars = [...line];
    if (d.at(-1) !== 0) found.push(`line ${n + 1} ends ${d.at(-1)} deep: ${JSON.stringify(line)}`);
    for (const w of words) {
      for (let i = line.indexOf(w); i >= 0; i = line.indexOf(w, i + 1)) {
        const at = [...line.slice(0, i)].length;
        if (d[at] !== 0 || chars.length < at) found.push(`${w} on line ${n + 1} is ${d[at]} deep: ${JSON.stringify(line)}`);
      }
    }
  });
  return found;
}

/** A hostile text: an override, a stray PDI (which would close an isolate around it), an open isolate. */
const HOSTILE = 'evil\u202E txet \u2069 more \u2067 open \u202D end';
const NODES =
  `<section id="s1" v="1" title="T ${HOSTILE}">` +
  `<text id="t1" v="1">${HOSTILE}\nsecond line \u202B too</text>` +
  `<question id="q1" v="1">${HOSTILE}?</question>` +
  `<list id="l1" v="1"><item>${HOSTILE}</item><item>AFTER</item></list>` +
  `<table id="tb" v="1"><row><cell>${HOSTILE}</cell><cell>AFTER</cell></row><row><cell>x</cell><cell>y</cell></row></table>` +
  `<link id="k1" v="1" href="https://example.com/">${HOSTILE}</link>` +
  `<figure id="f1" v="1" kind="mermaid" caption="${HOSTILE}">graph TD\n  A["${HOSTILE}"] --&gt; B</figure>` +
  '<text id="t2" v="1">AFTER</text>' +
  '</section>';
/** The words around the hostile text that must stay where they are. */
const WORDS = ['AFTER', 't1', 'q1', 'l1', 'tb', 'k1', 'f1', 't2', 'Open question', 'OPEN QUESTION'];

describe('bidirectional controls in node text stay inside the node in every projection', () => {
  const snapshot = snapshotOf(NODES);

  it('the prompt', () => {
    expect(leaks(renderPrompt(snapshot), WORDS)).toEqual([]);
  });

  it('the comment', () => {
    expect(leaks(renderComment(snapshot), WORDS)).toEqual([]);
  });

  it('the page: each such text is a <bdi>, isolated character by character too', async () => {
    const page = await pageOf(snapshot);
    expect(leaks(page, WORDS)).toEqual([]);
    const outside = page.replace(/<bdi>[^<]*<\/bdi>/g, '');
    expect(outside).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });

  it('the page leaves the drawings it is given as they are: the same options render the same bytes again', async () => {
    // A drawing is the caller's (renderPage's `figures`): isolating its label in place would
    // isolate it once more at every later render with the same drawings.
    const s = snapshotOf(`<figure id="f1" v="1" kind="diagram">diagram 1\nnode a "${HOSTILE}"</figure><text id="t1" v="1">${HOSTILE}</text>`);
    const prepared = await preparePage(s);
    const drawing = JSON.stringify(prepared.figures.get('f1'));
    const first = renderPage(s, prepared);
    expect(JSON.stringify(prepared.figures.get('f1'))).toBe(drawing);
    expect(renderPage(s, prepared)).toBe(first);
    expect(first).toContain(`>${isolateBidi(HOSTILE)}</text>`);
    expect(leaks(first, WORDS)).toEqual([]);
  });

  it('text without a bidirectional control is left as it is, right-to-left letters included', () => {
    expect(isolateBidi('שלום, world\nline two')).toBe('שלום, world\nline two');
    expect(isolateBidi('a\u202Eb')).toBe('\u2068a\u202Eb\u2069');
    expect(isolateBidi('\u2069x\u2066')).toBe('\u2068\u2068\u2069x\u2066\u2069\u2069');
  });
});
