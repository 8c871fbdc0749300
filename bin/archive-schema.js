#!/usr/bin/env node
// The archive-schema command: runs the compiled CLI (lib/ is built from src/ by `npm run compile`,
// and bundled into lib/cli.bundle.js, which loads faster than its modules one by one).
import { setFlagsFromString } from 'node:v8';

// V8 optimizes a function once it has run a budget of its bytecode. A build is a short process
// that runs much of its code on data of many shapes: with V8's default budget (67,584), a cold
// build of the synthetic L archive optimized 862 functions for 3.1 s of processor time, many of
// them again after taking paths their first optimization had not seen; with 300,000, 448 for
// 1.5 s, and a cold build took 4% less time and a rebuild 5-11% less. Set before any of the
// command's code is loaded, and so for the worker threads it starts too.
setFlagsFromString('--interrupt-budget=300000');

const { main } = await import('../lib/cli.bundle.js');

await main();
