import accessors from '@duckdb/node-api/lib/vectors/dataAccessors.js';

/**
 * Text read back as it is stored. @duckdb/node-api decodes every text value
 * it reads with one default TextDecoder, which drops a U+FEFF at the start of
 * the value, taking it for a byte order mark: a description or an id that
 * began with one was stored as sent and served without it. The library reads
 * values through the decoder it exports, so that decoder is swapped for one
 * that keeps the character; importing this module does it, once, for every
 * connection (the store imports it). A test reads such a value back through
 * the store and through the command line's bundle.
 */
/** The library's module as it is at run time: its exports object, whose decoder it reads at each value. */
const decoding = accessors as { textDecoder: TextDecoder };
decoding.textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
