// The canonical form's minimal escapes (docs/canonical.md): named references for `&`, `<` and `"`,
// `]]>` broken in character data, and tab, line feed and carriage return as character references
// in attributes, so they survive an XML parser's attribute normalisation; nothing else is touched.
import { describe, expect, it } from 'vitest';
import { escapeAttribute, escapeText } from '../../src/model/escape-xml.js';
import { parseCanvas } from '../../src/model/parse-canvas.js';

describe('escapeText and escapeAttribute', () => {
  it('escape exactly the characters the canonical form names, each occurrence', () => {
    expect(escapeText('a & b < c > d ]]> e ]]]> f "g"\t\n\r')).toBe('a &amp; b &lt; c > d ]]&gt; e ]]]&gt; f "g"\t\n\r');
    expect(escapeText('&amp;&lt;')).toBe('&amp;amp;&amp;lt;');
    expect(escapeAttribute('a & b < c > d "e" \'f\'\tg\nh\ri ]]>')).toBe("a &amp; b &lt; c > d &quot;e&quot; 'f'&#9;g&#10;h&#13;i ]]>");
    expect(escapeText('plain text, é ✓')).toBe('plain text, é ✓');
    expect(escapeAttribute('')).toBe('');
  });

  it('round-trip through the parser: what they write is read back as the value given', () => {
    // A canvas holds no carriage return, and a title is one line: the rest of what is escaped is here.
    const title = 'x & y < z "q" ]]> end';
    const text = 'x & y < z "q"\ttab\nline ]]> end';
    const canvas = parseCanvas(`<canvas ledger="t" schema="2">\n  <section id="s1" v="1" title="${escapeAttribute(title)}">\n    <text id="t1" v="1">${escapeText(text)}</text>\n  </section>\n</canvas>\n`);
    const section = canvas.children[0]!;
    expect(section.type === 'section' && section.title).toBe(title);
    const node = section.type === 'section' ? section.children[0] : undefined;
    expect(node?.type === 'text' && node.text).toBe(text);
  });
});
