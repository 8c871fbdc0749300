// The benchmark's floor: the least any build must do with this metadata, single-threaded: read
// every file, parse it with the fastest YAML parser there is (js-yaml), serialise the whole tree
// once and write it out. Run as its own process by the benchmark (npm run bench).

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { load } from 'js-yaml';

export async function floor(metadataDir: string, outFile: string): Promise<number> {
  const files = (await fg('**/*.yaml', { cwd: metadataDir })).sort();
  const tree: Record<string, unknown> = {};
  let bytes = 0;
  for (const file of files) {
    const text = await readFile(path.join(metadataDir, file), 'utf8');
    bytes += Buffer.byteLength(text);
    tree[file] = load(text);
  }
  await writeFile(outFile, JSON.stringify(tree));
  return bytes;
}

const [metadataDir, outFile] = process.argv.slice(2);
if (metadataDir && outFile) await floor(metadataDir, outFile);
