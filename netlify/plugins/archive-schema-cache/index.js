// Netlify build plugin: keeps the build cache (src/cache.ts) between Netlify builds, so a deploy
// preview re-digests only the metadata files its pull request changed.
import { rm } from 'node:fs/promises';

const CACHE = 'node_modules/.cache/archive-schema';

export const onPreBuild = async ({ utils }) => {
  await utils.cache.restore(CACHE);
};

export const onPostBuild = async ({ utils }) => {
  // Spare output files (src/write.ts) help only the machine that wrote them, and Netlify does
  // not keep the output they were replaced from: they are left out of the saved cache.
  await rm(`${CACHE}/spares`, { recursive: true, force: true });
  await utils.cache.save(CACHE);
};
