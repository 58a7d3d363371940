import { describe, expect, it } from 'vitest';
import { describeTopology, topologyFor } from './topology';

describe('topology: what runs in this process in each mode', () => {
  it('given nothing configured (npm start), then everything runs here, in process', () => {
    const t = topologyFor({ remoteServices: {}, redisUrl: undefined, projector: 'in-process' });
    expect(t).toEqual({
      servicesHere: ['identity', 'catalog', 'orders'],
      servicesElsewhere: {},
      commandBus: 'in-process',
      changeFeed: 'in-process',
      projectionsHere: true,
    });
    expect(describeTopology(t)).toBe('services here: identity, catalog, orders; projections here; commands in-process; changes in-process');
  });

  it('given services apart and the projector apart, then commands go over HTTP and changes over Redis', () => {
    const t = topologyFor({
      remoteServices: { identity: 'http://127.0.0.1:4001', orders: 'http://127.0.0.1:4003' },
      redisUrl: 'redis://127.0.0.1:6379',
      projector: 'external',
    });
    expect(t.servicesHere).toEqual(['catalog']);
    expect(t.commandBus).toBe('http');
    expect(t.changeFeed).toBe('redis');
    expect(t.projectionsHere).toBe(false);
    expect(describeTopology(t)).toContain('identity at http://127.0.0.1:4001');
  });
});
