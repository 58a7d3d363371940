#!/bin/bash
# Writes server.properties from the environment, formats the storage on the first start (KRaft
# needs a formatted log dir), then runs the broker+controller in the foreground.
set -euo pipefail
conf=/var/lib/kafka/server.properties
data=/var/lib/kafka/data
cat >"$conf" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${KAFKA_CONTROLLER_PORT}
listeners=PLAINTEXT://${KAFKA_LISTEN_HOST:-0.0.0.0}:${KAFKA_PORT},CONTROLLER://127.0.0.1:${KAFKA_CONTROLLER_PORT}
advertised.listeners=PLAINTEXT://${KAFKA_ADVERTISED_HOST}:${KAFKA_PORT}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=${data}
num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
PROPS
java_cmd=(java ${KAFKA_HEAP_OPTS} -XX:+UseG1GC -Djava.awt.headless=true
  -Dlog4j.configuration=file:/opt/kafka/config/log4j.properties -cp '/opt/kafka/libs/*')
if [[ ! -f "$data/meta.properties" ]]; then
  echo "tvshop-kafka: formatting $data (cluster ${KAFKA_CLUSTER_ID})"
  "${java_cmd[@]}" kafka.tools.StorageTool format -t "$KAFKA_CLUSTER_ID" -c "$conf" --ignore-formatted
fi
exec "${java_cmd[@]}" kafka.Kafka "$conf" "$@"
