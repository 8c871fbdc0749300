// The offline download's data files (download/), planned from the checked archive and each file's
// rendered texts. Their checksums and the folder's page come after, from the bytes these plans
// make (index.ts, destination/checksums.ts).

import { DOWNLOAD_DIR } from '../../hosting/routes.ts';
import { planOf } from '../plan.ts';
import type { Plan } from '../plan.ts';
import type { PlanInput } from '../planner.ts';
import { archiveGzipPieces, archiveJsonPieces, archiveParts } from './archive.ts';

export const ARCHIVE_FILE = `${DOWNLOAD_DIR}/archive.json`;

export function planDownload({ archive, fragments, baseUrl }: PlanInput): Plan[] {
  const parts = archiveParts(archive, fragments, baseUrl);
  return [planOf(ARCHIVE_FILE, archiveJsonPieces(parts)), planOf(`${ARCHIVE_FILE}.gz`, archiveGzipPieces(parts))];
}

/** The plans that are the download's data files, which its checksums and page cover. */
export function isDownloadData(plan: Plan): boolean {
  return plan.path.startsWith(`${DOWNLOAD_DIR}/`);
}
