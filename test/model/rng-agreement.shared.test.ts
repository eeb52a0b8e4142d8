import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { RelaxNGValidator, XmlDocument } from 'libxml2-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCanvas } from '../../src/model/parse-canvas.js';
import { serializeCanvas } from '../../src/model/serialize-canvas.js';
import { ROOT } from '../helpers/workspace.js';

// schema/canvas.rng is the written reference; the write path checks with TypeScript. This test
// proves both agree on a corpus of valid and invalid documents. The rules RELAX NG cannot express
// are listed: there the TypeScript checker refuses and the grammar accepts.
const TS_ONLY = new Set(['rows of unequal width', 'ledger ending in .xml', 'ledger with two dots', 'ledger ending in .lock']);

const rng = RelaxNGValidator.fromDoc(XmlDocument.fromString(readFileSync(join(ROOT, 'schema/canvas.rng'), 'utf8')));
afterAll(() => rng.dispose());

function byRng(xml: string): boolean {
  const doc = XmlDocument.fromString(xml);
  try {
    rng.validate(doc);
    return true;
  } catch {
    return false;
  } finally {
    doc.dispose();
  }
}

function byTs(xml: string): boolean {
  try {
    parseCanvas(xml);
    return true;
  } catch {
    return false;
  }
}

const c = (body: string, ledger = 't') => `<canvas ledger="${ledger}" schema="2">${body}</canvas>`;
const SVG = 'xmlns="http://www.w3.org/2000/svg"';

const valid: Record<string, string> = {
  'empty canvas': c(''),
  text: c('<text id="ab" v="1">Ship it.</text>'),
  'text with tab and line feed': c('<text id="ab" v="3">a\tb\nc</text>'),
  'text with escapes': c('<text id="ab" v="1">a &lt; b &amp; c ]]&gt;</text>'),
  'text with cdata': c('<text id="ab" v="1"><![CDATA[<b>x</b>]]></text>'),
  'text with unicode': c('<text id="ab" v="1">字 😀 \u2028 é</text>'),
  'text with no-break space': c('<text id="ab" v="1">\u00a0</text>'),
  question: c('<question id="q1" v="1">Who owns it?</question>'),
  'answered question': c('<question id="q1" v="2" answered="true">Who?</question>'),
  list: c('<list id="l1" v="1"><item>a</item><item>b</item></list>'),
  'ordered list': c('<list id="l1" v="1" ordered="true"><item>a</item></list>'),
  table: c('<table id="t1" v="1"><row><cell>h</cell><cell>i</cell></row><row><cell></cell><cell>x</cell></row></table>'),
  'wide table': c('<table id="t1" v="1"><row><cell>a</cell><cell>b</cell><cell>c</cell></row></table>'),
  link: c('<link id="k1" v="1" href="https://example.org/?a=1&amp;b=2">site</link>'),
  'link with odd scheme': c('<link id="k1" v="1" href="javascript:alert(1)">x</link>'),
  'diagram figure': c('<figure id="f1" v="1" kind="diagram">diagram 1\nnode a "A"</figure>'),
  'excalidraw figure with caption': c('<figure id="f1" v="1" kind="excalidraw" caption="sketch">{\n  "type": "excalidraw",\n  "elements": []\n}</figure>'),
  'mermaid figure with caption': c('<figure id="f1" v="1" kind="mermaid" caption="flow">graph TD\n A--&gt;B</figure>'),
  'svg figure': c(`<figure id="f1" v="1" kind="svg"><svg ${SVG} viewBox="0 0 1 1"><rect x="0" y="0" width="1" height="1"/></svg></figure>`),
  'svg with text and xlink': c(`<figure id="f1" v="1" kind="svg"><svg ${SVG} xmlns:xlink="http://www.w3.org/1999/xlink"><text x="1">Hi <tspan>there</tspan></text><use xlink:href="#a"/></svg></figure>`),
  'empty section': c('<section id="s1" v="1" title="Goal"></section>'),
  'section with blocks': c('<section id="s1" v="2" title="Goal"><text id="ab" v="1">x</text><list id="l1" v="1"><item>a</item></list></section>'),
  'nested section': c('<section id="s1" v="1" title="A"><section id="s2" v="1" title="B"><text id="ab" v="1">x</text></section></section>'),
  'title with tab and quote': c('<section id="s1" v="1" title="a&#9;b &quot;c&quot;"></section>'),
  'twelve-character id': c('<text id="abcdefghijkl" v="1">x</text>'),
  'large v': c('<text id="ab" v="999999999">x</text>'),
  'ledger with dots': c('<text id="ab" v="1">x</text>', 'a.b-c_d'),
  'pretty printed': '<canvas ledger="t" schema="2">\n  <text id="ab" v="1">x</text>\n  <list id="cd" v="1">\n    <item>y</item>\n  </list>\n</canvas>\n',
  'every node type': c('<section id="s1" v="1" title="S"><text id="a1" v="1">t</text><question id="a2" v="1">q</question></section><link id="a3" v="1" href="mailto:x@y">m</link>'),
};

