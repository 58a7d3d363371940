import { describe, expect, it } from 'vitest';
import { checkpointOwner, policyCheckpoint } from './checkpoints';

describe('checkpoint names', () => {
  it("a policy's checkpoint reads back as that policy; any other name is a projection's, as stored", () => {
    expect(checkpointOwner(policyCheckpoint('orders'))).toEqual({ kind: 'policy', name: 'orders' });
    expect(checkpointOwner('orders')).toEqual({ kind: 'projection', name: 'orders' });
    expect(checkpointOwner('users')).toEqual({ kind: 'projection', name: 'users' });
    // Only the prefix counts: a projection may have "policy" in its name.
    expect(checkpointOwner('policy-audit')).toEqual({ kind: 'projection', name: 'policy-audit' });
  });
});
