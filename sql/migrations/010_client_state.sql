-- Where this worker stands in the client-state topic: the next offset of
-- each partition, saved in the transaction that applies the messages before
-- it, so that client-level changes from Kafka are applied exactly once.
CREATE TABLE client_state_offsets (
    topic            VARCHAR NOT NULL,
    kafka_partition  INTEGER NOT NULL,
    next_offset      BIGINT NOT NULL,
    updated_at       TIMESTAMP NOT NULL,
    PRIMARY KEY (topic, kafka_partition)
);
