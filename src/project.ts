// Where the project's own files are. The code runs from src/ (the tests) and from lib/ (the
// compiled command), both one folder below the project, so one URL serves both. Paths are taken
// with fileURLToPath, never URL.pathname, which keeps a space as %20.

import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);

/** The folder of the running code: src/ or lib/. */
export const CODE_DIR = fileURLToPath(new URL('./', import.meta.url));
/** The compiled code, lib/, whichever folder runs (for a file the build copies out of it as it is). */
export const COMPILED_DIR = fileURLToPath(new URL('lib/', ROOT));
export const SCHEMA_DIR = new URL('schemas/', ROOT);
export const PACKAGE_JSON = fileURLToPath(new URL('package.json', ROOT));
export const NETLIFY_TOML = fileURLToPath(new URL('netlify.toml', ROOT));
/** The script nginx's JavaScript module runs for the site (generated, like netlify.toml). */
export const NGINX_SCRIPT = fileURLToPath(new URL('nginx/archive-schema.js', ROOT));
/** Where Debian's nginx keeps its dynamic modules. */
export const NGINX_MODULES_DIR = '/usr/lib/nginx/modules';
