// Where the project's own files are. The code runs from src/ (the tests), from lib/ (the
// compiled modules) and from the command's bundle of them, which sits in lib/ beside them
// (lib/cli.bundle.js, scripts/compile.mjs): all one folder below the project, so one URL serves
// them all. Paths are taken with fileURLToPath, never URL.pathname, which keeps a space as %20.

import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);
const CODE = new URL('./', import.meta.url);

/** The folder of the running code: src/ or lib/. */
export const CODE_DIR = fileURLToPath(CODE);
/** A file of the running code's folder, by its path there (for the bundle, the compiled module's). */
export const codeFile = (relative: string): URL => new URL(relative, CODE);
/** Whether the compiled code runs, which worker threads can run too (under a TypeScript test runner, src/ runs). */
export const RUNS_COMPILED = import.meta.url.endsWith('.js');
/** The compiled code, lib/, whichever folder runs (for a file the build copies out of it as it is). */
export const COMPILED_DIR = fileURLToPath(new URL('lib/', ROOT));
export const SCHEMA_DIR = new URL('schemas/', ROOT);
export const PACKAGE_JSON = fileURLToPath(new URL('package.json', ROOT));
export const NETLIFY_TOML = fileURLToPath(new URL('netlify.toml', ROOT));
/** The script nginx's JavaScript module runs for the site (generated, like netlify.toml). */
export const NGINX_SCRIPT = fileURLToPath(new URL('nginx/archive-schema.js', ROOT));
/** Where Debian's nginx keeps its dynamic modules. */
export const NGINX_MODULES_DIR = '/usr/lib/nginx/modules';
