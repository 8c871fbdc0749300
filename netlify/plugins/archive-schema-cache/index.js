// Netlify build plugin: keeps the build cache (src/cache.ts) between Netlify builds, so a deploy
// preview re-digests only the metadata files its pull request changed.
import { rm } from 'node:fs/promises';

const CACHE = 'node_modules/.cache/archive-schema';

export const onPreBuild = async ({ utils }) => {
  await utils.cache.restore(CACHE);
};

export const onPostBuild = async ({ utils }) => {
  // The spare output, the one a build replaced (src/destination/spare.ts), helps only the machine
  // that built it, and Netlify does not keep the output it was replaced by: it is left out of the
  // saved cache.
  await rm(`${CACHE}/spares`, { recursive: true, force: true });
  await utils.cache.save(CACHE);
};
