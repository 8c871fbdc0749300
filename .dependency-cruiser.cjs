// The walls between src/'s folders, checked by `npm run lint` (dependency-cruiser): each folder is a
// stage of the pipeline or an output, and imports only the layers below it. docs/architecture.md
// draws them. A rule broken names the importing file, the imported one and the rule.
//
//   build.ts, cli.ts, digest-worker.ts   the orchestrator and the command: anything below
//   hosting/     serving a built site (serve, nginx, Netlify)   → outputs, destination, site, foundation
//   curation/    the curator's commands (fmt, new, import, stamp) → pipeline, readers, kinds, vocabularies, site, foundation
//   changes/     what changed between two versions of the metadata → pipeline, kinds, vocabularies, site, foundation
//   outputs/     each output's planner and texts                   → changes, pipeline, kinds, vocabularies, site, foundation
//   destination/ deciding and writing the output folder            → site, foundation
//   pipeline/    scan, parse, validate, digest, assemble, rules     → readers, kinds, vocabularies, site, foundation
//   readers/     FITS, VOTable and CSV files                        → kinds, vocabularies, site, foundation
//   kinds/       the metadata's kinds of nodes and files            → vocabularies, site, foundation
//   vocabularies/ UCDs, VOUnit, instants                           → foundation
//   site/        what every layer shares: routes, plans, fragments  → foundation
//   foundation:  the files at src/'s top (errors, diagnostics, project, processes, locks)
//
// Apart from the layers, outputs/browser/client/ is the schema browser's script, bundled for the
// visitor's browser: it imports only its own modules and the pure ones in CLIENT_SHARED, and the
// build's code reads its bundle (outputs/browser/script.ts), never its modules.

/** A layer and the layers it may import besides itself. */
const LAYERS = {
  hosting: ['outputs', 'destination', 'site', 'foundation'],
  curation: ['pipeline', 'readers', 'kinds', 'vocabularies', 'site', 'foundation'],
  // Change records are dated by ISO 8601 instants, read as the metadata's are.
  changes: ['pipeline', 'kinds', 'vocabularies', 'site', 'foundation'],
  outputs: ['changes', 'pipeline', 'kinds', 'vocabularies', 'site', 'foundation'],
  destination: ['site', 'foundation'],
  pipeline: ['readers', 'kinds', 'vocabularies', 'site', 'foundation'],
  readers: ['kinds', 'vocabularies', 'site', 'foundation'],
  kinds: ['vocabularies', 'site', 'foundation'],
  vocabularies: ['foundation'],
  site: ['foundation'],
  foundation: ['foundation'],
};

/** The files at src/'s top that are the foundation, not the orchestrator. */
const FOUNDATION = '^src/(errors|diagnostics|project|processes|locks)\\.ts$';
const ORCHESTRATOR = '^src/(build|cli|digest-worker)\\.ts$';
const CLIENT = '^src/outputs/browser/client/';
/** Modules outside the client it may import: pure code with no Node.js in it (none yet). */
const CLIENT_SHARED = [];
const pathOf = (layer) => (layer === 'foundation' ? FOUNDATION : `^src/${layer}/`);
const ALL = Object.keys(LAYERS);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...ALL.map((layer) => ({
      name: `layer-${layer}`,
      comment: `${layer} imports only ${LAYERS[layer].join(', ')} (see .dependency-cruiser.cjs)`,
      severity: 'error',
      from: { path: pathOf(layer) },
      to: {
        path: `^src/`,
        pathNot: [pathOf(layer), ...LAYERS[layer].map(pathOf)],
      },
    })),
    {
      name: 'orchestrator-imported',
      comment: 'nothing below imports the orchestrator or the command: they sit on top',
      severity: 'error',
      from: { path: '^src/', pathNot: ORCHESTRATOR },
      to: { path: ORCHESTRATOR },
    },
    {
      name: 'no-circular',
      comment: 'no import circle between files: each file reads on top of what it imports',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'client-imports-node',
      comment: "the browser's script imports only its own modules and pure shared ones (CLIENT_SHARED): it runs in a browser",
      severity: 'error',
      from: { path: CLIENT },
      to: { path: '^src/', pathNot: [CLIENT, ...CLIENT_SHARED] },
    },
    {
      name: 'client-imported',
      comment: "the build reads the browser's script as its bundle (outputs/browser/script.ts), never its modules",
      severity: 'error',
      from: { path: '^src/', pathNot: CLIENT },
      to: { path: CLIENT },
    },
    {
      name: 'outside-src',
      comment: 'src/ imports nothing from test/, bench/ or scripts/',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
