import type { RootContent } from 'mdast';
import { createRender } from '../create-render.js';
import type { CommentContext } from './comment-context.js';
import { figure } from './handlers/figure.js';
import { link } from './handlers/link.js';
import { list } from './handlers/list.js';
import { question } from './handlers/question.js';
import { section } from './handlers/section.js';
import { table } from './handlers/table.js';
import { text } from './handlers/text.js';

/**
 * Render one node to mdast blocks (paragraphs, lists, fenced code) by the handler of its type
 * (`docs/projections.md`, "How the renderers are built").
 *
 * @throws CanvasError `SCHEMA` for a type schema 2 does not have
 */
export const renderBlock = createRender<CommentContext, RootContent[]>({ section, text, list, table, figure, link, question });
