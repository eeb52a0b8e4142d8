import { diagramError } from './diagram-error.js';
import { DiagramLexer, type DiagramToken } from './diagram-lexer.js';
import { DIAGRAM_LIMITS, type Diagram, type DiagramDirection, type DiagramEdge, type DiagramGroup, type DiagramNode, type DiagramPosition } from './diagram-types.js';

const ID = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = new Set(['diagram', 'direction', 'node', 'group']);

function at(t: DiagramToken): DiagramPosition {
  return { line: t.line, column: t.column };
}

function describe(t: DiagramToken): string {
  switch (t.kind) {
    case 'word':
      return `"${t.value}"`;
    case 'string':
      return 'a quoted label';
    case 'arrow':
      return '"->"';
    case 'dash':
      return '"--"';
    case 'open':
      return '"{"';
    case 'close':
      return '"}"';
    case 'newline':
      return 'the end of the line';
    case 'eof':
      return 'the end of the source';
  }
}

function ends(t: DiagramToken): boolean {
  return t.kind === 'newline' || t.kind === 'eof';
}

class Parser {
  private readonly lexer: DiagramLexer;
  private direction: DiagramDirection | null = null;
  private readonly nodes = new Map<string, DiagramNode>();
  private readonly edges: DiagramEdge[] = [];
  private readonly groups: DiagramGroup[] = [];
  /** Node id -> the group that holds it. */
  private readonly memberOf = new Map<string, DiagramGroup>();

  constructor(source: string) {
    this.lexer = new DiagramLexer(source);
  }

  parse(): Diagram {
    this.header();
    for (;;) {
      const t = this.lexer.peek();
      if (t.kind === 'eof') break;
      if (t.kind === 'newline') {
        this.lexer.next();
        continue;
      }
      this.statement();
      const after = this.lexer.peek();
      if (!ends(after)) {
        throw diagramError(at(after), `unexpected ${describe(after)} after the statement`, 'write one statement per line');
      }
    }
    if (this.nodes.size === 0) {
      const eof = this.lexer.peek();
      throw diagramError(at(eof), 'the diagram has no node', 'declare a node (node A "label") or an edge (A -> B)');
    }
    return {
      version: 1,
      direction: this.direction ?? 'down',
      nodes: [...this.nodes.values()],
      edges: this.edges,
      groups: this.groups,
    };
  }

  private header(): void {
    const t = this.lexer.next();
    if (t.kind !== 'word' || t.value !== 'diagram' || t.line !== 1) {
      throw diagramError({ line: 1, column: t.line === 1 && t.kind !== 'newline' && t.kind !== 'eof' ? t.column : 1 }, 'the first line must be "diagram 1"', 'start the source with the line: diagram 1');
    }
    const v = this.lexer.next();
    if (v.kind !== 'word' || v.line !== 1) {
      throw diagramError(at(v), `expected the version 1 after "diagram", found ${describe(v)}`, 'start the source with the line: diagram 1');
    }
    if (v.value !== '1') {
      throw diagramError(at(v), `Canvas Diagram ${v.value} is not known; this is Canvas Diagram 1`, 'start the source with the line: diagram 1');
    }
    const after = this.lexer.next();
    if (!ends(after)) {
      throw diagramError(at(after), `unexpected ${describe(after)} after "diagram 1"`, 'keep the first line to: diagram 1');
    }
  }

  private statement(): void {
    const t = this.lexer.peek();
    if (t.kind !== 'word') {
      throw diagramError(at(t), `a statement cannot start with ${describe(t)}`, 'start with direction, node, group, or a node id');
    }
    switch (t.value) {
      case 'direction':
        this.directionStatement();
        return;
      case 'node':
        this.nodeStatement();
        return;
      case 'group':
        this.groupStatement();
        return;
      case 'diagram':
        throw diagramError(at(t), '"diagram 1" belongs on the first line only', 'remove this line');
      default:
        this.edgeStatement();
        return;
    }
  }

  private directionStatement(): void {
    const keyword = this.lexer.next();
    const d = this.lexer.next();
    if (d.kind !== 'word' || (d.value !== 'down' && d.value !== 'right')) {
      throw diagramError(at(d), `expected down or right after "direction", found ${describe(d)}`, 'write direction down or direction right');
    }
    if (this.direction !== null) {
      throw diagramError(at(keyword), 'the direction is already set', 'keep one direction line');
    }
    this.direction = d.value;
  }

  private nodeStatement(): void {
    this.lexer.next();
    const idToken = this.lexer.next();
    const id = this.id(idToken, 'after "node"');
    let label: string | null = null;
    if (this.lexer.peek().kind === 'string') label = this.lexer.next().value;
    const existing = this.nodes.get(id);
    if (existing?.declared) {
      throw diagramError(at(idToken), `node ${id} is already declared at line ${existing.position.line}`, 'declare each node once; edges and groups refer to it by id');
    }
    if (existing) {
      existing.label = label ?? id;
      existing.declared = true;
      existing.position = at(idToken);
      return;
    }
    this.add({ id, label: label ?? id, declared: true, position: at(idToken) });
  }

