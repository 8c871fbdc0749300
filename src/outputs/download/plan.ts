// The offline download's data files (download/) and the VOSI tables (vo/), planned from the checked
// archive and each file's rendered texts. Their checksums and the folder's page come after, from the bytes these plans
// make (index.ts, destination/checksums.ts).

import { DOWNLOAD_DIR, VO_DIR } from '../../site/routes.ts';
import { textPiece } from '../../site/fragment.ts';
import { planOf } from '../../site/plan.ts';
import type { Plan } from '../../site/plan.ts';
import type { PlanInput } from '../output.ts';
import { archiveGzipPieces, archiveJsonPieces, archiveParts } from './archive.ts';
import { voDocuments } from './vo.ts';
import type { RowsOf } from './vo.ts';

export const ARCHIVE_FILE = `${DOWNLOAD_DIR}/archive.json`;

/** The VOSI tables document, as /vo/tables answers it. */
export const VO_TABLES_FILE = `${VO_DIR}/tables.xml`;

export function planDownload(input: PlanInput): Plan[] {
  const { archive, fragments, baseUrl } = input;
  const parts = archiveParts(input);
  const rows: RowsOf = (entry, text, fill) => {
    const fragment = fragments.get(entry.file.relative);
    if (!fragment) throw new Error(`no rendered text for ${entry.file.relative}`);
    return textPiece(fragment, text, fill === '' ? undefined : fill);
  };
  const documents = voDocuments(archive, baseUrl, rows);
  return [
    planOf(ARCHIVE_FILE, archiveJsonPieces(parts)),
    planOf(`${ARCHIVE_FILE}.gz`, archiveGzipPieces(parts)),
    ...[...documents].map(([name, pieces]) => planOf(`${DOWNLOAD_DIR}/${name}`, pieces)),
    planOf(VO_TABLES_FILE, documents.get('tables.xml') ?? []),
  ];
}

/** The plans that are the download's data files, which its checksums and page cover. */
export function isDownloadData(plan: Pick<Plan, 'path'>): boolean {
  return plan.path.startsWith(`${DOWNLOAD_DIR}/`);
}
