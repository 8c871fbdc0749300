// The command line: wires options to each command's module, prints what it returns, and maps the
// one error base class (errors.ts) to exit codes. The only module that touches `process`.
// Exit codes: 0 done, 1 the metadata is invalid, 2 usage, configuration or I/O trouble.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { build, check } from './build.ts';
import type { BuildResult, CheckResult, Progress } from './build.ts';
import type { Decision, Step } from './destination/decide.ts';
import { countBySeverity, formatGithub, formatJson, formatReport, printable, shown, strictly } from './diagnostics.ts';
import type { Diagnostic } from './diagnostics.ts';
import { ArchiveSchemaError, EXIT, remedyFor } from './errors.ts';
import { resolveBaseUrl } from './hosting/base-url.ts';
import { DATA_TYPES, requestTarget } from './site/routes.ts';
import type { RunningServer } from './hosting/serve.ts';
import { KINDS } from './kinds/registry.ts';
import { defaultWorkers } from './pipeline/pool.ts';
import { NGINX_MODULES_DIR, NGINX_SCRIPT, PACKAGE_JSON } from './project.ts';

/** The package's version, from its package.json. */
const VERSION = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;

/** The cache lives with the dependencies, which Netlify keeps between builds. */
export const DEFAULT_CACHE_DIR = 'node_modules/.cache/archive-schema';

const CHANGES_HELP = 'change records folder (default: changes/ beside the metadata folder)';

const DEFAULT_PORT = 8080;
const DEFAULT_HOST = '127.0.0.1';

/** The kinds `new` scaffolds a file of. */
const SCAFFOLDED = Object.values(KINDS).filter((k) => k.scaffold && k.file);

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Called with the running server; the CLI resolves when it is closed. */
  onServe?: (server: RunningServer) => void;
  /** Whether stderr is a terminal, where long work may show its progress. */
  progress?: boolean;
}

interface PipelineOptions {
  cacheDir?: string;
  cache?: boolean;
  workers?: number;
  reference?: boolean;
}

interface BuildFlags extends PipelineOptions {
  metadata: string;
  out: string;
  baseUrl?: string;
  dryRun?: boolean;
  explain?: string[];
  precompress?: boolean;
  quiet?: boolean;
  changes?: string;
}

// ---- Formatting results ------------------------------------------------------------------------------

/**
 * A line of output with each value in it (a file name, a name, a folder given as an option) shown
 * by the one escaping every report uses: no value can break the line, or start one of its own.
 */
function say(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce((out, part, i) => out + part + (i < values.length ? shown(String(values[i])) : ''), '');
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

function sizeText(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}

/**
 * One line that updates in place on a terminal ("120/466 files read and checked"), at most ten
 * times a second, and is cleared when the work ends. Without a terminal nothing is shown.
 */
function progressLine(write: (text: string) => void): { update: Progress; end: () => void } {
  let last = 0;
  let shown = false;
  const words = { reading: 'files read and checked', writing: 'outputs written' } as const;
  return {
    update(stage, done, total) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      shown = true;
      write(`\r\x1b[2K${done}/${total} ${words[stage]}`);
    },
    end() {
      if (shown) write('\r\x1b[2K');
      shown = false;
    },
  };
}

/** A step as one line: what, which file, its size where it is known, and why. */
function stepLine(step: Step, width: number): string {
  const size = step.action === 'remove' || step.plan.compression ? '' : sizeText(step.plan.size);
  return `${step.action.padEnd(6)}  ${step.path.padEnd(width)}  ${size.padStart(8)}  ${step.reason}\n`;
}

/** What a build would do, a line per file it would write, link or remove (not those it keeps), then the totals. */
function formatDryRun(decision: Decision, out: string): string {
  const listed = decision.steps.filter((step) => step.action !== 'keep').sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const width = Math.max(0, ...listed.map((step) => step.path.length));
  const count = (action: Step['action']) => decision.steps.filter((step) => step.action === action).length;
  const writes = decision.steps.filter((step) => step.action === 'write');
  // A compressed copy's size is known only once it is written (its plan's is the file it compresses).
  const bytes = writes.reduce((n, step) => n + (step.plan.compression ? 0 : step.plan.size), 0);
  const compressed = writes.filter((step) => step.plan.compression).length;
  const besides = compressed > 0 ? ` and ${plural(compressed, 'compressed copy', 'compressed copies')}` : '';
  const summary =
    `A build would write ${plural(count('write'), 'file')} (${sizeText(bytes)}${besides}), link ${count('link')} to files of the same bytes, ` +
    `keep ${count('keep')} unchanged and remove ${count('remove')} in ${out}. Nothing was written.`;
  return `${listed.map((step) => stepLine(step, width)).join('')}${summary}\n`;
}

