#!/usr/bin/env -S node --single-threaded-gc
// The archive-schema command: runs the compiled CLI (lib/ is built from src/ by `npm run compile`,
// and bundled into lib/cli.bundle.js, which loads faster than its modules one by one).
//
// Node runs it with --single-threaded-gc (this line's first, and `npm run build` and `npm run
// check`): V8's garbage collector then works in the thread whose memory it collects, not in
// helper threads beside it. A build keeps every core busy with its own threads (a digest worker
// each), and helpers only took time from them: with the flag, digesting the L archive into an
// empty cache took 5.34 s against 5.60 s (means of six alternate runs), and a cold L build
// 6.66-7.26 s against 6.96-8.13 s in three of four (the fourth, at a slow moment of the host, 9.11 s
// against 8.25 s); rebuilds took as long. V8 takes the flag only as Node starts.
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
