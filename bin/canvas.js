#!/usr/bin/env node
// The `canvas` command. A CommonJS file (bin/package.json): the bundles in dist/cli start faster
// through V8's code cache than through the ES module loader (docs/performance.md, "Start-up").
require('../dist/cli/start.cjs');
