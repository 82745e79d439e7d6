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

/**
 * nginx: js_set $afford_upstream route.upstream. A call with X-Customer-ID
 * goes to the upstream afford_shard_<k>; any other call (the token, bucket
 * definitions, categories) to afford_any, which holds every shard. The
 * partition and shard counts come from the variables $afford_partitions and
 * $afford_shards (js_var in the configuration).
 */
function upstream(r) {
  var customer = r.headersIn['X-Customer-ID'];
  if (customer === undefined || customer === '') return 'afford_any';
  var partitions = positive(r.variables.afford_partitions, 'afford_partitions');
  var shards = positive(r.variables.afford_shards, 'afford_shards');
  return 'afford_shard_' + shardOf(customer, partitions, shards);
}

export default { murmur2: murmur2, partitionOf: partitionOf, shardOf: shardOf, upstream: upstream };
