import type { Test } from 'tap';
import { DomainError, type DomainErrorCode } from '../../src/domain/errors.js';

interface PureDecider<S, C, E> {
  initialState: () => S;
  decide: (command: C, state: S) => E[];
  evolve: (state: S, event: E) => S;
}

/**
 * Given / when / then for a pure decider: `given(past events).when(command).then(new events)`
 * or `.thenThrows(code, message)`.
 */
export function deciderSpec<S, C, E>(t: Test, decider: PureDecider<S, C, E>) {
  return {
    given(events: E[]) {
      const state = events.reduce(decider.evolve, decider.initialState());
      return {
        when(command: C) {
          return {
            then(expected: E[], message?: string) {
              t.same(decider.decide(command, state), expected, message ?? 'decides the expected events');
            },
            thenThrows(code: DomainErrorCode, pattern: RegExp, message?: string) {
              try {
                decider.decide(command, state);
                t.fail(`expected a ${code} error${message ? `: ${message}` : ''}`);
              } catch (error) {
                t.ok(error instanceof DomainError && error.code === code, message ?? `rejected with ${code}`);
                t.match(error instanceof Error ? error.message : '', pattern);
              }
            },
          };
        },
      };
    },
  };
}
