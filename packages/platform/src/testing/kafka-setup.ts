import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';
import { kafkaBrokersFromEnv } from '../config';
import databaseSetup from './global-setup';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Kafka bootstrap brokers, comma-separated. */
    kafkaBrokers: string;
  }
}

/** What the tests use of scripts/kafka.mjs (plain JavaScript, so typed here). */
interface KafkaScript {
  ensureKafka(opts: { port?: number; fresh?: boolean }): Promise<{ brokers: string[]; reused: boolean; stop(): Promise<unknown> }>;
}

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../scripts/kafka.mjs');

/**
 * The Kafka suites' global set-up: KAFKA_BROKERS when set; otherwise a local broker from
 * scripts/kafka.mjs (jars fetched into the cache if missing, data wiped, stopped after the run;
 * a broker already answering on KAFKA_PORT is reused and left running). Plus the PostgreSQL
 * server of the main suites' set-up.
 */
export default async function setup(project: TestProject) {
  const stopDatabase = await databaseSetup(project);
  let stopKafka: (() => Promise<unknown>) | undefined;
  try {
    const given = kafkaBrokersFromEnv();
    if (given) {
      project.provide('kafkaBrokers', given.join(','));
    } else {
      const { ensureKafka } = (await import(pathToFileURL(script).href)) as KafkaScript;
      const kafka = await ensureKafka({ fresh: true });
      project.provide('kafkaBrokers', kafka.brokers.join(','));
      stopKafka = () => kafka.stop();
    }
  } catch (err) {
    await stopDatabase?.();
    throw err;
  }
  return async () => {
    await stopKafka?.();
    await stopDatabase?.();
  };
}