const invalid: Record<string, string> = {
  'unknown element': c('<decision id="ab" v="1">A</decision>'),
  'unknown attribute': c('<text id="ab" v="1" open="true">x</text>'),
  'style attribute': c('<text id="ab" v="1" style="color:red">x</text>'),
  'attribute on canvas': c('').replace('schema="2"', 'schema="2" lang="en"'),
  'missing id': c('<text v="1">x</text>'),
  'missing v': c('<text id="ab">x</text>'),
  'upper-case id': c('<text id="AB" v="1">x</text>'),
  'one-character id': c('<text id="a" v="1">x</text>'),
  'thirteen-character id': c('<text id="abcdefghijklm" v="1">x</text>'),
  'id starting with a digit': c('<text id="1a" v="1">x</text>'),
  'duplicate id': c('<text id="ab" v="1">x</text><text id="ab" v="1">y</text>'),
  'v zero': c('<text id="ab" v="0">x</text>'),
  'v with leading zero': c('<text id="ab" v="01">x</text>'),
  'v not a number': c('<text id="ab" v="x">x</text>'),
  'blank text': c('<text id="ab" v="1"> \n\t</text>'),
  'empty text': c('<text id="ab" v="1"></text>'),
  'element inside text': c('<text id="ab" v="1">a <b>b</b></text>'),
  'carriage return by reference': c('<text id="ab" v="1">a&#13;b</text>'),
  'C1 control character': c('<text id="ab" v="1">a\u0085b</text>'),
  'DEL character': c('<text id="ab" v="1">a\u007fb</text>'),
  'section nested two deep': c('<section id="s1" v="1" title="a"><section id="s2" v="1" title="b"><section id="s3" v="1" title="c"></section></section></section>'),
  'section without title': c('<section id="s1" v="1"></section>'),
  'blank title': c('<section id="s1" v="1" title="  "></section>'),
  'title with line feed': c('<section id="s1" v="1" title="a&#10;b"></section>'),
  'text directly in canvas': c('stray words'),
  'text directly in section': c('<section id="s1" v="1" title="a">words</section>'),
  'empty list': c('<list id="l1" v="1"></list>'),
  'list with text child': c('<list id="l1" v="1"><text id="ab" v="1">x</text></list>'),
  'blank item': c('<list id="l1" v="1"><item> </item></list>'),
  'item with an id': c('<list id="l1" v="1"><item id="zz">a</item></list>'),
  'ordered false': c('<list id="l1" v="1" ordered="false"><item>a</item></list>'),
  'empty table': c('<table id="t1" v="1"></table>'),
  'one-cell row': c('<table id="t1" v="1"><row><cell>a</cell></row></table>'),
  'cell outside row': c('<table id="t1" v="1"><cell>a</cell></table>'),
  'text inside cell': c('<table id="t1" v="1"><row><cell><text id="ab" v="1">x</text></cell><cell>b</cell></row></table>'),
  'item at the root': c('<item>a</item>'),
  'unknown figure kind': c('<figure id="f1" v="1" kind="png">x</figure>'),
  'figure without kind': c('<figure id="f1" v="1">x</figure>'),
  'blank excalidraw scene': c('<figure id="f1" v="1" kind="excalidraw">  </figure>'),
  'blank diagram source': c('<figure id="f1" v="1" kind="diagram"> </figure>'),
  'svg figure without svg': c('<figure id="f1" v="1" kind="svg">text</figure>'),
  'svg in the wrong namespace': c('<figure id="f1" v="1" kind="svg"><svg><rect/></svg></figure>'),
  'two svg elements': c(`<figure id="f1" v="1" kind="svg"><svg ${SVG}/><svg ${SVG}/></figure>`),
  'svg inside a diagram figure': c(`<figure id="f1" v="1" kind="diagram"><svg ${SVG}/></figure>`),
  'link without href': c('<link id="k1" v="1">x</link>'),
  'blank link label': c('<link id="k1" v="1" href="https://x"> </link>'),
  'href with line feed': c('<link id="k1" v="1" href="https://x&#10;y">x</link>'),
  'answered false': c('<question id="q1" v="1" answered="false">q</question>'),
  'blank caption': c('<figure id="f1" v="1" kind="mermaid" caption=" ">graph</figure>'),
  'schema 1': c('').replace('schema="2"', 'schema="1"'),
  'bad ledger': c('', 'A'),
  'wrong root': '<doc ledger="t" schema="2"></doc>',
  // Checked by the TypeScript checker alone (see TS_ONLY).
  'rows of unequal width': c('<table id="t1" v="1"><row><cell>a</cell><cell>b</cell></row><row><cell>a</cell><cell>b</cell><cell>c</cell></row></table>'),
  'ledger ending in .xml': c('', 'x.xml'),
  'ledger with two dots': c('', 'a..b'),
  'ledger ending in .lock': c('', 'a.lock'),
};

describe('schema/canvas.rng and the TypeScript checker agree', () => {
  it('has a corpus of at least 60 documents', () => {
    expect(Object.keys(valid).length + Object.keys(invalid).length).toBeGreaterThanOrEqual(60);
  });

  it.each(Object.entries(valid))('both accept: %s', (_name, xml) => {
    expect(byRng(xml)).toBe(true);
    expect(byTs(xml)).toBe(true);
  });

  it.each(Object.entries(invalid))('both refuse: %s', (name, xml) => {
    expect(byTs(xml)).toBe(false);
    expect(byRng(xml)).toBe(TS_ONLY.has(name));
  });

  it('agree on generated canvases too (their canonical bytes)', () => {
    const chars = fc.constantFrom('a', ' ', '<', '&', '"', '\t', '\n', 'é', '\u00a0', 'z');
    const words = fc.array(chars, { minLength: 1, maxLength: 6 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(fc.record({ kind: fc.constantFrom('text', 'question', 'list'), w: words }), { maxLength: 5 }), (items) => {
        const body = items
          .map((it, i) => {
            const inner = it.w.replace(/&/g, '&amp;').replace(/</g, '&lt;');
            return it.kind === 'list' ? `<list id="n${i}" v="1"><item>${inner}</item></list>` : `<${it.kind} id="n${i}" v="1">${inner}</${it.kind}>`;
          })
          .join('');
        const xml = c(body);
        const ts = byTs(xml);
        expect(byRng(xml)).toBe(ts);
        if (ts) expect(byRng(serializeCanvas(parseCanvas(xml)))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
