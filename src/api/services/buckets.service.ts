import { randomUUID } from 'node:crypto';
import {
  bucketLookup,
  categoryLookup,
  unbucketedCategories,
  validateAgainstModel,
  type BucketDefinitionBody,
  type BucketLookup,
  type CategoryLookup,
} from '../../domain/buckets.js';
import { CORE_DASHBOARD, CORE_DASHBOARD_CREATED_AT, CORE_DASHBOARD_ID } from '../../domain/core-dashboard.js';
import type { CategoryPair } from '../../domain/taxonomy.js';
import { apiError, validationError } from '../errors.js';
import type { BucketDefinitionsRepository } from '../repositories/bucket-definitions.repository.js';

/** A definition the client can read: one of its own, or the predefined core-dashboard. */
export interface VisibleDefinition {
  bucketId: string;
  body: BucketDefinitionBody;
  createdAt: string;
  updatedAt: string;
  builtIn: boolean;
}

export interface DefinitionSummary {
  bucket_id: string;
  name: string;
  categorisation_model: string;
  created_at: string;
  updated_at: string;
  buckets: string[];
}

export interface DefinitionDetail extends Omit<DefinitionSummary, 'buckets'> {
  buckets: BucketDefinitionBody['buckets'];
}

export interface LookupFlags {
  unbucketed_categories: boolean;
  bucket_lookup: boolean;
  category_lookup: boolean;
}

export interface DefinitionLookups {
  unbucketed_categories?: CategoryPair[];
  bucket_lookup?: BucketLookup;
  category_lookup?: CategoryLookup;
}

const CORE: VisibleDefinition = {
  bucketId: CORE_DASHBOARD_ID,
  body: CORE_DASHBOARD,
  createdAt: CORE_DASHBOARD_CREATED_AT,
  updatedAt: CORE_DASHBOARD_CREATED_AT,
  builtIn: true,
};

function fields(d: VisibleDefinition) {
  return {
    bucket_id: d.bucketId,
    name: d.body.name,
    categorisation_model: d.body.categorisation_model,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

export class BucketsService {
  constructor(private readonly definitions: BucketDefinitionsRepository) {}

  /** Writes core-dashboard's criteria rows, so the totals join sees the mapping in code. */
  async installBuiltIns(): Promise<void> {
    await this.definitions.replaceBuiltInCriteria(CORE_DASHBOARD_ID, CORE_DASHBOARD);
  }

  async create(clientId: string, body: BucketDefinitionBody): Promise<string> {
    this.check(body);
    const bucketId = randomUUID();
    await this.definitions.insert(bucketId, clientId, body, new Date().toISOString());
    return bucketId;
  }

  /** core-dashboard is read-only: a write to it is a method that the resource does not allow. */
  assertWritable(bucketId: string): void {
    if (bucketId === CORE_DASHBOARD_ID) throw apiError('METHOD_NOT_ALLOWED');
  }

  async replace(clientId: string, bucketId: string, body: BucketDefinitionBody): Promise<DefinitionDetail> {
    this.assertWritable(bucketId);
    this.check(body);
    if (!(await this.definitions.replace(bucketId, clientId, body, new Date().toISOString()))) throw apiError('NOT_FOUND');
    return this.detail(await this.resolve(clientId, bucketId));
  }

  async remove(clientId: string, bucketId: string): Promise<void> {
    this.assertWritable(bucketId);
    if (!(await this.definitions.remove(bucketId, clientId))) throw apiError('NOT_FOUND');
  }

  async list(clientId: string): Promise<DefinitionSummary[]> {
    const own = await this.definitions.list(clientId);
    const visible: VisibleDefinition[] = [CORE, ...own.map((d) => ({ ...d, builtIn: false }))];
    return visible.map((d) => ({ ...fields(d), buckets: d.body.buckets.map((g) => g.bucket_l1) }));
  }

  /** The definition, or NOT_FOUND when it does not exist or is another client's: the two look the same. */
  async resolve(clientId: string, bucketId: string): Promise<VisibleDefinition> {
    if (bucketId === CORE_DASHBOARD_ID) return CORE;
    const stored = await this.definitions.get(bucketId, clientId);
    if (!stored) throw apiError('NOT_FOUND');
    return { ...stored, builtIn: false };
  }

  detail(definition: VisibleDefinition): DefinitionDetail {
    return { ...fields(definition), buckets: definition.body.buckets };
  }

  lookups(definition: VisibleDefinition, flags: LookupFlags): DefinitionLookups {
    const out: DefinitionLookups = {};
    if (flags.unbucketed_categories) out.unbucketed_categories = unbucketedCategories(definition.body);
    if (flags.bucket_lookup) out.bucket_lookup = bucketLookup(definition.body);
    if (flags.category_lookup) out.category_lookup = categoryLookup(definition.body);
    return out;
  }

  private check(body: BucketDefinitionBody): void {
    const errors = validateAgainstModel(body);
    if (Object.keys(errors).length > 0) throw validationError(errors);
  }
}
