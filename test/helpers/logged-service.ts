import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startService, type RunningService, type StartOptions } from '../../src/app/service.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';

export interface LoggedService {
  service: RunningService;
  base: string;
  dir: string;
  /** Stops the service and returns everything it logged. */
  stop: () => Promise<string>;
  cleanup: () => void;
}

/**
 * The whole service (`afford serve` in-process) on a fresh DuckDB file, on a
 * free port, logging at `level` into a file that the test reads afterwards.
 */
export async function startLoggedService(level = 'trace', settings: Record<string, string> = {}, options: StartOptions = {}): Promise<LoggedService> {
  const dir = mkdtempSync(path.join(tmpdir(), 'afford-logged-'));
  const logFile = path.join(dir, 'service.log');
  const stream = createWriteStream(logFile);
  const logger = createLogger(level, stream);
  const config = loadConfig({}, { AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_PORT: '0', AFFORD_EXPORT_DIR: path.join(dir, 'export'), ...settings });
  const service = await startService(config, logger, options);
  return {
    service,
    base: service.address,
    dir,
    stop: async () => {
      await service.stop();
      stream.end();
      await once(stream, 'finish');
      return readFileSync(logFile, 'utf8');
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
