/**
 * Position of an event in the global log: strictly increasing in commit order. SQLite numbers
 * events 1, 2, 3...; EventStoreDB uses the event's byte offset in its log (commit position),
 * which stays below 2^53 for any log smaller than 8 PiB.
 */
export type Position = number;
