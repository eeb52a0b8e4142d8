import { describe, expect, it } from 'vitest';
import type { SnapshotEdit } from '../../../src/model/snapshot.js';
import { renderPromptChanges } from '../../../src/render/text/render-prompt-changes.js';
import { REV, snapshotOf } from '../snapshot-of.js';

const SINCE = 'b'.repeat(40);

function edit(i: number, op: string, node: string | null, reason: string): SnapshotEdit {
  return { commit: `${String(i).padStart(2, '0')}${'c'.repeat(38)}`, op, node, author: 'ana | step:plan', reason, date: '2026-01-01T10:0' + i + ':00.000Z' };
}

describe('renderPromptChanges (docs/projections.md, "What changed")', () => {
  const { canvas } = snapshotOf(
    '<text id="t1" v="2">Friday.</text><section id="s1" v="2" title="Risks"><question id="q1" v="1">Who signs?</question><text id="t2" v="1">Rollback.</text></section><section id="s2" v="1" title="Notes"><text id="t3" v="3">Moved here.</text></section>',
  );

  it('shows the new base, the changed nodes under their places in document order, the removed ones, and the edits newest first', () => {
    const text = renderPromptChanges({
      ledger: 'unit',
      revision: REV,
      since: SINCE,
      canvas,
      edits: [
        edit(4, 'move', 't3', 'it belongs with the notes'),
        edit(3, 'remove', 'x9', 'ruled out'),
        edit(2, 'insert', 'q1', 'nobody owns the sign-off'),
        edit(1, 'replace', 't1', 'the date was agreed'),
        edit(0, 'grant', null, 'bob reviews'),
      ],
    });
    expect(text).toBe(
      [
        `Canvas-Base: ${REV}`,
        '',
        'The canvas of ledger unit changed since you last saw it (at bbbbbbb): write against the revision above.',
        'Only what changed is here; every other node is as you saw it.',
        '',
        'Changed nodes, as they are now:',
        'At the top level:',
        '  [t1] text: Friday.',
        'In [s1] section “Risks”:',
        '  [q1] OPEN QUESTION: Who signs?',
        'In [s2] section “Notes”:',
        '  [t3] text: Moved here.',
        'Removed: [x9]',
        '',
        'Edits since (newest first, 5):',
        '- 04ccccc move t3 by ana | step:plan, 2026-01-01 10:04 UTC: it belongs with the notes',
        '- 03ccccc remove x9 by ana | step:plan, 2026-01-01 10:03 UTC: ruled out',
        '- 02ccccc insert q1 by ana | step:plan, 2026-01-01 10:02 UTC: nobody owns the sign-off',
        '- 01ccccc replace t1 by ana | step:plan, 2026-01-01 10:01 UTC: the date was agreed',
        '- 00ccccc grant by ana | step:plan, 2026-01-01 10:00 UTC: bob reviews',
        '',
      ].join('\n'),
    );
  });

  it('shows a changed section whole, its nodes once under it, and edits that name no node without a node list', () => {
    const text = renderPromptChanges({ ledger: 'unit', revision: REV, since: SINCE, canvas, edits: [edit(2, 'replace', 'q1', 'sharper'), edit(1, 'replace', 's1', 'renamed')] });
    expect(text).toContain('Changed nodes, as they are now:\nAt the top level:\n  [s1] section “Risks”\n    [q1] OPEN QUESTION: Who signs?\n    [t2] text: Rollback.\n\nEdits since');
    const granted = renderPromptChanges({ ledger: 'unit', revision: REV, since: SINCE, canvas, edits: [edit(0, 'grant', null, 'bob reviews')] });
    expect(granted).not.toContain('Changed nodes');
    expect(granted).toContain('Edits since (newest first, 1):\n- 00ccccc grant by ana');
  });
});
