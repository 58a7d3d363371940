import { expect } from 'vitest';
import { fold, type Decider } from '../commands/decider';

/** given(events).when(command).then(events) — or .thenThrows(error fields) — for a decider. */
export function deciderSpec<C, E, S>(decider: Decider<C, E, S>) {
  return (...events: E[]) => ({
    when: (command: C) => {
      const run = () => decider.decide(command, fold(decider, events));
      return {
        then: (expected: E[]) => expect(run()).toEqual(expected),
        thenThrows: (match: object) => expect(run).toThrow(expect.objectContaining(match)),
      };
    },
  });
}
