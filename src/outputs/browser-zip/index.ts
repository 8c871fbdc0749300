// download/browser.zip: the schema browser's files in one zip, to unpack and open from disk. Made of
// the browser's plans: a member whose file is unchanged is copied from the last build's zip.

import { isBrowserFile } from '../../site/routes.ts';
import type { Output } from '../output.ts';
import { BROWSER_ZIP, planBrowserZip } from './plan.ts';
import { zipWhole } from './zip.ts';

export const browserZip: Output = {
  name: 'browser-zip',
  needs: ['browser'],
  plan: async (input, needed) => [await planBrowserZip(needed('browser'), input.kept?.(BROWSER_ZIP) ?? new Map())],
  // The browser's files zipped whole.
  reference: (_input, needed) =>
    new Map([
      [
        BROWSER_ZIP,
        zipWhole(
          new Map(
            needed('browser')
              .filter(([file]) => isBrowserFile(file))
              .map(([file, content]) => [file, typeof content === 'string' ? Buffer.from(content, 'utf8') : content]),
          ),
        ),
      ],
    ]),
};
