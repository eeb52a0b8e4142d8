#!/usr/bin/env node
import '../dist/cli/canvas.js';
