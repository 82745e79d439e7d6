import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startService, type RunningService, type StartOptions } from '../../src/app/service.js';
import { ClientsRepository } from '../../src/clients/clients.repository.js';
import { ClientsService } from '../../src/clients/clients.service.js';
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

/** A new API client of the service and the headers of a JSON call with its first token. */
export async function clientJsonHeaders(svc: LoggedService, clientId: string): Promise<Record<string, string>> {
  const client = await new ClientsService(new ClientsRepository(svc.service.store)).create(clientId, clientId);
  const res = await fetch(`${svc.base}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-client-id': clientId, authorization: `Basic ${Buffer.from(`${clientId}:${client.client_secret}`).toString('base64')}` },
    body: 'grant_type=client_credentials',
  });
  const token = ((await res.json()) as { data: { access_token: string } }).data.access_token;
  return { authorization: `Bearer ${token}`, 'x-client-id': clientId, 'content-type': 'application/json' };
}
