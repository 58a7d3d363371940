import { describe, expect, it } from 'vitest';
import { withTransportHealth, type HealthReport } from './metrics';

const report = (over: Partial<HealthReport> = {}): HealthReport => ({
  status: 'ok',
  database: { ok: true, mode: 'external' },
  head: 42,
  projections: [],
  lag: [],
  ...over,
});
const crashed = { status: 'degraded' as const, reason: 'Kafka consumer of replies crashed' };

describe('withTransportHealth: the health report with this process own command transport in it', () => {
  it('when the transport is fine or there is none, then the report is as the database made it', () => {
    expect(withTransportHealth(report())).toEqual(report());
    expect(withTransportHealth(report(), { status: 'ok' })).toEqual(report());
  });

  it('when kafkajs gave up on a consumer, then the report is degraded and says so, to anyone and to the admin', () => {
    expect(withTransportHealth(report(), crashed)).toEqual(
      report({ status: 'degraded', reason: 'Kafka consumer of replies crashed', summary: 'Kafka consumer of replies crashed' }),
    );
  });

  it('when the database side is degraded too, then both are said', () => {
    const stalled = report({ status: 'degraded', reason: 'policy ghost stalled at 3 of 42 for 9 s', summary: 'policy ghost stalled' });
    expect(withTransportHealth(stalled, crashed)).toMatchObject({
      status: 'degraded',
      reason: 'policy ghost stalled at 3 of 42 for 9 s; Kafka consumer of replies crashed',
      summary: 'policy ghost stalled; Kafka consumer of replies crashed',
    });
  });
});
