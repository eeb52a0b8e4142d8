// Every golden page passes html-validate with the project's config (.htmlvalidate.json, the
// recommended rules), and so does the page rendered now.
import { join } from 'node:path';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { pageOf } from './page-of.js';
import { buildCase, caseNames, SNAPSHOTS } from './golden-cases.js';

const validator = new HtmlValidate(new FileSystemConfigLoader());

describe.each(caseNames())('html-validate on %s', (name) => {
  it('finds no error in the rendered page', async () => {
    const html = await pageOf(await buildCase(name));
    const report = await validator.validateString(html, join(SNAPSHOTS, name, 'page.html'));
    const problems = report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`));
    expect(problems).toEqual([]);
    expect(report.valid).toBe(true);
  });

  it('finds no error in the golden page', async () => {
    const report = await validator.validateFile(join(SNAPSHOTS, name, 'page.html'));
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId} ${m.message}`))).toEqual([]);
  });
});
