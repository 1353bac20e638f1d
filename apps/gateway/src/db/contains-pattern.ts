/**
 * `text` as a LIKE pattern that matches itself anywhere: its `%`, `_` and `\\` are escaped, so a
 * name search for `50%` finds `50%` and not every name with a `50` in it.
 * @example db.selectFrom('teams').where('name', 'ilike', containsPattern('r&d'));
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
