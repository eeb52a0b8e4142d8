import type { Element } from 'hast';
import { createRender } from '../create-render.js';
import { figure } from './handlers/figure.js';
import { link } from './handlers/link.js';
import { list } from './handlers/list.js';
import { question } from './handlers/question.js';
import { section } from './handlers/section.js';
import { table } from './handlers/table.js';
import { text } from './handlers/text.js';
import type { PageContext } from './page-context.js';

/**
 * Render one node to its hast element, carrying `id="<node id>"`, by the handler of its type
 * (`docs/projections.md`, "How the renderers are built").
 *
 * @throws CanvasError `SCHEMA` for a type schema 2 does not have
 */
export const renderNode = createRender<PageContext, Element>({ section, text, list, table, figure, link, question });
