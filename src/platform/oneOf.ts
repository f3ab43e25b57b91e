/** Whether `value` is one of `list` (a const list of names), narrowing it to that union: `includes` without widening the list. */
export const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => list.some((item) => item === value);
