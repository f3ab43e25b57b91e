/**
 * The pieces every scan of a JSON text shares (src/domain/jsonSelect.ts, the history's text
 * basis, the upload's shape scan): the structural characters' codes, whitespace and strings.
 * The texts scanned are valid JSON: JSON.parse took them when they were uploaded.
 */
export const QUOTE = 34;
export const BACKSLASH = 92;
export const COMMA = 44;
export const COLON = 58;
export const OPEN_OBJECT = 123;
export const CLOSE_OBJECT = 125;
export const OPEN_ARRAY = 91;
export const CLOSE_ARRAY = 93;

export const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

export function skipSpace(text: string, at: number): number {
  while (isSpace(text.charCodeAt(at))) at += 1;
  return at;
}

/** Just past the closing quote of the string whose opening quote is at `at`. */
export function stringEnd(text: string, at: number): number {
  for (let end = text.indexOf('"', at + 1); end !== -1; end = text.indexOf('"', end + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return end + 1;
  }
  throw new SyntaxError('unterminated string in JSON');
}
