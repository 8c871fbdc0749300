// Netlify build plugin: keeps the build cache (src/pipeline/cache.ts) between Netlify builds, so a
// deploy preview re-digests only the metadata files its pull request changed; and hands Netlify's
// deploy the built output as a plain folder at the publish path, where the build left a link to it
// (src/destination/output.ts): Netlify's deploy does not follow symbolic links.

import { lstat, readlink, rename, rm } from 'node:fs/promises';
import path from 'node:path';

const CACHE = 'node_modules/.cache/archive-schema';

export const onPreBuild = async ({ utils }) => {
  await utils.cache.restore(CACHE);
};

export const onPostBuild = async ({ utils, constants }) => {
  await folderInPlaceOfLink(constants.PUBLISH_DIR);
  await utils.cache.save(CACHE);
};

/** Puts the folder a link points at in the link's place (nothing reads the output during a Netlify build). */
async function folderInPlaceOfLink(publish) {
  const info = await lstat(publish).catch(() => undefined);
  if (!info?.isSymbolicLink()) return;
  const folder = path.resolve(path.dirname(publish), await readlink(publish));
  await rm(publish);
  await rename(folder, publish);
}
