import { runCanvas } from './run-canvas.js';

runCanvas(process.argv.slice(2));
