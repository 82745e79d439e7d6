/*
 * A Kafka broker for tests: librdkafka's mock cluster in a process of its
 * own, on a loopback port that stays fixed for the life of the process.
 *
 *   mock-broker TOPIC:PARTITIONS ...
 *
 * Prints "bootstrap HOST:PORT" once the cluster listens. Then reads commands
 * on standard input, one a line, and answers each with "ok <command>":
 *   down  - every broker drops its connections and refuses new ones
 *   up    - the brokers accept connections again, on the same address
 * End of input (or "quit") stops the cluster.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

int main(int argc, char **argv) {
  char errstr[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  /* A producer handle with no brokers: the mock cluster only needs it for book keeping. */
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
  if (!rk) {
    fprintf(stderr, "rd_kafka_new: %s\n", errstr);
    return 1;
  }
  rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(rk, 1);
  if (!mc) {
    fprintf(stderr, "rd_kafka_mock_cluster_new failed\n");
    return 1;
  }
  for (int i = 1; i < argc; i++) {
    char *spec = strdup(argv[i]);
    char *colon = strrchr(spec, ':');
    int partitions = 4;
    if (colon) {
      *colon = '\0';
      partitions = atoi(colon + 1);
    }
    rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mc, spec, partitions, 1);
    if (err) {
      fprintf(stderr, "topic %s: %s\n", spec, rd_kafka_err2str(err));
      return 1;
    }
    free(spec);
  }
  printf("bootstrap %s\n", rd_kafka_mock_cluster_bootstraps(mc));
  fflush(stdout);

  char line[256];
  while (fgets(line, sizeof(line), stdin)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (strcmp(line, "down") == 0) rd_kafka_mock_broker_set_down(mc, -1);
    else if (strcmp(line, "up") == 0) rd_kafka_mock_broker_set_up(mc, -1);
    else if (strcmp(line, "quit") == 0) break;
    else {
      printf("error unknown command %s\n", line);
      fflush(stdout);
      continue;
    }
    printf("ok %s\n", line);
    fflush(stdout);
  }
  rd_kafka_mock_cluster_destroy(mc);
  rd_kafka_destroy(rk);
  return 0;
}
