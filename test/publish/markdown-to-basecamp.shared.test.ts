import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { describe, expect, it } from 'vitest';
import { BASECAMP_TAGS } from '../../src/publish/basecamp-schema.js';
import { composeCommentHtml } from '../../src/publish/compose-comment-html.js';
import { markdownToBasecampHtml } from '../../src/publish/markdown-to-basecamp.js';
import { ROOT } from '../helpers/workspace.js';
import { basecampSanitize } from './helpers/basecamp-sanitizer.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');

/** Every comment Markdown the tests know: the fixtures, and each golden canvas's comment.md. */
function commentInputs(): Array<[string, string]> {
  const out: Array<[string, string]> = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.md'))
    .map((f) => [`fixtures/${f}`, readFileSync(join(FIXTURES, f), 'utf8')]);
  let cases: string[] = [];
  try {
    cases = readdirSync(join(ROOT, 'snapshots'));
  } catch {
    // no goldens on this branch yet
  }
  for (const c of cases) {
    try {
      out.push([`snapshots/${c}/comment.md`, readFileSync(join(ROOT, 'snapshots', c, 'comment.md'), 'utf8')]);
    } catch {
      // a case without a comment golden
    }
  }
  return out;
}

/** Every element name and attribute in HTML as a browser parses it. */
function elementsOf(html: string): Array<{ tag: string; props: string[] }> {
  const out: Array<{ tag: string; props: string[] }> = [];
  const walk = (n: Nodes): void => {
    if (n.type === 'element') out.push({ tag: n.tagName, props: Object.keys(n.properties) });
    if ('children' in n) for (const c of n.children) walk(c as Nodes);
  };
  walk(fromHtml(html, { fragment: true }));
  return out;
}

function textOf(html: string): string {
  let s = '';
  const walk = (n: Nodes): void => {
    if (n.type === 'text') s += n.value;
    if ('children' in n) for (const c of n.children) walk(c as Nodes);
  };
  walk(fromHtml(html, { fragment: true }));
  return s;
}

const ROW = `**Status:** executing · step 3 of 5
Run: run-8842 (started 10:02)

* blocked on: nothing
* next: verify the fix on staging
`;

describe('markdownToBasecampHtml: the mapping (docs/basecamp.md)', () => {
  const cases: Array<[string, string, string]> = [
    ['paragraph to div', 'Hello *there* **you**.', '<div>Hello <em>there</em> <strong>you</strong>.</div>'],
    ['soft line break to br', 'one\ntwo', '<div>one<br>two</div>'],
    ['hard line break to br', 'one  \ntwo', '<div>one<br>\ntwo</div>'],
    ['h1 stays h1', '# Top', '<h1>Top</h1>'],
    ['deeper headings are bold lines', '## Sub\n\n###### Deep', '<div><strong>Sub</strong></div>\n<div><br></div>\n<div><strong>Deep</strong></div>'],
    ['blocks are separated by an empty line', 'a\n\nb', '<div>a</div>\n<div><br></div>\n<div>b</div>'],
    ['inline code is plain text', 'run `canvas read` now', '<div>run canvas read now</div>'],
    ['fenced code is pre without language', '```js\nlet a = 1 < 2;\n```', '<pre>let a = 1 &#x3C; 2;</pre>'],
    ['strikethrough to strike', '~~old~~', '<div><strike>old</strike></div>'],
    ['bullet list, tight', '* a\n* b', '<ul>\n<li>a</li>\n<li>b</li>\n</ul>'],
    ['loose list forced tight', '* a\n\n  more\n* b', '<ul>\n<li>a<br>more</li>\n<li>b</li>\n</ul>'],
    ['ordered list without start', '3. c\n4. d', '<ol>\n<li>c</li>\n<li>d</li>\n</ol>'],
    ['task items as ballot boxes', '* [x] done\n* [ ] todo', '<ul>\n<li>\u2611 done</li>\n<li>\u2610 todo</li>\n</ul>'],
    ['blockquote', '> said\n>\n> twice', '<blockquote><div>said</div>\n<div><br></div>\n<div>twice</div></blockquote>'],
    ['link keeps only href', '[site](https://example.com/a "title")', '<div><a href="https://example.com/a">site</a></div>'],
    ['autolink literal', 'see https://example.com/x.', '<div>see <a href="https://example.com/x">https://example.com/x</a>.</div>'],
    ['image becomes a link', '![chart](https://example.com/c.png)', '<div><a href="https://example.com/c.png">chart</a></div>'],
    ['reference link', '[ref][r]\n\n[r]: https://example.com/r', '<div><a href="https://example.com/r">ref</a></div>'],
    ['undefined reference stays text', '[ref][nope]', '<div>[ref][nope]</div>'],
    ['thematic break to a dash line', 'a\n\n---\n\nb', '<div>a</div>\n<div><br></div>\n<div>\u2014\u2014\u2014</div>\n<div><br></div>\n<div>b</div>'],
    ['table unfolded: header line and one bullet per row', '| A | B |\n|---|---|\n| 1 | *2* |\n| 3 | 4 |', '<div><strong>A | B</strong></div>\n<ul>\n<li>1 | <em>2</em></li>\n<li>3 | 4</li>\n</ul>'],
    ['footnotes stay where written', 'x[^1]\n\n[^1]: note', '<div>x[^1]</div>\n<div><br></div>\n<div>[^1]: note</div>'],
  ];
  for (const [name, md, html] of cases) {
    it(name, () => {
      expect(markdownToBasecampHtml(md)).toBe(html);
    });
  }

  it('gives nothing for empty Markdown', () => {
    expect(markdownToBasecampHtml('')).toBe('');
  });
});

