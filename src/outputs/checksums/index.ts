// The download's checksum list (download/SHA256SUMS, which `sha256sum -c` reads) and its page,
// made of the SHA-256 of every file the download and the browser's zip put in download/.

import { createHash } from 'node:crypto';
import { DOWNLOAD_DIR } from '../../site/routes.ts';
import { plansOf, wholeText } from '../../site/plan.ts';
import type { Output } from '../output.ts';
import { planDownloadIndex } from './plan.ts';

const inDownload = (file: string) => file.startsWith(`${DOWNLOAD_DIR}/`);
const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');

export const checksums: Output = {
  name: 'checksums',
  needs: ['download', 'browser-zip'],
  plan(input, needed) {
    const listed = [...needed('download'), ...needed('browser-zip')].filter((plan) => inDownload(plan.path));
    if (listed.length === 0) return [];
    if (!input.checksums) throw new Error('the download is planned without a way to take its checksums');
    return planDownloadIndex(listed, input.checksums(listed), sha256);
  },
  reference(_input, needed) {
    const listed = [...needed('download'), ...needed('browser-zip')].filter(([file]) => inDownload(file));
    if (listed.length === 0) return new Map();
    const sums = new Map(listed.map(([file, content]) => [file, sha256(content)]));
    const index = planDownloadIndex(plansOf(new Map(listed)), sums, sha256);
    return new Map(index.map((plan) => [plan.path, wholeText(plan.path, plan.pieces)]));
  },
};
