/** Types of route.js, for the tests that load it under Node. */
interface NginxRequest {
  headersIn: Record<string, string | undefined>;
  variables: Record<string, string | undefined>;
}

declare const route: {
  murmur2(bytes: Uint8Array): number;
  partitionOf(customerId: string, partitions: number): number;
  shardOf(customerId: string, partitions: number, shards: number): number;
  upstream(r: NginxRequest): string;
  ingestUpstream(r: NginxRequest, body: string | undefined): string;
};

export default route;
