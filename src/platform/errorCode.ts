/**
 * The code a thrown value carries (Node's errno codes such as ENOENT, SQLite's, MongoDB's
 * `codeName`), or undefined when it carries none as a string: read without a cast, whatever was thrown.
 */
export function errorCode(error: unknown, field: 'code' | 'codeName' = 'code'): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const value = field === 'code' ? ('code' in error ? error.code : undefined) : 'codeName' in error ? error.codeName : undefined;
  return typeof value === 'string' ? value : undefined;
}
