/**
 * Which afford shard owns a call, for the front (nginx's JavaScript module,
 * njs) and for the test that checks it against the Kafka producer.
 *
 * A customer's events are produced with the customer id as the Kafka key,
 * through kafkajs's default partitioner: partition = murmur2(UTF-8 key) with
 * the sign bit cleared, modulo the topic's partition count. Shard k of n owns
 * the partitions p with p mod n = k. So the shard of a customer is
 * (murmur2(id) & 0x7fffffff) mod partitions mod shards, and every event
 * topic must have the same partition count.
 *
 * Plain ES5 with one default export, so that njs 0.7 and Node both load it.
 */

/* global TextEncoder */
var SEED = 0x9747b28c;
var M = 0x5bd1e995;

/** Kafka's murmur2 (the Java client's, which kafkajs copies), over bytes. */
function murmur2(bytes) {
  var length = bytes.length;
  var h = (SEED ^ length) | 0;
  var whole = length - (length % 4);
  for (var i = 0; i < whole; i += 4) {
    var k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  var rest = length % 4;
  if (rest === 3) h ^= bytes[whole + 2] << 16;
  if (rest >= 2) h ^= bytes[whole + 1] << 8;
  if (rest >= 1) {
    h ^= bytes[whole];
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition kafkajs gives a key, over `partitions` partitions. */
function partitionOf(customerId, partitions) {
  return (murmur2(new TextEncoder().encode(customerId)) & 0x7fffffff) % partitions;
}

/** The shard (0 .. shards-1) that owns a customer. */
function shardOf(customerId, partitions, shards) {
  return partitionOf(customerId, partitions) % shards;
}

function positive(text, name) {
  var n = Number(text);
  if (!(n >= 1 && n === Math.floor(n))) throw new Error('afford front: $' + name + ' must be a whole number of at least 1, not "' + text + '"');
  return n;
}

function shardUpstream(r, customer) {
  if (customer === undefined || customer === '') return 'afford_any';
  var partitions = positive(r.variables.afford_partitions, 'afford_partitions');
  var shards = positive(r.variables.afford_shards, 'afford_shards');
  return 'afford_shard_' + shardOf(customer, partitions, shards);
}

/**
 * nginx: js_set $afford_upstream route.upstream. A call that names a
 * customer (X-Customer-ID, or X-Customer-Idempotent-Identifier, which afford
 * accepts in its stead) goes to the upstream afford_shard_<k>; any other
 * call (the token, bucket definitions, categories) to afford_any, which
 * holds every shard. The partition and shard counts come from the variables
 * $afford_partitions and $afford_shards (js_var in the configuration).
 */
function upstream(r) {
  var customer = r.headersIn['X-Customer-ID'];
  if (customer === undefined || customer === '') customer = r.headersIn['X-Customer-Idempotent-Identifier'];
  return shardUpstream(r, customer);
}

/**
 * The upstream of a first-party ingestion (POST /v2/ingest/transactions),
 * whose body names its customers and whose headers need not: the customer
 * header when there is one, else the body's first customer. The shard
 * refuses a request naming customers of another shard, so what matters is
 * only that a request of one shard's customers reaches that shard. A body
 * that is not such JSON goes to any shard, which answers why.
 */
function ingestUpstream(r, body) {
  var named = upstream(r);
  if (named !== 'afford_any') return named;
  var entries;
  try {
    // afford reads a body that starts with a byte order mark as the JSON after it: so does this.
    entries = JSON.parse(typeof body === 'string' && body.charCodeAt(0) === 0xfeff ? body.slice(1) : body);
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- plain ES5 (see the top): a catch has its binding
  } catch (e) {
    return 'afford_any';
  }
  var first = Array.isArray(entries) && entries.length > 0 ? entries[0] : undefined;
  if (first === null || typeof first !== 'object') return 'afford_any';
  var customer = typeof first.customer_id === 'string' ? first.customer_id : first.customer_idempotent_identifier;
  return typeof customer === 'string' ? shardUpstream(r, customer) : 'afford_any';
}

/**
 * nginx: js_content route.ingest. Reads the body (held in memory: see
 * client_body_buffer_size), sets $afford_ingest_upstream and hands the
 * request, body and all, to the location @ingest that proxies it there.
 */
function ingest(r) {
  r.variables.afford_ingest_upstream = ingestUpstream(r, r.requestText);
  r.internalRedirect('@ingest');
}

export default { murmur2: murmur2, partitionOf: partitionOf, shardOf: shardOf, upstream: upstream, ingestUpstream: ingestUpstream, ingest: ingest };
