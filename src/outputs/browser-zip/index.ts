// download/browser.zip: the schema browser's files in one zip, to unpack and open from disk. Made of
// the browser files every output before it planned (the browser's pages, the changelog's): a
// member whose file is unchanged is copied from the last build's zip.

import { isBrowserFile } from '../../site/routes.ts';
import { EARLIER_OUTPUTS } from '../output.ts';
import type { Output } from '../output.ts';
import { BROWSER_ZIP, planBrowserZip } from './plan.ts';
import { zipWhole } from './zip.ts';

export const browserZip: Output = {
  name: 'browser-zip',
  needs: [EARLIER_OUTPUTS],
  plan: async (input, needed) => [await planBrowserZip(needed(EARLIER_OUTPUTS), input.kept?.(BROWSER_ZIP) ?? new Map())],
  // The browser's files zipped whole.
  reference: (_input, needed) =>
    new Map([
      [
        BROWSER_ZIP,
        zipWhole(
          new Map(
            needed(EARLIER_OUTPUTS)
              .filter(([file]) => isBrowserFile(file))
              .map(([file, content]) => [file, typeof content === 'string' ? Buffer.from(content, 'utf8') : content]),
          ),
        ),
      ],
    ]),
};