describe('what is sent survives Basecamp unchanged', () => {
  for (const [name, md] of commentInputs()) {
    it(`${name}: only allowed tags, and the server's cleaning changes nothing`, () => {
      const html = composeCommentHtml(ROW, md);
      for (const e of elementsOf(html)) {
        expect(BASECAMP_TAGS).toContain(e.tag);
        expect(e.props).toEqual(e.tag === 'a' ? ['href'] : []);
      }
      expect(basecampSanitize(html)).toBe(html);
    });
  }

  it('holds for any Markdown built from hostile and ordinary pieces (property)', () => {
    const piece = fc.constantFrom(
      '# h',
      '## h2',
      '* item',
      '1. one',
      '- [ ] task',
      '> quote',
      '```\ncode <b>\n```',
      '    indented',
      '| a | b |\n|---|---|\n| 1 | 2 |',
      '---',
      '<script>alert(1)</script>',
      '<div onclick="x">d</div>',
      '<!-- c -->',
      '<img src=x onerror=y>',
      '[l](javascript:alert(1))',
      '[l](https://e.x/?a=1&b=2)',
      '![i](data:image/png;base64,AAAA)',
      '<javascript:x>',
      '<https://e.x>',
      'www.example.com',
      'a@b.co',
      '**b** *i* ~~s~~ `c`',
      'text & <angle> "q"',
      '[^1]\n\n[^1]: n',
      '[r]\n\n[r]: javascript:y',
      '\\<b>',
      '&lt;b&gt; &#x3C;',
      '\u0000\u0007',
      '',
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, fc.constantFrom('\n', '\n\n', ' ', '\n  ', '\n> ')), { maxLength: 8 }), (parts) => {
        const md = parts.map(([p, sep]) => p + sep).join('');
        const html = markdownToBasecampHtml(md);
        for (const e of elementsOf(html)) {
          if (!(BASECAMP_TAGS as readonly string[]).includes(e.tag)) return false;
        }
        return basecampSanitize(html) === html;
      }),
      { numRuns: 400 },
    );
  });
});

describe('the row body comes first', () => {
  it('is byte for byte what the row alone converts to, followed by the canvas', () => {
    const [, md] = commentInputs()[0]!;
    const rowAlone = markdownToBasecampHtml(ROW);
    const both = composeCommentHtml(ROW, md);
    expect(both.startsWith(rowAlone)).toBe(true);
    expect(both.slice(rowAlone.length)).toBe(`\n<div><br></div>\n${markdownToBasecampHtml(md, { gfm: false })}`);
  });

  it('reads the row as GFM and the canvas render as the plain CommonMark it is written in', () => {
    const md = '~~x~~ www.example.com\n\na | b\n--|--\n\n* [ ] c';
    expect(composeCommentHtml(md, md)).toBe(
      [
        '<div><strike>x</strike> <a href="http://www.example.com/">www.example.com</a></div>',
        '<div><br></div>',
        '<div><strong>a | b</strong></div>',
        '<div><br></div>',
        '<ul>\n<li>\u2610 c</li>\n</ul>',
        '<div><br></div>',
        '<div>~~x~~ www.example.com</div>',
        '<div><br></div>',
        '<div>a | b<br>--|--</div>',
        '<div><br></div>',
        '<ul>\n<li>[ ] c</li>\n</ul>',
      ].join('\n'),
    );
  });

  it('cannot be changed by the canvas, nor change it (an unclosed fence stays in its part)', () => {
    const row = 'status\n\n```\nunclosed';
    const both = composeCommentHtml(row, '**Canvas**');
    expect(both).toBe(`${markdownToBasecampHtml(row)}\n<div><br></div>\n<div><strong>Canvas</strong></div>`);
  });

  it('is all there is when the task has no canvas', () => {
    expect(composeCommentHtml(ROW, null)).toBe(markdownToBasecampHtml(ROW));
  });
});

describe('hostile canvas text arrives escaped', () => {
  const html = composeCommentHtml(ROW, readFileSync(join(FIXTURES, 'hostile-canvas.md'), 'utf8'));

  it('has no script, style, image, comment or event handler, and no javascript: or data: link', () => {
    expect(html).not.toMatch(/<(script|style|img|!--)/i);
    expect(elementsOf(html).filter((e) => e.tag === 'a' || e.props.length > 0)).toEqual([]);
  });

  it('shows the hostile source as text a reader can see', () => {
    const text = textOf(html);
    expect(text).toContain('<script>alert("text")</script> should read as text.');
    expect(text).toContain('<script>alert("raw block")</script>');
    expect(text).toContain('<img src=x onerror=alert(1)>');
    expect(text).toContain('<a href="javascript:alert(2)">an anchor</a>');
    expect(text).toContain('click me (javascript:alert(3))');
    expect(text).toContain('upper (JAVASCRIPT:alert(4))');
    expect(text).toContain('entity (javascript:alert(6))');
    expect(text).toContain('<!-- a comment that must not vanish silently -->');
    expect(text).toContain('"quotes" & \'apostrophes\' & <angle> brackets & & entities.');
  });
});
