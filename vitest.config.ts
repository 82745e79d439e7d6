import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    // One test file more than there are cores: many integration tests wait (a Kafka group's join,
    // a killed process's session, a child's start), and a third file fills those waits. On two
    // cores the suite took 10 min 25 s with three files at once against 12 min 47 s with two
    // (1,216 CPU-s against 1,354), every test passing.
    maxWorkers: availableParallelism() + 1,
  },
});
