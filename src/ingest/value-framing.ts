/**
 * A Kafka value in the wire format of Confluent's Schema Registry
 * serializers: a zero byte (the format's magic), the schema's id in 4 bytes,
 * then the payload. A JSON Schema serializer's payload is the JSON event
 * itself, so afford reads the JSON after the 5 bytes and leaves the schema
 * unchecked (its own validation is the event's schema). Avro or Protobuf
 * payloads are not JSON, and stay dead letters, whose reason says so. A
 * plain JSON value never starts with a zero byte.
 */

const PREFIX_BYTES = 5;

const isJsonStart = (b: number | undefined): boolean => b === 0x7b; // '{'
const isSpace = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** The JSON a value holds after a Schema Registry prefix, or undefined when it has none. */
export function unframedJson(value: Buffer | null): Buffer | undefined {
  if (value === null || value.length <= PREFIX_BYTES || value[0] !== 0) return undefined;
  let at = PREFIX_BYTES;
  while (at < value.length && isSpace(value[at])) at++;
  return isJsonStart(value[at]) ? value.subarray(PREFIX_BYTES) : undefined;
}

/**
 * Why a value in the wire format is not read, when what follows its prefix
 * is not JSON (an Avro or Protobuf serializer's value); undefined for any
 * other value. Such a value is no event either way: the reason names what
 * it is, rather than the byte at which JSON fails.
 */
export function framedNotJson(value: Buffer | null): string | undefined {
  if (value === null || value.length < PREFIX_BYTES || value[0] !== 0 || unframedJson(value) !== undefined) return undefined;
  return `the value is in the Schema Registry wire format (schema id ${value.readUInt32BE(1)}), but what follows its prefix is not JSON: afford reads JSON events, plain or from the JSON Schema serializer, not Avro or Protobuf`;
}