  private edgeStatement(): void {
    const first = this.lexer.next();
    let from = this.use(first, 'to start an edge');
    let hops = 0;
    for (;;) {
      const arrow = this.lexer.peek();
      if (arrow.kind !== 'arrow' && arrow.kind !== 'dash') {
        if (hops > 0) return;
        const what = ends(arrow) && first.kind === 'word' ? `"${first.value}" alone is not a statement` : `expected "->" or "--" after ${from}, found ${describe(arrow)}`;
        throw diagramError(at(arrow.kind === 'newline' || arrow.kind === 'eof' ? first : arrow), what, `write ${from} -> B for an edge, or node ${from} "label" to declare it`);
      }
      this.lexer.next();
      const target = this.lexer.next();
      const to = this.use(target, `after ${describe(arrow)}`);
      let label: string | null = null;
      if (this.lexer.peek().kind === 'string') label = this.lexer.next().value;
      if (this.edges.length >= DIAGRAM_LIMITS.edges) {
        throw diagramError(at(arrow), `more than ${DIAGRAM_LIMITS.edges} edges`, 'split the diagram into smaller figures');
      }
      this.edges.push({ from, to, directed: arrow.kind === 'arrow', label, position: at(arrow) });
      from = to;
      hops += 1;
    }
  }

  private groupStatement(): void {
    const keyword = this.lexer.next();
    const labelToken = this.lexer.next();
    if (labelToken.kind !== 'string') {
      throw diagramError(at(labelToken), `expected a quoted group label after "group", found ${describe(labelToken)}`, 'write group "label" { A B }');
    }
    const open = this.lexer.next();
    if (open.kind !== 'open') {
      throw diagramError(at(open), `expected "{" after the group label, found ${describe(open)}`, 'write group "label" { A B }');
    }
    if (this.groups.length >= DIAGRAM_LIMITS.groups) {
      throw diagramError(at(keyword), `more than ${DIAGRAM_LIMITS.groups} groups`, 'split the diagram into smaller figures');
    }
    const group: DiagramGroup = { label: labelToken.value, members: [], position: at(keyword) };
    for (;;) {
      const t = this.lexer.next();
      if (t.kind === 'newline') continue;
      if (t.kind === 'close') break;
      if (t.kind === 'eof') {
        throw diagramError(at(keyword), `this group is not closed: expected "}", found the end of the source`, 'close the group with } after its last member');
      }
      if (t.kind === 'word' && t.value === 'group') {
        throw diagramError(at(t), 'groups do not nest', 'close the outer group before opening another');
      }
      if (t.kind !== 'word') {
        throw diagramError(at(t), `a group lists node ids only, found ${describe(t)}`, 'declare nodes and edges outside the group; list the member ids inside');
      }
      const id = this.use(t, 'in a group');
      const holder = this.memberOf.get(id);
      if (holder) {
        throw diagramError(at(t), holder === group ? `node ${id} is listed twice in this group` : `node ${id} is already in the group at line ${holder.position.line}`, 'list each node in one group, once');
      }
      this.memberOf.set(id, group);
      group.members.push(id);
    }
    if (group.members.length === 0) {
      throw diagramError(at(keyword), 'this group has no member', 'list member node ids between { and }');
    }
    this.groups.push(group);
  }

  /** Check a node id token and name the node, declaring it with its id as label when new. */
  private use(t: DiagramToken, where: string): string {
    const id = this.id(t, where);
    if (!this.nodes.has(id)) this.add({ id, label: id, declared: false, position: at(t) });
    return id;
  }

  private id(t: DiagramToken, where: string): string {
    if (t.kind !== 'word') {
      throw diagramError(at(t), `expected a node id ${where}, found ${describe(t)}`, 'a node id is a letter or _ followed by letters, digits and _');
    }
    if (!ID.test(t.value)) {
      throw diagramError(at(t), `"${t.value}" is not a node id: it must start with a letter or _`, 'rename it, for example n' + t.value);
    }
    if (RESERVED.has(t.value)) {
      throw diagramError(at(t), `"${t.value}" is a keyword, not a node id`, 'rename the node');
    }
    if (t.value.length > DIAGRAM_LIMITS.idLength) {
      throw diagramError(at(t), `a node id of ${t.value.length} characters; the limit is ${DIAGRAM_LIMITS.idLength}`, 'use a shorter id and put the words in the label');
    }
    return t.value;
  }

  private add(node: DiagramNode): void {
    if (this.nodes.size >= DIAGRAM_LIMITS.nodes) {
      throw diagramError(node.position, `more than ${DIAGRAM_LIMITS.nodes} nodes`, 'split the diagram into smaller figures');
    }
    this.nodes.set(node.id, node);
  }
}

/**
 * Parse a Canvas Diagram 1 source (docs/diagram.md owns the grammar). Pure and
 * deterministic: nodes in order of first appearance, edges and groups in source order.
 *
 * @param source - the figure's source text; LF, CR LF or CR line ends
 * @returns the syntax tree
 * @throws CanvasError `DIAGRAM_SYNTAX` naming the first problem in source order, with its 1-based
 *   line and column in the message and in `data` (`{line, column}`)
 */
export function parseDiagram(source: string): Diagram {
  let length = 0;
  for (const _ of source) {
    length += 1;
    if (length > DIAGRAM_LIMITS.sourceLength) {
      throw diagramError({ line: 1, column: 1 }, `the source is longer than ${DIAGRAM_LIMITS.sourceLength} characters`, 'split the diagram into smaller figures');
    }
  }
  return new Parser(source).parse();
}
