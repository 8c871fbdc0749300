// The schema browser's headers on every host: the route table says where (BROWSER_PATHS) and which
// header (browserHeaders); the policy is the very constant the pages declare in their `<meta>`, so
// the header and the markup cannot say different things. Netlify's configuration (netlify.ts) and
// nginx's (nginx.ts) take it from here; `serve` applies netlify.toml's header rules as Netlify does.

import { CONTENT_SECURITY_POLICY } from '../outputs/browser/pages/shell.ts';
import { browserHeaders } from '../site/routes.ts';

export const BROWSER_HEADERS: Readonly<Record<string, string>> = browserHeaders(CONTENT_SECURITY_POLICY);
