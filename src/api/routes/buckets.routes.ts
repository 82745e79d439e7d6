import { requireClient } from '../auth/context.js';
import { envelope } from '../envelope.js';
import type { Router } from '../router.js';
import {
  OP_BUCKET_DELETE,
  OP_BUCKET_GET,
  OP_BUCKET_PUT,
  OP_BUCKETS_GET,
  OP_BUCKETS_POST,
  bucketCreatedResponse,
  bucketDefinitionBody,
  bucketDetailQuery,
  bucketDetailResponse,
  bucketIdParams,
  bucketListResponse,
  noContent,
} from '../schemas/buckets.schemas.js';
import type { ApiServices } from '../services/index.js';

const TAG = 'Bucket definitions';

export function bucketsRoutes(router: Router, { buckets }: ApiServices): void {
  router.add({
    method: 'POST',
    url: '/aggregations/v2/buckets',
    operationId: OP_BUCKETS_POST,
    summary: 'Create a bucket definition, validated against its categorisation model',
    tag: TAG,
    auth: 'client',
    body: bucketDefinitionBody,
    response: bucketCreatedResponse,
    successStatus: 201,
    handler: async ({ body, auth }) => envelope(OP_BUCKETS_POST, { bucket_id: await buckets.create(requireClient(auth).clientId, body) }),
  });

  router.add({
    method: 'GET',
    url: '/aggregations/v2/buckets',
    operationId: OP_BUCKETS_GET,
    summary: "List the client's bucket definitions and the predefined core-dashboard",
    tag: TAG,
    auth: 'client',
    response: bucketListResponse,
    handler: async ({ auth }) => envelope(OP_BUCKETS_GET, await buckets.list(requireClient(auth).clientId)),
  });

  router.add({
    method: 'GET',
    url: '/aggregations/v2/buckets/:bucket_id',
    operationId: OP_BUCKET_GET,
    summary: 'Read one bucket definition, with the lookups asked for by flag',
    tag: TAG,
    auth: 'client',
    params: bucketIdParams,
    query: bucketDetailQuery,
    response: bucketDetailResponse,
    handler: async ({ params, query, auth }) => {
      const definition = await buckets.resolve(requireClient(auth).clientId, params.bucket_id);
      return envelope(OP_BUCKET_GET, buckets.detail(definition), buckets.lookups(definition, query));
    },
  });

  router.add({
    method: 'PUT',
    url: '/aggregations/v2/buckets/:bucket_id',
    operationId: OP_BUCKET_PUT,
    summary: "Replace one of the client's bucket definitions; 204 with no body (core-dashboard is read-only)",
    tag: TAG,
    auth: 'client',
    params: bucketIdParams,
    guard: ({ bucket_id }) => buckets.assertWritable(bucket_id),
    body: bucketDefinitionBody,
    response: noContent,
    successStatus: 204,
    handler: async ({ params, body, auth }) => {
      await buckets.replace(requireClient(auth).clientId, params.bucket_id, body);
      return undefined;
    },
  });

  router.add({
    method: 'DELETE',
    url: '/aggregations/v2/buckets/:bucket_id',
    operationId: OP_BUCKET_DELETE,
    summary: "Delete one of the client's bucket definitions; 204 with no body (core-dashboard is read-only)",
    tag: TAG,
    auth: 'client',
    params: bucketIdParams,
    guard: ({ bucket_id }) => buckets.assertWritable(bucket_id),
    response: noContent,
    successStatus: 204,
    handler: async ({ params, auth }) => {
      await buckets.remove(requireClient(auth).clientId, params.bucket_id);
      return undefined;
    },
  });
}
