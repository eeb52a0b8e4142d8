import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import type { Element as XastElement } from 'xast';
import { fromXml } from 'xast-util-from-xml';
import { parsePayload } from '../../../src/model/parse-payload.js';
import { sanitizeSvg } from '../../../src/render/figures/sanitize-svg.js';

const NS = 'xmlns="http://www.w3.org/2000/svg"';

/** The svg of a figure payload, as the store holds it. */
function stored(inner: string, attrs = ''): XastElement {
  const p = parsePayload(`<figure kind="svg"><svg ${NS}${attrs}>${inner}</svg></figure>`);
  if (p.type !== 'figure' || !p.svg) throw new Error('not an svg figure');
  return p.svg;
}

/** An svg straight from XML, bypassing the write-time check (what a tampered repository could hold). */
function raw(xml: string): XastElement {
  return fromXml(xml).children.find((c): c is XastElement => c.type === 'element')!;
}

describe('sanitizeSvg', () => {
  it('keeps a benign SVG as it is, ids and local references prefixed', async () => {
    const svg = stored(
      '<title id="t">Sales</title><defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>' +
        '<clipPath id="c"><rect id="r" width="1" height="1"/></clipPath></defs>' +
        `<rect fill="url(#g)" clip-path="url('#c')" width="5" height="5"/><use href="#r"/><use xlink:href="#r"/>` +
        '<text x="1" y="2">a &amp; b &lt; c</text><a href="https://example.org"><circle r="2"/></a><a href="#elsewhere"><circle r="1"/></a>',
      ' xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" role="img" aria-labelledby="t"',
    );
    const html = toHtml(await sanitizeSvg(svg, { idPrefix: 'f1-' }));
    expect(html).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" role="img" aria-labelledby="f1-t">' +
        '<title id="f1-t">Sales</title><defs><linearGradient id="f1-g"><stop offset="0" stop-color="red"></stop></linearGradient>' +
        '<clipPath id="f1-c"><rect id="f1-r" width="1" height="1"></rect></clipPath></defs>' +
        '<rect fill="url(#f1-g)" clip-path="url(&#x27;#f1-c&#x27;)" width="5" height="5"></rect><use href="#f1-r"></use><use xlink:href="#f1-r"></use>' +
        '<text x="1" y="2">a &#x26; b &#x3C; c</text><a href="https://example.org"><circle r="2"></circle></a><a href="#f1-elsewhere"><circle r="1"></circle></a></svg>',
    );
  });

  it('keeps the ids of two figures with the same ids apart', async () => {
    const svg = stored('<defs><rect id="r" width="1" height="1"/></defs><use href="#r"/>');
    const a = toHtml(await sanitizeSvg(svg, { idPrefix: 'fa-' }));
    const b = toHtml(await sanitizeSvg(svg, { idPrefix: 'fb-' }));
    expect(a).toContain('id="fa-r"');
    expect(a).toContain('href="#fa-r"');
    expect(b).toContain('id="fb-r"');
    expect(b).toContain('href="#fb-r"');
  });

  it('sanitizes again: hostile content that skipped the write-time check is removed', async () => {
    const svg = raw(
      `<svg ${NS} onload="alert(1)"><script>alert(2)</script><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>` +
        '<style>@import url(https://e/x.css);</style><rect style="fill:url(https://e)" fill="url(https://e#x)" onclick="alert(3)"/>' +
        '<use href="https://evil/x.svg#a"/><image href="https://evil/x.png"/><a href="javascript:alert(4)"><text>t</text></a>' +
        '<animate attributeName="href" to="javascript:alert(5)"/></svg>',
    );
    const html = toHtml(await sanitizeSvg(svg, { idPrefix: 'f1-' }));
    expect(html).toBe('<svg xmlns="http://www.w3.org/2000/svg"><rect></rect><use></use><image></image><a><text>t</text></a></svg>');
  });

  it('escapes text that looks like markup', async () => {
    const svg = raw(`<svg ${NS}><text>&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;</text></svg>`);
    const html = toHtml(await sanitizeSvg(svg, { idPrefix: 'f1-' }));
    expect(html).not.toMatch(/<script/);
    expect(html.match(/<\/svg>/g)).toHaveLength(1);
  });

  it('refuses an id prefix that cannot be an id', async () => {
    await expect(sanitizeSvg(stored('<rect/>'), { idPrefix: 'a b' })).rejects.toMatchObject({ code: 'USAGE' });
  });
});
