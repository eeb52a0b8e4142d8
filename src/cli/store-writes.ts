// Everything the write commands call, in one module that the CLI imports when a write runs:
// one lazily loaded file (and the chunk it shares with verify and import) instead of one per
// store module, each of which costs an ES module resolution at start-up.
export { grantRole, revokeRole } from '../store/write/access-writes.js';
export { abandonCanvas, createCanvas, freezeCanvas, openCanvas } from '../store/write/canvas-lifecycle.js';
export { insertNode, moveNode, removeNode, replaceNode } from '../store/write/node-writes.js';
export { listProposals } from '../store/read/list-proposals.js';
export { approveProposal, rejectProposal } from '../store/write/decide-proposal.js';
export { readAccess } from '../store/read/read-access.js';
