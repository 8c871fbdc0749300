#!/usr/bin/env node
// The archive-schema command: runs the compiled CLI (lib/ is built from src/ by `npm run compile`,
// and bundled into lib/cli.bundle.js, which loads faster than its modules one by one).
const { main } = await import('../lib/cli.bundle.js');

await main();