/** Each asked-for path's step (a folder's: every file in it), or that the build has no such file. */
function formatExplained(decision: Decision, asked: readonly string[], out: string): string {
  const prefix = `${out.replace(/\/+$/, '')}/`;
  return asked
    .map((given) => {
      const wanted = given.startsWith(prefix) ? given.slice(prefix.length) : given.replace(/^\.\//, '');
      const folder = `${wanted.replace(/\/+$/, '')}/`;
      const steps = decision.steps.filter((step) => step.path === wanted || step.path.startsWith(folder));
      if (steps.length === 0) return `${given}: not a file of this build's output, nor of the output it replaces\n`;
      const width = Math.max(...steps.map((step) => step.path.length));
      return steps.map((step) => stepLine(step, width)).join('');
    })
    .join('');
}

function formatBuilt(result: BuildResult, out: string, baseUrl: string, seconds: string): string {
  const stats = result.written;
  const files = result.plans?.length ?? 0;
  const { warnings } = countBySeverity(result.diagnostics);
  // Warnings do not stop a build; `check` lists them.
  const note = warnings > 0 ? ` ${plural(warnings, 'warning')}: \`npm run check\` lists them.` : '';
  // Reused: the same bytes as the previous build's file, or as another response (ifs and spectra
  // share the catalogues text), hard-linked instead of written.
  const reused = stats && stats.linked > 0 ? `, ${stats.linked} reused` : '';
  const cached = result.cache.hits > 0 ? ` (${result.cache.hits} read from the cache)` : '';
  // The output's size as a host serves it, each file once per path; on disk, files of the same bytes
  // are one file linked under several paths, and `du` counts them once.
  const size = stats ? sizeText(stats.size) : sizeText(0);
  const disk = stats && stats.disk !== stats.size ? `, ${sizeText(stats.disk)} on disk` : '';
  return `Built ${files} files of ${size}${disk} (${stats?.written ?? 0} written${reused}) from ${result.files.length} metadata files${cached}${say` into ${out} for ${baseUrl}`} in ${seconds} s.${note}\n`;
}

// ---- The program ---------------------------------------------------------------------------------------

function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return port;
}

function parseHdu(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected an HDU number (0 is the primary HDU)');
  return Number(value);
}

function parseArm(value: string): string {
  const arm = value.toLowerCase();
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(arm)) throw new InvalidArgumentError('expected an arm name of letters, digits, _ or -, such as blue');
  return arm;
}

