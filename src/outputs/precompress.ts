// The copies `build --precompress` writes for nginx's gzip_static and brotli_static: beside each
// file the compression rule covers (site/routes.ts's precompressible), `f.br` and `f.gz`
// holding its bytes compressed. They are planned like any other file, from their file's plan and
// without compressing anything: a copy's key follows from its file's and the settings, so a
// rebuild links every copy whose file is unchanged, and compresses the others as it writes them
// (site/compression.ts). The same settings on every machine give the same bytes.

import { createHash } from 'node:crypto';
import { COMPRESSION, ENCODING_SUFFIX, precompressible } from '../site/routes.ts';
import type { Encoding } from '../site/routes.ts';
import { GZIP_HEADER, compressWhole, compressorOptions } from '../site/compression.ts';
import type { OutputFiles } from './output.ts';
import type { Compression, Plan } from '../site/plan.ts';

/**
 * gzip's level and brotli's quality, measured on the synthetic L archive (425 MB of distinct
 * precompressible files; one thread): gzip 9 makes 20.6 MB in 2.9 s, 6 makes 21.7 MB in 2.1 s;
 * brotli 6 makes 14.6 MB in 2.6 s, 5 makes 15.1 MB in 2.1 s, 9 makes 13.7 MB in 6.6 s (and needs
 * ~80 MB more memory in a build), while 10 and 11 take 12 s and 72 s for one 53 MB listing. With
 * 9 and 6, a cold L build takes ~6 s more CPU than without copies, and a rebuild after one edit ~2 s.
 */
export const LEVELS: Readonly<Record<Encoding, number>> = { br: 6, gzip: 9 };

/** The copies beside each precompressible file, in the order hosts prefer them. */
export const COPIES: readonly Compression[] = COMPRESSION.encodings.map((encoding) => ({ encoding, level: LEVELS[encoding] }));

/** The plans with each precompressible file's copies after it. */
export function withCopies(plans: readonly Plan[]): Plan[] {
  const paths = new Set(plans.map((p) => p.path));
  return plans.flatMap((plan) => {
    if (!precompressible(plan.path, plan.size)) return [plan];
    return [
      plan,
      ...COPIES.map((compression) => {
        const file = copyPath(plan.path, compression);
        // The rule never covers a .gz or .br file, and the output holds none outside download/.
        if (paths.has(file)) throw new Error(`${file} is planned both as a file and as the precompressed copy of ${plan.path}`);
        return { path: file, pieces: plan.pieces, key: copyKey(plan.key, compression), size: plan.size, compression };
      }),
    ];
  });
}

export function copyPath(file: string, compression: Compression): string {
  return `${file}${ENCODING_SUFFIX[compression.encoding]}`;
}

/**
 * A copy's content key: its file's key, the settings (gzip's header among them), and the version
 * of the library that compresses (another version may make other bytes of the same text, so a
 * Node upgrade compresses again rather than keeping copies it would not make).
 */
export function copyKey(key: string, compression: Compression): string {
  const gzip = compression.encoding === 'gzip';
  const library = gzip ? `zlib ${process.versions.zlib} ${Buffer.from(GZIP_HEADER).toString('hex')}` : `brotli ${process.versions.brotli}`;
  const settings = JSON.stringify(compressorOptions(compression, 0));
  return createHash('sha256').update(`${key}\0${compression.encoding}\0${settings}\0${library}`).digest('hex');
}

/** The files with each precompressible one's copies after it, each compressed at once from the whole file (the reference path's). */
export function withReferenceCopies(files: OutputFiles): OutputFiles {
  const out: OutputFiles = new Map();
  for (const [file, content] of files) {
    out.set(file, content);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    if (!precompressible(file, bytes.length)) continue;
    for (const compression of COPIES) out.set(copyPath(file, compression), compressWhole(bytes, compression));
  }
  return out;
}
