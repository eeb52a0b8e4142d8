// Building the tab's elements. Everything from the canvas goes in as text (`textContent`),
// never as markup.

/** An element's attributes: `text` is its text, `class` its class, `on<event>` a listener. */
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => unknown)>;

/** A child: a node, a string, or nothing (skipped). */
export type Child = Node | string | null | undefined | false;

/**
 * Make an element.
 *
 * @param tag - the tag name
 * @param attrs - attributes; `false`, `null` and `undefined` are left out, `true` is present and empty
 * @param children - appended in order, empty ones skipped
 */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, children: Child[] = []): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') {
      if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    } else if (k === 'text') e.textContent = String(v);
    else if (k === 'class') e.className = String(v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

/** A commit's short form: its first 7 characters. */
export const short = (sha: string | null | undefined): string => (sha ? sha.slice(0, 7) : '');
