// Netlify build plugin: keeps the build cache (src/cache.ts) between Netlify builds, so a deploy
// preview re-digests only the metadata files its pull request changed.
const CACHE = 'node_modules/.cache/archive-schema';

export const onPreBuild = async ({ utils }) => {
  await utils.cache.restore(CACHE);
};

export const onPostBuild = async ({ utils }) => {
  await utils.cache.save(CACHE);
};
