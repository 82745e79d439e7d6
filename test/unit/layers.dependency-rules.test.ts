import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const CRUISER = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** Runs the checker exactly as `npm run layers` does, in `cwd`: its exit status and the violations it prints. */
function cruise(cwd: string): { status: number | null; violations: Violation[]; output: string } {
  const run = spawnSync(process.execPath, [CRUISER, 'src', 'jobs', 'bin', '--config', '.dependency-cruiser.mjs'], { cwd, encoding: 'utf8' });
  const output = `${run.stdout}${run.stderr}`;
  // Lines such as "  error cli-not-on-api: src/cli/probe.ts → src/api/services/index.ts".
  const violations = [...output.matchAll(/^\s*error (\S+): (\S+) → (\S+)$/gmu)].map(([, rule = '', from = '', to = '']) => ({ rule, from, to }));
  return { status: run.status, violations, output };
}

/**
 * Imports that break the stated layering, among them every kind that the
 * code held before the layering was enforced. Each is written into a copy of
 * the repository, and the checker must name it with the rule it breaks.
 */
const BAD_IMPORTS: ReadonlyArray<{ file: string; source: string; rule: string }> = [
  { file: 'src/domain/probe.ts', source: "import '../db/store.js';", rule: 'domain-is-pure' },
  { file: 'src/db/probe.ts', source: "import '../ingest/types.js';", rule: 'db-on-domain' },
  { file: 'src/webhooks/probe.ts', source: "import '../ingest/types.js';", rule: 'work-on-db' },
  { file: 'src/ingest/probe.ts', source: "import '../webhooks/outbox.js';", rule: 'work-on-db' },
  // The report archive is the reports layer's; it never reaches up to a job.
  { file: 'src/reports/probe.ts', source: "import '../../jobs/registry.js';", rule: 'work-on-db' },
  { file: 'src/tasks/probe.ts', source: "import '../api/errors.js';", rule: 'tasks-and-jobs-on-work' },
  { file: 'jobs/probe.ts', source: "import '../src/tasks/catch-up.js';", rule: 'tasks-and-jobs-on-work' },
  // The CLI once took ClientsService and a repository from the API.
  { file: 'src/cli/probe.ts', source: "import '../api/services/index.js';", rule: 'cli-not-on-api' },
  { file: 'src/api/probe.ts', source: "import '../app/service.js';", rule: 'api-below-app' },
  { file: 'src/app/probe.ts', source: "import '../cli/context.js';", rule: 'app-below-cli' },
  // An API repository and schema once imported a service; a route went straight to the database.
  { file: 'src/api/repositories/probe.ts', source: "import '../services/totals-tree.js';", rule: 'api-repositories-below-services' },
  { file: 'src/api/schemas/probe.ts', source: "import '../services/month-range.js';", rule: 'api-schemas-at-the-edge' },
  { file: 'src/api/routes/probe.ts', source: "import '../../db/script.js';", rule: 'api-routes-through-services' },
  { file: 'src/api/services/probe.ts', source: "import '../routes/health.routes.js';", rule: 'api-services-below-routes' },
  // A pipeline built, or webhook hooks attached, outside the composition root.
  {
    file: 'src/cli/probe-pipeline.ts',
    source: "import { IngestPipeline } from '../ingest/pipeline.js';\nexport const make = (...a: ConstructorParameters<typeof IngestPipeline>) => new IngestPipeline(...a);",
    rule: 'pipeline-built-by-the-composition-root',
  },
  { file: 'src/tasks/probe-hooks.ts', source: "import '../webhooks/ingest-hooks.js';", rule: 'pipeline-built-by-the-composition-root' },
  { file: 'src/generate/probe.ts', source: "import '../../test/helpers/store.js';", rule: 'product-not-on-tests' },
];

describe('the layering checker (npm run layers)', () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'afford-layers-'));
    for (const name of ['src', 'jobs', 'bin', 'deploy', 'test', 'tsconfig.json', 'package.json', '.dependency-cruiser.mjs']) {
      cpSync(path.join(ROOT, name), path.join(copy, name), { recursive: true });
    }
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  });

  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('passes on the code as it is', () => {
    const { status, violations, output } = cruise(ROOT);
    expect(violations).toEqual([]);
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  it('fails on each import against the rule, naming the rule', () => {
    for (const bad of BAD_IMPORTS) {
      mkdirSync(path.dirname(path.join(copy, bad.file)), { recursive: true });
      writeFileSync(path.join(copy, bad.file), `${bad.source}\n`);
    }
    const { status, violations } = cruise(copy);
    expect(status).not.toBe(0);
    for (const bad of BAD_IMPORTS) {
      expect(violations.filter((v) => v.from === bad.file).map((v) => v.rule), bad.file).toContain(bad.rule);
    }
  });

  it('lets a pipeline be named as a type anywhere: only building one is the composition root\'s', () => {
    rmSync(path.join(copy, 'src'), { recursive: true, force: true });
    cpSync(path.join(ROOT, 'src'), path.join(copy, 'src'), { recursive: true });
    rmSync(path.join(copy, 'jobs/probe.ts'), { force: true });
    writeFileSync(path.join(copy, 'src/cli/probe.ts'), "import type { IngestPipeline } from '../ingest/pipeline.js';\nexport type P = IngestPipeline;\n");
    const { status, violations, output } = cruise(copy);
    expect(violations).toEqual([]);
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });
});
