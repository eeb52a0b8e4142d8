import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import { parseDiagram } from '../../../src/model/diagram/parse-diagram.js';

function syntaxError(source: string): CanvasError {
  try {
    parseDiagram(source);
  } catch (e) {
    if (e instanceof CanvasError) return e;
    throw e;
  }
  throw new Error(`parsed without error:\n${source}`);
}

describe('parseDiagram: accepted sources', () => {
  it('parses the minimum of docs/diagram.md into a typed tree', () => {
    const d = parseDiagram(
      ['diagram 1', 'direction right', '# a comment line', '', 'node web "Web app"   # trailing comment', 'web -> api "HTTPS" -> db "SQL"', 'api -- cache', 'group "Backend" { api db cache }', ''].join('\n'),
    );
    expect(d).toEqual({
      version: 1,
      direction: 'right',
      nodes: [
        { id: 'web', label: 'Web app', declared: true, position: { line: 5, column: 6 } },
        { id: 'api', label: 'api', declared: false, position: { line: 6, column: 8 } },
        { id: 'db', label: 'db', declared: false, position: { line: 6, column: 23 } },
        { id: 'cache', label: 'cache', declared: false, position: { line: 7, column: 8 } },
      ],
      edges: [
        { from: 'web', to: 'api', directed: true, label: 'HTTPS', position: { line: 6, column: 5 } },
        { from: 'api', to: 'db', directed: true, label: 'SQL', position: { line: 6, column: 20 } },
        { from: 'api', to: 'cache', directed: false, label: null, position: { line: 7, column: 5 } },
      ],
      groups: [{ label: 'Backend', members: ['api', 'db', 'cache'], position: { line: 8, column: 1 } }],
    });
  });

  it('defaults the direction to down and a node label to its id', () => {
    const d = parseDiagram('diagram 1\nnode A\n');
    expect(d.direction).toBe('down');
    expect(d.nodes).toEqual([{ id: 'A', label: 'A', declared: true, position: { line: 2, column: 6 } }]);
  });

  it('labels only the hop a label follows in a chain', () => {
    const d = parseDiagram('diagram 1\nA -> B -> C "y"\nC -- D "z" -> E');
    expect(d.edges.map((e) => [e.from, e.to, e.directed, e.label])).toEqual([
      ['A', 'B', true, null],
      ['B', 'C', true, 'y'],
      ['C', 'D', false, 'z'],
      ['D', 'E', true, null],
    ]);
  });

  it('lets a later node statement label a node first used in an edge, keeping first-use order', () => {
    const d = parseDiagram('diagram 1\nB -> A\nnode A "Alpha"\nnode C "Gamma"');
    expect(d.nodes.map((n) => [n.id, n.label, n.declared])).toEqual([
      ['B', 'B', false],
      ['A', 'Alpha', true],
      ['C', 'Gamma', true],
    ]);
  });

  it('decodes \\" and \\\\ and keeps every other character of a label verbatim', () => {
    const d = parseDiagram('diagram 1\nnode x "</svg><script>alert(1)</script> a \\"q\\" \\\\ & é # not a comment"');
    expect(d.nodes[0]!.label).toBe('</svg><script>alert(1)</script> a "q" \\ & é # not a comment');
  });

  it('accepts tokens without spaces, tabs, CR LF and lone CR line ends', () => {
    const d = parseDiagram('diagram 1\r\nA->B"x"\r\n\tB--C\rgroup"g"{A\n  B # members\n}');
    expect(d.edges.map((e) => `${e.from}${e.directed ? '->' : '--'}${e.to}:${e.label}`)).toEqual(['A->B:x', 'B--C:null']);
    expect(d.groups).toEqual([{ label: 'g', members: ['A', 'B'], position: { line: 4, column: 1 } }]);
  });

  it('reports positions on CR LF sources by line', () => {
    expect(syntaxError('diagram 1\r\nA -> B\r\nA B').data).toEqual({ line: 3, column: 3 });
  });

  it('allows parallel edges, loops, ids that look like keywords of direction, and a group of undeclared nodes', () => {
    const d = parseDiagram('diagram 1\nA -> B\nA -> B\nA -> A\ndown -> right\ngroup "g" { x_1 _y }');
    expect(d.edges).toHaveLength(4);
    expect(d.nodes.map((n) => n.id)).toEqual(['A', 'B', 'down', 'right', 'x_1', '_y']);
  });

  it('accepts exactly the limits', () => {
    const nodes = Array.from({ length: 100 }, (_, i) => `node n${i}`).join('\n');
    const edges = Array.from({ length: 200 }, (_, i) => `n${i % 99} -> n${(i * 7) % 99}`).join('\n');
    const groups = Array.from({ length: 20 }, (_, i) => `group "g${i}" { n${i} }`).join('\n');
    const d = parseDiagram(`diagram 1\n${nodes}\n${edges}\n${groups}\nnode z${'x'.repeat(62)} "${'é'.repeat(200)}"`.replace('node n99\n', ''));
    expect(d.nodes).toHaveLength(100);
    expect(d.edges).toHaveLength(200);
    expect(d.groups).toHaveLength(20);
  });

  it('is deterministic', () => {
    const src = 'diagram 1\nA -> B "x"\ngroup "g" { B C }\nC -- A';
    expect(JSON.stringify(parseDiagram(src))).toBe(JSON.stringify(parseDiagram(src)));
  });
});

