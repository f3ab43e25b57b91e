/**
 * Text cut to at most `max` characters for display, ending in "…" when cut (never splitting a
 * surrogate pair). The full value stays in the payload and its JSON; only what a page shows is cut.
 */
export function clip(value: string, max: number): string {
  if (value.length <= max) return value;
  let end = max - 1;
  const code = value.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${value.slice(0, end)}…`;
}
