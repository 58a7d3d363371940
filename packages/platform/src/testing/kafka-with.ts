import type { Kafka } from 'kafkajs';

/**
 * `kafka` with some of its factories replaced (a producer or consumer that misbehaves on cue, for
 * a fault test); the others are its own, so everything else talks to the real broker.
 */
export function kafkaWith(kafka: Kafka, replaced: Partial<Pick<Kafka, 'admin' | 'producer' | 'consumer'>>): Kafka {
  return {
    admin: replaced.admin ?? ((...args: Parameters<Kafka['admin']>) => kafka.admin(...args)),
    producer: replaced.producer ?? ((...args: Parameters<Kafka['producer']>) => kafka.producer(...args)),
    consumer: replaced.consumer ?? ((...args: Parameters<Kafka['consumer']>) => kafka.consumer(...args)),
  } as unknown as Kafka;
}