function parseId(value: string): number {
  if (!/^[1-9]\d*$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('expected a positive whole number');
  return Number(value);
}

/** Builds the program without running it, so tests can parse arguments. */
export function createProgram(given: Io, setExit: (code: number) => void): Command {
  // Everything said goes out printable: names and values from files cannot drive the terminal.
  const io: Io = { ...given, stdout: (t) => given.stdout(printable(t)), stderr: (t) => given.stderr(printable(t)) };
  const program = new Command('archive-schema')
    .description("Publishes an archive's schema metadata (YAML) as a static, read-only JSON API.")
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      // Commander's errors quote the arguments given, which can hold a line break.
      outputError: (text, write) => write(`${shown(text.replace(/\n$/, ''))}\n`),
    })
    .version(VERSION, '-V, --version', 'print the version')
    // Program options only before the command: `new group ... --version v02` is the group's version.
    .enablePositionalOptions()
    .showHelpAfterError('(run archive-schema --help for usage)');

  const resolve = (p: string) => path.resolve(io.cwd, p);
  /** The change records' folder: as given, or changes/ beside the metadata folder. */
  const changesDir = (opts: { metadata: string; changes?: string }) =>
    opts.changes !== undefined ? resolve(opts.changes) : path.join(path.dirname(resolve(opts.metadata)), 'changes');
  // The progress line is the one thing that moves the cursor, with its own escapes.
  const progress = io.progress ? progressLine(given.stderr) : undefined;
  /** Ends the progress line, and says so if the cache had to be cleared on the way. */
  const finished = (result: CheckResult, command: string) => {
    progress?.end();
    if (result.recovered)
      io.stderr(say`The build cache was damaged (${result.recovered}), so it was cleared and this ${command} ran without it.\n`);
  };
  const pipeline = (opts: PipelineOptions) => ({
    ...(opts.cache === false || opts.reference ? {} : { cacheDir: resolve(opts.cacheDir ?? DEFAULT_CACHE_DIR) }),
    workers: opts.workers ?? defaultWorkers(),
    ...(opts.reference ? { reference: true } : {}),
    ...(progress ? { onProgress: progress.update } : {}),
    onWait: (message: string) => {
      io.stderr(say`archive-schema: ${message}\n`);
    },
  });
  /** The metadata's problems, for a command that stops at its errors. */
  const reportProblems = (diagnostics: Diagnostic[], outcome: string, quiet?: boolean) => {
    io.stderr(formatReport(diagnostics, outcome, { quiet: Boolean(quiet) }));
    setExit(EXIT.invalid);
  };
  const pipelineOptions = (command: Command) =>
    command
      .option('--cache-dir <dir>', 'where to keep the build cache', DEFAULT_CACHE_DIR)
      .option('--no-cache', 'neither read nor write the cache')
      .option('--workers <n>', 'worker threads for parsing and rendering (default: one per core)', parseCount)
      .option('--reference', 'take the straightforward slow path (no cache, no splicing), to compare outputs');

  pipelineOptions(
    program
      .command('check')
      .description('validate the metadata without writing anything')
      .option('--metadata <dir>', 'metadata folder', 'metadata')
      .addOption(new Option('--format <format>', 'report format').choices(['text', 'github', 'json']).default('text'))
      .option('--strict', 'treat warnings as errors')
      .option('--quiet', 'list errors only (warnings are counted)')
      .option(
        '--base <rev>',
        'git revision to compare with (e.g. origin/main): published ids must keep their meaning, released data changes only as a recorded correction, the changes are in a new change record, and warnings are reported only on changed lines',
      )
      .option('--changes <dir>', CHANGES_HELP),
  ).action(
    async (
      opts: {
        metadata: string;
        format: 'text' | 'github' | 'json';
        strict?: boolean;
        quiet?: boolean;
        base?: string;
        changes?: string;
      } & PipelineOptions,
    ) => {
      const result = await check({
        metadataDir: resolve(opts.metadata),
        displayRoot: io.cwd,
        changesDir: changesDir(opts),
        ...(opts.base ? { base: opts.base } : {}),
        ...pipeline(opts),
      });
      finished(result, 'check');
      const diagnostics = opts.strict ? strictly(result.diagnostics) : result.diagnostics;
      const { errors } = countBySeverity(diagnostics);
      const listed = opts.quiet ? diagnostics.filter((d) => d.severity === 'error') : diagnostics;
      if (opts.format === 'github') io.stdout(formatGithub(listed));
      else if (opts.format === 'json') io.stdout(formatJson(listed));
      else {
        const outcome =
          errors > 0 ? 'The metadata is invalid; fix the errors above.' : `${result.files.length} metadata files checked: no errors.`;
        io.stdout(formatReport(diagnostics, outcome, { quiet: Boolean(opts.quiet) }));
      }
      setExit(errors > 0 ? EXIT.invalid : EXIT.ok);
    },
  );

  pipelineOptions(
    program
      .command('build')
      .description('validate the metadata and write the static API into the output folder')
      .option('--metadata <dir>', 'metadata folder', 'metadata')
      .option('--out <dir>', 'output folder (replaced as a whole, only when the build succeeds)', 'dist')
      .addOption(
        new Option(
          '--base-url <url>',
          "absolute URL the site is served from (default: Netlify's URL for the deploy, else http://127.0.0.1:8080, where serve listens)",
        ),
      )
      .option('--dry-run', 'write nothing; list the files a build would write, link and remove in the output folder, and why')
      .option(
        '--explain <path...>',
        'say why each of these files of the output (or every file in these folders) is written, linked, kept or removed',
      )
      .option(
        '--precompress',
        "also write a .gz and a .br copy beside each file a host compresses, for nginx's gzip_static and brotli_static (not for Netlify, which compresses at its edge)",
      )
      .option('--quiet', 'when the metadata is invalid, list its errors only (warnings are counted)')
      .option('--changes <dir>', `${CHANGES_HELP}, published as the changelog, its feed and JSON`),
  ).action(async (opts: BuildFlags) => {
    const started = Date.now();
    const baseUrl = resolveBaseUrl(opts.baseUrl, io.env);
    const result = await build({
      metadataDir: resolve(opts.metadata),
      outDir: resolve(opts.out),
      baseUrl,
      displayRoot: io.cwd,
      changesDir: changesDir(opts),
      ...(opts.dryRun ? { dryRun: true } : {}),
      ...(opts.precompress ? { precompress: true } : {}),
      ...pipeline(opts),
    });
    finished(result, 'build');
    if (!result.plans) {
      const outcome = opts.dryRun
        ? 'A build would stop here; nothing was written.'
        : say`Nothing was written; ${opts.out} was left as it was.`;
      reportProblems(result.diagnostics, outcome, opts.quiet);
      return;
    }
    if (opts.explain && result.decision) io.stdout(printable(formatExplained(result.decision, opts.explain, opts.out)));
    if (opts.dryRun && result.decision) io.stdout(printable(formatDryRun(result.decision, opts.out)));
    else if (!opts.dryRun) io.stdout(formatBuilt(result, opts.out, baseUrl, ((Date.now() - started) / 1000).toFixed(1)));
    for (const notice of result.notices ?? []) io.stderr(say`archive-schema: ${notice}\n`);
    setExit(EXIT.ok);
  });

  program
    .command('serve')
    .description('preview a built site locally, routed as Netlify routes it')
    .option('--dir <dir>', 'built site to serve', 'dist')
    .option('--port <n>', 'port to listen on (0 picks a free one)', parsePort, DEFAULT_PORT)
    .option('--host <host>', 'address to listen on', DEFAULT_HOST)
    .option('--config <file>', "netlify.toml to route with (default: the project's)")
    .action(async (opts: { dir: string; port: number; host: string; config?: string }) => {
      // Netlify's redirect engine is WebAssembly: loaded only when a server starts.
      const { startServer } = await import('./hosting/serve.ts');
      const server = await startServer({
        dir: resolve(opts.dir),
        port: opts.port,
        host: opts.host,
        ...(opts.config ? { config: resolve(opts.config) } : {}),
      });
      io.stdout(
        say`Serving ${opts.dir} at ${server.url} (try ${server.url}${requestTarget('list', { data_type: DATA_TYPES[0] })}). Press Ctrl-C to stop.\n`,
      );
      io.onServe?.(server);
      await new Promise<void>((done) => server.server.once('close', () => done()));
      setExit(EXIT.ok);
    });

  program
    .command('fmt')
    .description('put every metadata file in the canonical form (key order, quoting, indentation), keeping comments')
    .option('--metadata <dir>', 'metadata folder', 'metadata')
    .option('--check', 'change nothing; exit 1 when a file is not in canonical form')
    .addOption(new Option('--format <format>', 'report format').choices(['text', 'github']).default('text'))
    .action(async (opts: { metadata: string; check?: boolean; format: 'text' | 'github' }) => {
      // The rewriting commands need the position-keeping YAML parser: loaded when they run.
      const { formatMetadata } = await import('./curation/fmt.ts');
      const result = await formatMetadata(resolve(opts.metadata), io.cwd, { check: Boolean(opts.check) });
      const notes = opts.check
        ? result.changed.map((file) => ({
            file,
            line: 0,
            col: 0,
            severity: 'error' as const,
            rule: 'fmt/not-canonical',
            message: 'is not in canonical form; run `npm run fmt` and commit the result',
          }))
        : [];
      const problems = [...result.refused, ...notes];
      if (opts.format === 'github') {
        io.stdout(formatGithub(problems));
      } else {
        if (result.refused.length > 0) io.stderr(formatReport(result.refused, 'These files were left as they were.'));
        const verb = opts.check ? 'would be reformatted' : 'reformatted';
        for (const file of result.changed) io.stdout(say`${file} ${verb}\n`);
        io.stdout(`${plural(result.changed.length, 'file')} ${verb}, ${result.unchanged} already canonical.\n`);
      }
      setExit(problems.length > 0 ? EXIT.invalid : EXIT.ok);
    });

  program
    .command('new')
    .description(`scaffold a file: ${SCAFFOLDED.map((k) => `new ${k.scaffold?.command ?? ''} ${k.scaffold?.example ?? ''}`).join(' | ')}`)
    .addArgument(new Argument('<kind>', 'what to create').choices(SCAFFOLDED.map((k) => k.scaffold?.command ?? '')))
    .argument('<path>', `where it goes, by names: ${SCAFFOLDED.map((k) => k.scaffold?.example ?? '').join(', ')}`)
    .option('--metadata <dir>', 'metadata folder', 'metadata')
    .option('--pretty-name <text>', 'display name')
    .option('--title <text>', 'survey title')
    .option('--description <text>', 'description')
    .option('--pi <name>', 'survey principal investigator')
    .option('--website <url>', 'survey web site')
    .option('--contact <"Name <email>">', "contact (default: the parent's)")
    .option('--version <v>', 'version (a number for a release)')
    .option('--now <instant>', 'the instant to write instead of the current time')
    .action(async (kind: string, target: string, opts: Record<string, string | undefined> & { metadata: string }) => {
      const fields = Object.fromEntries(
        (['prettyName', 'title', 'description', 'pi', 'website', 'contact', 'version'] as const).flatMap((k) =>
          opts[k] !== undefined ? [[k, opts[k]]] : [],
        ),
      );
      const [{ scaffold }, { nowInstant }] = await Promise.all([import('./curation/new.ts'), import('./curation/stamp.ts')]);
      const result = await scaffold(kind, target, {
        metadataDir: resolve(opts.metadata),
        displayRoot: io.cwd,
        now: opts.now ?? nowInstant(),
        fields,
      });
      io.stdout(say`Created ${result.file}${result.id !== undefined ? ` with id ${result.id}` : ''}.\n`);
      if (result.todo.length > 0) io.stdout(formatReport(result.todo, 'Fill these in, then run `npm run check`.'));
      setExit(EXIT.ok);
    });

  const printImport = (report: { file: string; lines: string[]; notes?: Diagnostic[] }) => {
    for (const line of report.lines) io.stdout(say`${report.file}: ${line}\n`);
    if (report.notes && report.notes.length > 0) io.stdout(formatReport(report.notes, 'See to these in the file.'));
    io.stdout('Run `npm run stamp` to set created and updated, then `npm run check`.\n');
    setExit(EXIT.ok);
  };
  const importing = program
    .command('import')
    .description('write what a file already says into the metadata: import columns | import region | import product | import tableset');
  importing
    .command('columns')
    .description("a FITS binary-table header, a VOTable's FIELDs or a CSV header → the columns of a table")
    .argument('<file>', 'FITS file, FITS header as text, VOTable, or CSV')
    .requiredOption('--into <group.yaml>', 'the catalogue group file to write into')
    .requiredOption('--table <name>', 'the table (created when the group has none of that name)')
    .option('--hdu <n>', 'FITS HDU to read (default: the first table)', parseHdu)
    .option('--votable-table <name>', 'VOTable TABLE to read (default: the first)')
    .option('--metadata <dir>', 'metadata folder', 'metadata')
    .action(async (source: string, opts: { into: string; table: string; hdu?: number; votableTable?: string; metadata: string }) => {
      const { importColumns } = await import('./curation/import.ts');
      printImport(await importColumns({ metadataDir: resolve(opts.metadata), displayRoot: io.cwd, source: resolve(source), ...opts }));
    });
  importing
    .command('region')
    .description('a FITS image header (or a text dump of one) → an imaging region of a band')
    .argument('<file>', 'FITS file, or FITS header as text')
    .requiredOption('--into <facility.yaml>', 'the imaging facility file to write into')
    .requiredOption('--band <name>', 'the band the region belongs to')
    .option('--name <name>', "the region's name (default: OBJECT, else the file name)")
    .option('--hdu <n>', 'FITS HDU to read (default: the first image)', parseHdu)
    .option('--metadata <dir>', 'metadata folder', 'metadata')
    .action(async (source: string, opts: { into: string; band: string; name?: string; hdu?: number; metadata: string }) => {
      const { importRegion } = await import('./curation/import.ts');
      printImport(await importRegion({ metadataDir: resolve(opts.metadata), displayRoot: io.cwd, source: resolve(source), ...opts }));
    });

  importing
    .command('product')
    .description('a FITS cube, map or spectrum (or a text dump of its header) → a data product of an IFS or spectra facility')
    .argument('<file>', 'FITS file, or FITS header as text')
    .requiredOption('--into <facility.yaml>', 'the IFS or spectra facility file to write into')
    .requiredOption('--name <name>', 'the product (updated from the file when the facility has one of that name)')
    .addOption(
      new Option('--type <type>', 'product_type (default: from the axes: a cube, a spectrum, or a map)').choices([
        'cube',
        'map',
        'spectrum',
      ]),
    )
    .option('--arm <name>', 'the arm the light went through (default: from ARM, SPECTID or CAMERA when one names it)', parseArm)
    .option('--id <n>', 'the id of a new product (default: the next free one)', parseId)
    .option('--hdu <n>', 'FITS HDU holding the data (default: the primary if it has data, else the first image that has)', parseHdu)
    .option('--metadata <dir>', 'metadata folder', 'metadata')
    .action(
      async (
        source: string,
        opts: { into: string; name: string; type?: 'cube' | 'map' | 'spectrum'; arm?: string; id?: number; hdu?: number; metadata: string },
      ) => {
        const { importProduct } = await import('./curation/import.ts');
        printImport(await importProduct({ metadataDir: resolve(opts.metadata), displayRoot: io.cwd, source: resolve(source), ...opts }));
      },
    );

  importing
    .command('tableset')
    .description("a TAP service's VOSI tables document, or a VOTable of its TAP_SCHEMA → a catalogue group per VO schema")
    .argument('<file>', "VOSI tables document (the service's /tables), or TAP_SCHEMA as a VOTable in TABLEDATA")
    .requiredOption('--into <release folder>', 'the data release to add the groups to: metadata/SURVEY/RELEASE')
    .option('--schema <name...>', 'the VO schemas to import (default: all but TAP_SCHEMA)')
    .option('--metadata <dir>', 'metadata folder', 'metadata')
    .option('--now <instant>', 'the instant to write as created and updated instead of the current time')
    .action(async (source: string, opts: { into: string; schema?: string[]; metadata: string; now?: string }) => {
      const [{ importTableset }, { nowInstant }] = await Promise.all([
        import('./curation/import-tableset.ts'),
        import('./curation/stamp.ts'),
      ]);
      const report = await importTableset({
        metadataDir: resolve(opts.metadata),
        displayRoot: io.cwd,
        source: resolve(source),
        into: opts.into,
        ...(opts.schema ? { schemas: opts.schema } : {}),
        now: opts.now ?? nowInstant(),
      });
      for (const line of report.lines) io.stdout(`${line}\n`);
      if (report.notes.length > 0) io.stdout(formatReport(report.notes, 'See to these in the files.'));
      io.stdout('Fill in what the service does not say (contacts, documentation), then run `npm run check`.\n');
      setExit(EXIT.ok);
    });

  program
    .command('stamp')
    .description('set updated on nodes changed since a revision, and created on new nodes')
    .option('--metadata <dir>', 'metadata folder', 'metadata')
    .option('--base <rev>', 'revision to compare with (e.g. origin/main)', 'HEAD')
    .option('--now <instant>', 'the instant to write instead of the current time, e.g. 2026-01-01T00:00:00Z')
    .action(async (opts: { metadata: string; base: string; now?: string }) => {
      const { nowInstant, stamp } = await import('./curation/stamp.ts');
      const now = opts.now ?? nowInstant();
      const { stamped, seen } = await stamp({ metadataDir: resolve(opts.metadata), displayRoot: io.cwd, base: opts.base, now });
      for (const change of [...stamped, ...seen]) io.stdout(say`${change.file}: ${change.what}\n`);
      const files = new Set(stamped.map((c) => c.file)).size;
      let outcome = say`Stamped ${plural(stamped.length, 'node')} in ${plural(files, 'file')} with ${now}.`;
      if (stamped.length === 0) {
        outcome =
          seen.length > 0
            ? say`Nothing to stamp: the new nodes above have their timestamps already, and no other node changed since ${opts.base}.`
            : say`Nothing to stamp: no node changed since ${opts.base}, or all are stamped already.`;
      }
      io.stdout(`${outcome}\n`);
      setExit(EXIT.ok);
    });

  program
    .command('diff')
    .description(
      'what changed in the metadata, matched by id: since the branch left the default branch (or --base), or between two folders',
    )
    .option('--metadata <dir>', 'metadata folder', 'metadata')
    .option('--base <rev>', 'revision to compare with (default: the merge base of HEAD and the default branch)')
    .option('--head <rev>', 'revision to compare (default: the working tree)')
    .option('--from <dir>', 'a metadata folder to compare with (give --to too), instead of revisions')
    .option('--to <dir>', 'the metadata folder to compare')
    .addOption(new Option('--format <format>', 'report format').choices(['text', 'markdown', 'json']).default('text'))
    .action(
      async (opts: {
        metadata: string;
        base?: string;
        head?: string;
        from?: string;
        to?: string;
        format: 'text' | 'markdown' | 'json';
      }) => {
        const { appendJobSummary, diffMetadata, formatDiff } = await import('./changes/commands.ts');
        const result = await diffMetadata({
          metadataDir: resolve(opts.metadata),
          displayRoot: io.cwd,
          env: io.env,
          ...(opts.base !== undefined ? { base: opts.base } : {}),
          ...(opts.head !== undefined ? { head: opts.head } : {}),
          ...(opts.from !== undefined ? { from: opts.from } : {}),
          ...(opts.to !== undefined ? { to: opts.to } : {}),
        });
        if (result.problems.length > 0) {
          reportProblems(result.problems, 'These files cannot be read, so nothing was compared; `check` lists every problem.');
          return;
        }
        io.stdout(formatDiff(result, opts.format));
        // In GitHub Actions, the run's page shows the Markdown too (on a pull request's checks).
        const summary = io.env.GITHUB_STEP_SUMMARY;
        if (summary) appendJobSummary(summary, result);
        setExit(EXIT.ok);
      },
    );

  const changes = program
    .command('changes')
    .description('change records kept beside the metadata (docs/changes.md): changes add | changes backfill');
  changes
    .command('add')
    .description('record what changed since the base, with a one-line summary, in a new file in the change records folder')
    .requiredOption('--summary <text>', 'one line saying what changed and why, for the changelog')
    .option('--base <rev>', 'revision to compare with (default: the merge base of HEAD and the default branch)')
    .option('--correction <reason>', 'mark the changes to released data as corrections, for this reason (published with them)')
    .option('--date <instant>', "the record's date, instead of the newest stamped `updated` or the commit's (e.g. 2026-03-02T10:15:00Z)")
    .option('--metadata <dir>', 'metadata folder', 'metadata')
    .option('--changes <dir>', CHANGES_HELP)
    .option('--dry-run', 'print the record; write nothing')
    .action(
      async (opts: {
        summary: string;
        base?: string;
        correction?: string;
        date?: string;
        metadata: string;
        changes?: string;
        dryRun?: boolean;
      }) => {
        const { changesText, planRecord, writeRecord } = await import('./changes/commands.ts');
        const result = await planRecord({
          metadataDir: resolve(opts.metadata),
          changesDir: changesDir(opts),
          displayRoot: io.cwd,
          env: io.env,
          summary: opts.summary,
          ...(opts.base !== undefined ? { base: opts.base } : {}),
          ...(opts.correction !== undefined ? { correction: opts.correction } : {}),
          ...(opts.date !== undefined ? { date: opts.date } : {}),
        });
        if ('problems' in result) {
          reportProblems(result.problems, result.outcome);
          return;
        }
        if ('nothing' in result) {
          io.stdout(`${result.nothing}\n`);
          setExit(EXIT.ok);
          return;
        }
        const { plan } = result;
        const marked =
          opts.correction === undefined
            ? ''
            : plan.corrections > 0
              ? ` ${plural(plan.corrections, 'change')} to released data marked as ${plan.corrections === 1 ? 'a correction' : 'corrections'}.`
              : ' No change touches a released release, so none is marked as a correction.';
        if (opts.dryRun) {
          io.stdout(plan.text);
          io.stdout(
            `Would write ${plan.file} (${changesText(plan.changes)} since ${plan.base}, dated ${plan.date}).${marked} Nothing was written.\n`,
          );
        } else {
          writeRecord(changesDir(opts), plan);
          io.stdout(
            `Wrote ${plan.file}: ${changesText(plan.changes)} since ${plan.base}, dated ${plan.date}.${marked} Commit it with the metadata.\n`,
          );
        }
        setExit(EXIT.ok);
      },
    );
  changes
    .command('backfill')
    .description("write a record for each past commit that changed the metadata, dated by the commit, from the repository's history")
    .requiredOption('--since <rev>', 'the revision to start after (its metadata is the starting point)')
    .option('--metadata <dir>', 'metadata folder', 'metadata')
    .option('--changes <dir>', CHANGES_HELP)
    .option('--dry-run', 'list the records it would write; write nothing')
    .action(async (opts: { since: string; metadata: string; changes?: string; dryRun?: boolean }) => {
      const { changesText, planBackfill, writeRecord } = await import('./changes/commands.ts');
      const result = await planBackfill({
        metadataDir: resolve(opts.metadata),
        changesDir: changesDir(opts),
        displayRoot: io.cwd,
        since: opts.since,
      });
      if ('problems' in result) {
        reportProblems(result.problems, result.outcome);
        return;
      }
      for (const plan of result.plans) {
        if (!opts.dryRun) writeRecord(changesDir(opts), plan);
        io.stdout(
          `${opts.dryRun ? 'Would write' : 'Wrote'} ${plan.file} for ${plan.commit.commit.slice(0, 7)}: ${changesText(plan.changes)}.\n`,
        );
      }
      for (const { commit, why } of result.skipped) io.stdout(`Skipped ${commit.commit.slice(0, 7)} (${commit.date}), as ${why}.\n`);
      const verb = opts.dryRun ? 'Would write' : 'Wrote';
      io.stdout(
        `${verb} ${plural(result.plans.length, 'record')} for the commits since ${opts.since}; skipped ${result.skipped.length}.${opts.dryRun ? ' Nothing was written.' : ''}\n`,
      );
      setExit(EXIT.ok);
    });

  program
    .command('routes')
    .description("print netlify.toml as the route table makes it; --check or --write it and nginx's script")
    .option('--file <file>', 'the netlify.toml to compare or write', 'netlify.toml')
    .option('--check', 'exit 1 when netlify.toml or nginx/archive-schema.js differs from the route table')
    .option('--write', 'write netlify.toml and nginx/archive-schema.js')
    .action(async (opts: { file: string; check?: boolean; write?: boolean }) => {
      const { netlifyToml, hostScript } = await import('./hosting/netlify.ts');
      const mode = opts.write ? 'write' : opts.check ? 'check' : 'print';
      const results = [
        { shown: opts.file, ...(await netlifyToml(mode, resolve(opts.file))) },
        ...(mode === 'print' ? [] : [{ shown: path.relative(io.cwd, NGINX_SCRIPT), ...(await hostScript(mode, NGINX_SCRIPT)) }]),
      ];
      for (const { shown: file, outcome, text } of results) {
        const said = {
          printed: text,
          written: say`Wrote ${file}.\n`,
          matches: say`${file} matches the route table.\n`,
          differs: say`${file} differs from the route table in src/site/routes.ts; run \`npm run routes\` and commit the result.\n`,
        }[outcome];
        if (outcome === 'differs') io.stderr(said);
        else io.stdout(said);
      }
      setExit(results.some((r) => r.outcome === 'differs') ? EXIT.invalid : EXIT.ok);
    });

  program
    .command('nginx')
    .description('print the nginx configuration that serves a built site as Netlify and `serve` do')
    .option('--root <dir>', 'the built site nginx serves (its absolute path goes into the configuration)', 'dist')
    .option('--listen <address>', "nginx's listen address: HOST:PORT, [IPv6]:PORT or PORT", '127.0.0.1:8080')
    .option('--server-name <names>', "the host names it answers to (nginx's server_name), e.g. schema.example.org")
    .option('--standalone', 'a whole nginx.conf to run as `nginx -p PREFIX -c FILE`, its pid file, logs and temporary folders under PREFIX')
    .option('--modules <dir>', "where nginx's dynamic modules are (Debian: the JavaScript and brotli modules)", NGINX_MODULES_DIR)
    .option('--no-brotli', 'leave brotli out even when its modules are installed')
    .action(async (opts: { root: string; listen: string; serverName?: string; standalone?: boolean; modules: string; brotli: boolean }) => {
      const { nginxConfig } = await import('./hosting/nginx.ts');
      io.stdout(
        await nginxConfig({
          shownRoot: opts.root,
          root: resolve(opts.root),
          listen: opts.listen,
          ...(opts.serverName ? { serverName: opts.serverName } : {}),
          script: NGINX_SCRIPT,
          modulesDir: resolve(opts.modules),
          ...(opts.standalone ? { standalone: true } : {}),
          ...(opts.brotli ? {} : { brotli: false }),
        }),
      );
      setExit(EXIT.ok);
    });

  return program;
}

