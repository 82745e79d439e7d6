/**
 * The layering of afford, checked by `npm run layers` (part of `npm test`).
 * README "How it is built" and docs/decisions.md "Layering" state the same
 * rule in words:
 *
 *   domain <- db <- ingest, reports, webhooks, clients, generate <- tasks, jobs, cluster <- api <- app <- cli
 *
 * The CLI uses the API only through the composition root (it starts the service).
 *
 * config.ts, logger.ts and heap.ts sit just above domain (config throws the
 * catalogue's errors): anything but domain may use them. v8-flag-names.ts,
 * which config asks what V8's flags are, imports nothing of ours.
 * A layer imports only layers to its left; the modules of one layer do not
 * import each other. src/app/ is the composition root, the only place that
 * builds an ingest pipeline and wires the service together.
 */

/** Everything of ours: an import to anything else (node:, packages) is not a layering matter. */
const OURS = '^(src|jobs|bin|test|bench)/';
const BASE = 'src/(config|logger|heap)[.]ts$';
const WORK = '(ingest|reports|webhooks|clients|generate)';
const CLI = '^(src/cli/|src/cli[.]ts$|bin/)';

/** A rule that no import goes from what `from` matches to what `to` matches. */
function never(name, comment, from, to) {
  return { name, comment, severity: 'error', from, to };
}

/** A rule that the modules under `from` import only what `allowed` matches (besides themselves). */
function onlyOn(name, comment, from, allowed) {
  return never(name, comment, { path: from }, { path: OURS, pathNot: allowed });
}

export default {
  forbidden: [
    onlyOn('domain-is-pure', 'domain is pure code: it imports nothing of ours.', '^src/domain/', '^src/domain/'),
    onlyOn('base-on-domain', 'config, logger and heap import only domain (the error catalogue), and config its V8 flag list.', `^${BASE}`, '^src/(domain/|v8-flag-names[.]ts$)'),
    onlyOn('v8-flag-names-is-a-leaf', "config's V8 flag list imports nothing of ours.", '^src/v8-flag-names[.]ts$', '^$'),
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
    never(
      'api-below-app',
      'the API is built by the composition root (src/app/); it never imports it, nor the CLI.',
      { path: '^src/api/' },
      { path: `^src/app/|${CLI}` },
    ),
    never(
      'app-below-cli',
      'the composition root is started by the CLI; it never imports it.',
      { path: '^src/app/' },
      { path: CLI },
    ),
    never(
      'cli-not-on-api',
      'the CLI starts the service through the composition root and otherwise uses the layers below the API: ' +
        'what a command shares with the API moves down (API clients live in src/clients/).',
      { path: CLI },
      { path: '^src/api/' },
    ),
    never(
      'pipeline-built-by-the-composition-root',
      'an ingest pipeline is built in src/app/pipeline.ts only, with its webhook hooks; elsewhere it is only a type. ' +
        'The webhook hooks are handed to it there and nowhere else.',
      { path: OURS, pathNot: '^(src/app/|src/ingest/|test/|bench/)' },
      { path: '^src/(ingest/pipeline|webhooks/ingest-hooks)[.]ts$', dependencyTypesNot: ['type-only'] },
    ),
    never(
      'api-routes-through-services',
      'a route reads and writes through a service; only repositories and services reach the store.',
      { path: '^src/api/routes/' },
      { path: '^src/(db|clients)/|^src/api/repositories/' },
    ),
    never(
      'api-repositories-below-services',
      'a repository returns rows of its own types: it imports no service, route or schema.',
      { path: '^src/api/repositories/' },
      { path: '^src/api/(services|routes|schemas)/' },
    ),
    never(
      'api-schemas-at-the-edge',
      'schemas describe what comes in and goes out: services and routes import them, not the other way.',
      { path: '^src/api/schemas/' },
      { path: '^src/api/(services|repositories|routes)/' },
    ),
    never(
      'api-services-below-routes',
      'routes call services, never the other way.',
      { path: '^src/api/services/' },
      { path: '^src/api/routes/' },
    ),
    never(
      'product-not-on-tests',
      'what ships never imports test code.',
      { path: '^(src|jobs|bin)/' },
      { path: '^test/' },
    ),
    never(
      'no-circular',
      'a cycle makes two modules one: merge them, or move what they share down.',
      { path: '^(src|jobs)/' },
      { circular: true },
    ),
    never(
      'not-to-unresolvable',
      'an import that resolves to nothing.',
      {},
      { couldNotResolve: true },
    ),
    never(
      'not-to-dev-dependency',
      'what ships does not need a devDependency at run time.',
      { path: '^(src|jobs|bin)/' },
      { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Packages' subpath exports (tsx/esm/api) resolve as Node resolves them.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
