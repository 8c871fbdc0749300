// The load benchmark's baseline (npm run bench:serve): the least any server must do to send a built
// site's bytes. It maps a request's path to a file under the root and streams it, with no routing,
// no query strings, no validators and no compression; the benchmark asks it for the file each route
// resolves to. Run as its own process: `node bench/lib/static-server.js ROOT PORT`, on loopback.

import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? '.');
const TYPES: Record<string, string> = { '.json': 'application/json', '.html': 'text/html; charset=utf-8' };
const ENCODINGS: Record<string, string> = { '.br': 'br', '.gz': 'gzip' };

createServer((req, res) => {
  try {
    const file = path.join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname));
    const stat = statSync(file);
    if (!stat.isFile() || !file.startsWith(root + path.sep)) throw new Error('not a file of the site');
    // A precompressed copy (file.json.br) is sent as what it holds, encoded.
    const encoding = ENCODINGS[path.extname(file)];
    const type = TYPES[path.extname(encoding ? file.slice(0, -path.extname(file).length) : file)] ?? 'application/octet-stream';
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': stat.size, ...(encoding ? { 'Content-Encoding': encoding } : {}) });
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  } catch {
    res.writeHead(404).end();
  }
}).listen(Number(process.argv[3] ?? 0), '127.0.0.1');