/**
 * A failure of the machine rather than of archive-schema (a full disk, a permission refused
 * where the command could not foresee it): one sentence naming the file and what to do.
 */
function environmentTrouble(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  const remedy = remedyFor(code);
  if (remedy === undefined) return undefined;
  // Node's message names the call and the path: "EACCES: permission denied, open 'dist/x.json'".
  return `${(error as Error).message.split('\n')[0] ?? code}; ${remedy}`;
}

/** Runs the CLI with the given arguments; resolves to the exit code. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  let code: number = EXIT.ok;
  const program = createProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // --help and --version end here too, with exit code 0.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.trouble;
    if (error instanceof ArchiveSchemaError) {
      io.stderr(`archive-schema: ${shown(error.message)}\n`);
      return error.exitCode;
    }
    const trouble = environmentTrouble(error);
    if (trouble) {
      io.stderr(`archive-schema: ${shown(trouble)}\n`);
      return EXIT.trouble;
    }
    // A bug, not a user's mistake: the stack trace helps whoever fixes it.
    io.stderr(printable(`archive-schema: internal error\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`));
    return EXIT.trouble;
  }
  return code;
}

/** The entry point of bin/archive-schema.js. */
export async function main(): Promise<void> {
  // Ctrl-C stops a command at once, as the system does by default (the next build clears what a
  // stopped one left); only a server is closed first, so it lets go of its port.
  let running: RunningServer | undefined;
  const stop = () => {
    void running?.close();
  };
  // Piped into `head` or a closed pager: stop quietly, as command-line tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  process.exitCode = await run(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    // Progress only where a person watches: a terminal, and not in CI.
    progress: process.stderr.isTTY && !process.env.CI,
    onServe: (server) => {
      running = server;
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
  });
  process.removeListener('SIGINT', stop);
  process.removeListener('SIGTERM', stop);
}
