/**
 * With several shards: which of the given customers another shard owns
 * (none when there is one). A call about such a customer is answered by
 * that shard, so this one answers as if the customer did not exist here.
 */
export type ForeignCustomers = (customerIds: readonly string[]) => Promise<string[]>;
