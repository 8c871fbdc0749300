// The base URL the API's links are built from: absolute, without a trailing slash, chosen at
// build time. On Netlify a production build links to the site and a deploy preview to itself.

import { UsageError } from '../errors.ts';

// The address `serve` listens on by default, so that a build's links lead to the preview as it is.
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/**
 * The base URL for the API's links: the flag, else Netlify's production URL for production
 * builds and the deploy's own URL for previews and branch deploys, else the local preview's.
 */
export function resolveBaseUrl(flag: string | undefined, env: Record<string, string | undefined>): string {
  let chosen = flag;
  if (chosen === undefined && env.NETLIFY === 'true') {
    chosen = env.CONTEXT === 'production' ? env.URL : (env.DEPLOY_PRIME_URL ?? env.DEPLOY_URL ?? env.URL);
  }
  return normaliseBaseUrl(chosen ?? DEFAULT_BASE_URL);
}

export function normaliseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`base URL "${text}" is not an absolute URL; pass one like https://schema.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`base URL "${text}" must start with http:// or https://`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new UsageError(`base URL "${text}" must not carry a query, fragment or credentials`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
