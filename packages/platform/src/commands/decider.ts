/** An aggregate as three pure functions (decider pattern). Time and ids arrive inside commands. */
export interface Decider<Command, Event, State> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** Returns the events the command causes, or throws an AppError saying why not. */
  decide: (command: Command, state: State) => Event[];
}

export const fold = <E, S>(decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>, events: E[]): S =>
  events.reduce(decider.evolve, decider.initialState());
