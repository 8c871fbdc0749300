#!/usr/bin/env node
// The archive-schema command: runs the compiled CLI (lib/ is built from src/ by `npm run compile`).
import { main } from '../lib/cli.js';

await main();
