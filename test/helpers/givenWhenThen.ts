import type { Test } from 'tap';
import { DomainError, type DomainErrorCode } from '../../src/domain/errors.js';

interface PureDecider<State, Command, Event> {
  initialState: () => State;
  decide: (command: Command, state: State) => Event[];
  evolve: (state: State, event: Event) => State;
}

/**
 * `given(pastEvents).when(command).then(t, newEvents)` or `.thenThrows(t, code)`: decider
 * tests that read as the rules they check.
 */
export function deciderSpec<State, Command, Event>(decider: PureDecider<State, Command, Event>) {
  return (given: Event[]) => ({
    when: (command: Command) => {
      const decide = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        then(t: Test, expected: Event[], message = 'decides these events') {
          t.same(decide(), expected, message);
        },
        thenThrows(t: Test, code: DomainErrorCode, message?: RegExp) {
          try {
            decide();
            t.fail(`expected a ${code} rejection`);
          } catch (error) {
            t.ok(error instanceof DomainError, 'rejects with a DomainError');
            if (error instanceof DomainError) {
              t.equal(error.code, code);
              if (message) t.match(error.message, message);
            }
          }
        },
      };
    },
  });
}