describe('parseDiagram: every error has its line and column', () => {
  const long = 'x'.repeat(201);
  const cases: [string, string, number, number, RegExp][] = [
    ['empty source', '', 1, 1, /first line must be "diagram 1"/],
    ['no header', 'direction down', 1, 1, /first line must be "diagram 1"/],
    ['blank line before the header', '\ndiagram 1\nA -> B', 1, 1, /first line/],
    ['comment before the header', '# c\ndiagram 1\nA -> B', 1, 1, /first line/],
    ['unknown version', 'diagram 2\nA -> B', 1, 9, /Canvas Diagram 2 is not known/],
    ['missing version', 'diagram\nA -> B', 1, 8, /expected the version 1/],
    ['junk after the header', 'diagram 1 x\nA -> B', 1, 11, /unexpected "x" after "diagram 1"/],
    ['second header', 'diagram 1\ndiagram 1', 2, 1, /first line only/],
    ['unexpected character', 'diagram 1\nA => B', 2, 3, /unexpected character "="/],
    ['lone dash', 'diagram 1\nA - B', 2, 3, /lone "-"/],
    ['unterminated label', 'diagram 1\nnode A "abc', 2, 8, /no closing "/],
    ['label cut by a line end', 'diagram 1\nnode A "abc\n"', 2, 8, /no closing "/],
    ['unknown escape', 'diagram 1\nnode A "a\\nb"', 2, 10, /unknown escape "\\n"/],
    ['backslash at the end of a line', 'diagram 1\nnode A "a\\', 2, 10, /unknown escape at the end of the line/],
    ['empty label', 'diagram 1\nnode A ""', 2, 8, /empty label/],
    ['blank label', 'diagram 1\nA -> B "  "', 2, 8, /empty label/],
    ['tab in a label', 'diagram 1\nnode A "a\tb"', 2, 10, /control character/],
    ['label too long', `diagram 1\nnode A "${long}"`, 2, 8, /201 characters; the limit is 200/],
    ['id starting with a digit', 'diagram 1\nnode 1a', 2, 6, /"1a" is not a node id/],
    ['keyword as id', 'diagram 1\nnode node', 2, 6, /keyword/],
    ['keyword as edge target', 'diagram 1\nA -> group', 2, 6, /keyword/],
    ['id too long', `diagram 1\nnode a${'b'.repeat(64)}`, 2, 6, /node id of 65 characters/],
    ['duplicate node', 'diagram 1\nnode A\nnode A "again"', 3, 6, /node A is already declared at line 2/],
    ['junk after a node', 'diagram 1\nnode A "x" y', 2, 12, /unexpected "y" after the statement/],
    ['two labels on a hop', 'diagram 1\nA -> B "x" "y"', 2, 12, /unexpected a quoted label after the statement/],
    ['node without id', 'diagram 1\nnode "x"', 2, 6, /expected a node id after "node"/],
    ['unknown direction', 'diagram 1\ndirection up', 2, 11, /expected down or right/],
    ['direction twice', 'diagram 1\ndirection down\ndirection right', 3, 1, /direction is already set/],
    ['lone id', 'diagram 1\nA', 2, 1, /"A" alone is not a statement/],
    ['two ids', 'diagram 1\nA B', 2, 3, /expected "->" or "--" after A/],
    ['arrow without target', 'diagram 1\nA ->', 2, 5, /expected a node id after "->"/],
    ['dash without target', 'diagram 1\nA -- # c', 2, 9, /expected a node id after "--"/],
    ['statement starting with a label', 'diagram 1\n"x" -> B', 2, 1, /cannot start with a quoted label/],
    ['statement starting with a brace', 'diagram 1\n}', 2, 1, /cannot start with "}"/],
    ['group without label', 'diagram 1\ngroup { A }', 2, 7, /expected a quoted group label/],
    ['group without brace', 'diagram 1\ngroup "x" A', 2, 11, /expected "\{" after the group label/],
    ['unclosed group', 'diagram 1\ngroup "x" {\n  A', 2, 1, /not closed/],
    ['edge inside a group', 'diagram 1\ngroup "x" { A -> B }', 2, 15, /lists node ids only/],
    ['nested group', 'diagram 1\ngroup "x" { group "y" { A } }', 2, 13, /do not nest/],
    ['empty group', 'diagram 1\ngroup "x" { }', 2, 1, /no member/],
    ['node in two groups', 'diagram 1\ngroup "x" { A }\ngroup "y" { A }', 3, 13, /already in the group at line 2/],
    ['node twice in a group', 'diagram 1\ngroup "x" { A A }', 2, 15, /listed twice/],
    ['junk after a group', 'diagram 1\ngroup "x" { A } B', 2, 17, /after the statement/],
    ['no node', 'diagram 1\n# only a comment\n', 3, 1, /no node/],
  ];
  it.each(cases)('%s', (_name, source, line, column, message) => {
    const e = syntaxError(source);
    expect(e.code).toBe('DIAGRAM_SYNTAX');
    expect(e.data).toEqual({ line, column });
    expect(e.message.startsWith(`line ${line}, column ${column}: `)).toBe(true);
    expect(e.message).toMatch(message);
    expect(e.hint).toContain('docs/diagram.md');
  });

  it('counts columns in characters, not UTF-16 units', () => {
    expect(syntaxError('diagram 1\nnode A "😀😀" B').data).toEqual({ line: 2, column: 13 });
  });

  it('reports the first error in source order', () => {
    expect(syntaxError('diagram 1\nA B\nnode "unterminated').data).toEqual({ line: 2, column: 3 });
  });

  it('refuses the 101st node, the 201st edge and the 21st group where they appear', () => {
    const nodes = Array.from({ length: 101 }, (_, i) => `node n${i}`).join('\n');
    expect(syntaxError(`diagram 1\n${nodes}`).data).toEqual({ line: 102, column: 6 });
    expect(syntaxError(`diagram 1\n${nodes}`).message).toMatch(/more than 100 nodes/);
    const edges = Array.from({ length: 201 }, () => 'A -> B').join('\n');
    expect(syntaxError(`diagram 1\n${edges}`).data).toEqual({ line: 202, column: 3 });
    const chain = `diagram 1\n${Array.from({ length: 202 }, (_, i) => `n${i % 50}`).join(' -> ')}`;
    expect(syntaxError(chain).message).toMatch(/more than 200 edges/);
    const groups = Array.from({ length: 21 }, (_, i) => `group "g${i}" { n${i} }`).join('\n');
    expect(syntaxError(`diagram 1\n${groups}`).data).toEqual({ line: 22, column: 1 });
  });

  it('refuses a source over 65,536 characters', () => {
    const e = syntaxError(`diagram 1\nA -> B\n${'#'.repeat(65_536)}`);
    expect(e.data).toEqual({ line: 1, column: 1 });
    expect(e.message).toMatch(/longer than 65536 characters/);
  });
});
