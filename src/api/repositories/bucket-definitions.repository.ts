import type { DuckDBConnection } from '@duckdb/node-api';
import { storedBucketDefinitionSchema, criterionRows, type BucketDefinitionBody } from '../../domain/buckets.js';
import { dbFromIso, isoFromDb } from '../../domain/timestamps.js';
import { clientStateWriter } from '../../db/client-state.js';
import { announceDataChange } from '../../db/data-changes.js';
import { queryFile, runScript } from '../../db/script.js';
import type { Store } from '../../db/store.js';
import type { Columns } from '../../db/rows.js';

export interface StoredDefinition {
  bucketId: string;
  clientId: string;
  body: BucketDefinitionBody;
  createdAt: string;
  updatedAt: string;
}

interface DefinitionRow {
  bucket_id: string;
  client_id: string;
  body: string;
  created_at: string;
  updated_at: string;
}

const DEFINITION_COLUMNS: Columns<DefinitionRow> = { bucket_id: 'text', client_id: 'text', body: 'text', created_at: 'text', updated_at: 'text' };

function toDefinition(row: DefinitionRow): StoredDefinition {
  return {
    bucketId: row.bucket_id,
    clientId: row.client_id,
    body: storedBucketDefinitionSchema.parse(JSON.parse(row.body)),
    createdAt: isoFromDb(row.created_at) ?? '',
    updatedAt: isoFromDb(row.updated_at) ?? '',
  };
}

/** Criterion rows as one JSON value, bound as a single parameter. */
function criteriaJson(body: BucketDefinitionBody): string {
  return JSON.stringify(criterionRows(body).map((row, position) => ({ position, ...row })));
}

async function insertCriteria(conn: DuckDBConnection, bucketId: string, body: BucketDefinitionBody): Promise<void> {
  await queryFile(conn, 'queries/api/insert-bucket-criteria', { bucket_id: bucketId, rows: criteriaJson(body) });
}

/** The bound values of an insert or an update of a definition. */
function definitionParams(bucketId: string, clientId: string, body: BucketDefinitionBody, now: string) {
  return {
    bucket_id: bucketId,
    client_id: clientId,
    name: body.name,
    categorisation_model: body.categorisation_model,
    body: JSON.stringify(body),
    now: dbFromIso(now),
  };
}

/**
 * Client bucket definitions: the body as created, and its criteria rows for the totals join.
 * With several shards, a write goes to every shard as a client-state change (src/db/client-state.ts).
 */
export class BucketDefinitionsRepository {
  constructor(private readonly store: Store) {}

  async insert(bucketId: string, clientId: string, body: BucketDefinitionBody, now: string): Promise<void> {
    const shared = clientStateWriter(this.store);
    if (shared) return shared.write({ kind: 'bucket-definition', id: bucketId, value: { bucket_id: bucketId, client_id: clientId, body, created_at: now, updated_at: now } });
    await this.store.write(async (conn) => {
      await queryFile(conn, 'queries/api/insert-bucket-definition', definitionParams(bucketId, clientId, body, now));
      await insertCriteria(conn, bucketId, body);
    });
    this.changed(clientId);
  }

  /** Replaces the definition and its criteria; false when the client has no such definition. */
  async replace(bucketId: string, clientId: string, body: BucketDefinitionBody, now: string): Promise<boolean> {
    const shared = clientStateWriter(this.store);
    if (shared) {
      const existing = await this.get(bucketId, clientId);
      if (!existing) return false;
      const value = { bucket_id: bucketId, client_id: clientId, body, created_at: existing.createdAt, updated_at: now };
      await shared.write({ kind: 'bucket-definition', id: bucketId, value });
      // Deleted through another shard at the same moment, and the deletion came after: the replacement did not stand.
      return (await this.get(bucketId, clientId)) !== undefined;
    }
    const replaced = await this.store.write(async (conn) => {
      const existing = await queryFile(conn, 'queries/api/get-bucket-definition', { bucket_id: bucketId, client_id: clientId });
      if (existing.length === 0) return false;
      await queryFile(conn, 'queries/api/update-bucket-definition', definitionParams(bucketId, clientId, body, now));
      await queryFile(conn, 'queries/api/delete-bucket-criteria', { bucket_id: bucketId });
      await insertCriteria(conn, bucketId, body);
      return true;
    });
    this.changed(clientId);
    return replaced;
  }

  async remove(bucketId: string, clientId: string): Promise<boolean> {
    const shared = clientStateWriter(this.store);
    if (shared) {
      if (!(await this.get(bucketId, clientId))) return false;
      await shared.write({ kind: 'bucket-definition', id: bucketId, value: null });
      return true;
    }
    const removed = await this.store.write(async (conn) => {
      const existing = await queryFile(conn, 'queries/api/get-bucket-definition', { bucket_id: bucketId, client_id: clientId });
      if (existing.length === 0) return false;
      await queryFile(conn, 'queries/api/delete-bucket-definition', { bucket_id: bucketId, client_id: clientId });
      await queryFile(conn, 'queries/api/delete-bucket-criteria', { bucket_id: bucketId });
      return true;
    });
    this.changed(clientId);
    return removed;
  }

  /** After a commit: every answer of the client's customers that used its definitions is read again. */
  private changed(clientId: string): void {
    announceDataChange(this.store, { kind: 'clients', clientIds: [clientId] });
  }

  async get(bucketId: string, clientId: string): Promise<StoredDefinition | undefined> {
    const rows = await this.store.read((conn) =>
      queryFile<DefinitionRow>(conn, 'queries/api/get-bucket-definition', { bucket_id: bucketId, client_id: clientId }, DEFINITION_COLUMNS),
    );
    return rows[0] ? toDefinition(rows[0]) : undefined;
  }

  async list(clientId: string): Promise<StoredDefinition[]> {
    const rows = await this.store.read((conn) => queryFile<DefinitionRow>(conn, 'queries/api/list-bucket-definitions', { client_id: clientId }, DEFINITION_COLUMNS));
    return rows.map(toDefinition);
  }

  /** Rewrites the criteria rows of a definition that lives in code (core-dashboard). */
  async replaceBuiltInCriteria(bucketId: string, body: BucketDefinitionBody): Promise<void> {
    await this.store.write((conn) => runScript(conn, 'queries/api/replace-built-in-criteria', { bucket_id: bucketId, rows: criteriaJson(body) }));
  }
}
