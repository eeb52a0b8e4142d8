import { CanvasError } from '../../model/canvas-error.js';
import { readScene } from '../../model/excalidraw/read-scene.js';
import type { SceneElement } from '../../model/excalidraw/scene-types.js';

/** What the comment and the prompt say of a scene (docs/excalidraw.md, "In the comment and the prompt"). */
export interface SceneSummary {
  /** Elements shown (deleted ones left out). */
  elements: number;
  /** Each text of the scene in reading order, with what it labels when it is bound. */
  texts: string[];
  /** Each arrow or line bound at both ends, as `“from” → “to”`, in the scene's order. */
  connections: string[];
}

const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

function words(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL, '\uFFFD').trim();
}

/**
 * Texts in reading order: rows from top to bottom (a text whose top is above the middle of the
 * row's first text joins that row), each row left to right.
 */
function readingOrder(texts: SceneElement[]): SceneElement[] {
  const byTop = [...texts].sort((a, b) => a.y - b.y || a.x - b.x || a.index - b.index);
  const rows: SceneElement[][] = [];
  for (const t of byTop) {
    const row = rows[rows.length - 1];
    if (row && t.y < row[0]!.y + Math.max(row[0]!.height, 1) / 2) row.push(t);
    else rows.push([t]);
  }
  return rows.flatMap((r) => r.sort((a, b) => a.x - b.x || a.index - b.index));
}

/**
 * Summarize a stored scene for the comment and the prompt: how many elements it shows, its texts
 * in reading order (a bound text says which shape it sits in: `“API” (in a rectangle)`, `“SQL”
 * (on an arrow)`), and the arrows that join two elements (by their labels, else their types).
 *
 * @param source - the figure's scene text
 * @returns the summary, or the CanvasError reading the scene gave (a scene the write path would
 *   refuse, committed by hand)
 */
export function summarizeScene(source: string): SceneSummary | CanvasError {
  let elements: SceneElement[];
  try {
    elements = readScene(source).elements.filter((e) => !e.isDeleted);
  } catch (e) {
    if (e instanceof CanvasError) return e;
    throw e;
  }
  const byId = new Map(elements.map((e) => [e.id, e]));
  const label = new Map<string, string>();
  for (const e of elements) {
    if (e.type === 'text' && e.containerId !== null && !label.has(e.containerId)) label.set(e.containerId, words(e.text));
  }
  const nameOf = (id: string | null): string | null => {
    const e = id === null ? undefined : byId.get(id);
    if (!e) return null;
    const l = e.type === 'text' ? words(e.text) : label.get(e.id);
    return l ? `“${l.replace(/\n/g, ' ')}”` : `a ${e.type}`;
  };
  const texts = readingOrder(elements.filter((e) => e.type === 'text' && words(e.text) !== '')).map((t) => {
    const container = t.containerId === null ? undefined : byId.get(t.containerId);
    const quoted = `“${words(t.text).replace(/\n/g, ' / ')}”`;
    if (!container) return quoted;
    return container.type === 'arrow' || container.type === 'line'
      ? `${quoted} (on ${container.type === 'arrow' ? 'an arrow' : 'a line'})`
      : `${quoted} (in ${/^[aeiou]/.test(container.type) ? 'an' : 'a'} ${container.type})`;
  });
  const connections: string[] = [];
  for (const e of elements) {
    if (e.type !== 'arrow' && e.type !== 'line') continue;
    const [from, to] = [nameOf(e.startBound), nameOf(e.endBound)];
    if (from === null || to === null) continue;
    const own = label.get(e.id);
    connections.push(`${from} ${e.type === 'arrow' ? '→' : '—'} ${to}${own ? ` (“${own.replace(/\n/g, ' ')}”)` : ''}`);
  }
  return { elements: elements.length, texts, connections };
}
