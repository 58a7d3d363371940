/** An aggregate as three pure functions (decider pattern). Time and ids arrive inside commands. */
export interface Decider<Command, Event, State> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** Returns the events the command causes, or throws an AppError saying why not. */
  decide: (command: Command, state: State) => Event[];
}

export const fold = <E, S>(decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>, events: E[]): S =>
  events.reduce(decider.evolve, decider.initialState());

/**
 * How the service that owns a kind of stream (`product-…`, `booking-…`) folds it into the entity's
 * state: its own `initialState` and `evolve`, so that the event log's time travel shows the state
 * exactly as that service's decisions saw it.
 */
export interface StreamModel {
  /** The stream name's category: the part before the first `-`. */
  category: string;
  /** The service that writes it. */
  owner: string;
  initialState: () => unknown;
  evolve: (state: unknown, event: { type: string; data: unknown }) => unknown;
}

/** A stream model from a decider's pure functions (their event type is the owner's own business). */
export const streamModel = <E, S>(
  category: string,
  owner: string,
  decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>,
): StreamModel => ({
  category,
  owner,
  initialState: decider.initialState,
  evolve: decider.evolve as unknown as StreamModel['evolve'],
});
