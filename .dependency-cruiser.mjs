/**
 * The layering of afford, checked by `npm run layers` (part of `npm test`).
 * README "How it is built" and docs/decisions.md "Layering" state the same
 * rule in words:
 *
 *   domain <- db <- ingest, reports, webhooks, clients, generate <- tasks, jobs, cluster <- api <- app <- cli
 *
 * The CLI uses the API only through the composition root (it starts the service).
 *
 * config.ts and logger.ts sit just above domain (config throws the catalogue's
 * errors): anything but domain may use them.
 * A layer imports only layers to its left; the modules of one layer do not
 * import each other. src/app/ is the composition root, the only place that
 * builds an ingest pipeline and wires the service together.
 */

/** Everything of ours: an import to anything else (node:, packages) is not a layering matter. */
const OURS = '^(src|jobs|bin|test|bench)/';
const BASE = 'src/(config|logger)[.]ts$';
const WORK = '(ingest|reports|webhooks|clients|generate)';
const CLI = '^(src/cli/|src/cli[.]ts$|bin/)';

/** A rule that the modules under `from` import only what `allowed` matches (besides themselves). */
function onlyOn(name, comment, from, allowed) {
  return { name, comment, severity: 'error', from: { path: from }, to: { path: OURS, pathNot: allowed } };
}

export default {
  forbidden: [
    onlyOn('domain-is-pure', 'domain is pure code: it imports nothing of ours.', '^src/domain/', '^src/domain/'),
    onlyOn('base-on-domain', 'config and logger import only domain (the error catalogue).', `^${BASE}`, '^src/domain/'),
    onlyOn('db-on-domain', 'db (the store, migrations, SQL loader) uses domain only.', '^src/db/', `^(src/(domain|db)/|${BASE})`),
    onlyOn(
      'work-on-db',
      'ingest, reports, webhooks, clients and generate use db and domain, never each other: what two of them share moves down.',
      `^src/${WORK}/`,
      `^(src/(domain|db|$1)/|${BASE})`,
    ),
    onlyOn(
      'tasks-and-jobs-on-work',
      'tasks, jobs and cluster compose the work below them (a task ingests and sends its webhook; a job assembles reports; cluster carries client-level state over Kafka), never each other, the API, the composition root or the CLI.',
      '^(src/tasks|src/cluster|jobs)/',
      `^(src/(domain|db|${WORK})/|${BASE}|$1/)`,
    ),
    {
      name: 'api-below-app',
      comment: 'the API is built by the composition root (src/app/); it never imports it, nor the CLI.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: `^src/app/|${CLI}` },
    },
    {
      name: 'app-below-cli',
      comment: 'the composition root is started by the CLI; it never imports it.',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: CLI },
    },
    {
      name: 'cli-not-on-api',
      comment:
        'the CLI starts the service through the composition root and otherwise uses the layers below the API: ' +
        'what a command shares with the API moves down (API clients live in src/clients/).',
      severity: 'error',
      from: { path: CLI },
      to: { path: '^src/api/' },
    },
    {
      name: 'pipeline-built-by-the-composition-root',
      comment:
        'an ingest pipeline is built in src/app/pipeline.ts only, with its webhook hooks; elsewhere it is only a type. ' +
        'The webhook hooks are handed to it there and nowhere else.',
      severity: 'error',
      from: { path: OURS, pathNot: '^(src/app/|src/ingest/|test/|bench/)' },
      to: { path: '^src/(ingest/pipeline|webhooks/ingest-hooks)[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'api-routes-through-services',
      comment: 'a route reads and writes through a service; only repositories and services reach the store.',
      severity: 'error',
      from: { path: '^src/api/routes/' },
      to: { path: '^src/(db|clients)/|^src/api/repositories/' },
    },
    {
      name: 'api-repositories-below-services',
      comment: 'a repository returns rows of its own types: it imports no service, route or schema.',
      severity: 'error',
      from: { path: '^src/api/repositories/' },
      to: { path: '^src/api/(services|routes|schemas)/' },
    },
    {
      name: 'api-schemas-at-the-edge',
      comment: 'schemas describe what comes in and goes out: services and routes import them, not the other way.',
      severity: 'error',
      from: { path: '^src/api/schemas/' },
      to: { path: '^src/api/(services|repositories|routes)/' },
    },
    {
      name: 'api-services-below-routes',
      comment: 'routes call services, never the other way.',
      severity: 'error',
      from: { path: '^src/api/services/' },
      to: { path: '^src/api/routes/' },
    },
    {
      name: 'product-not-on-tests',
      comment: 'what ships never imports test code.',
      severity: 'error',
      from: { path: '^(src|jobs|bin)/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      comment: 'a cycle makes two modules one: merge them, or move what they share down.',
      severity: 'error',
      from: { path: '^(src|jobs)/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that resolves to nothing.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'not-to-dev-dependency',
      comment: 'what ships does not need a devDependency at run time.',
      severity: 'error',
      from: { path: '^(src|jobs|bin)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Packages' subpath exports (tsx/esm/api) resolve as Node resolves them.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
