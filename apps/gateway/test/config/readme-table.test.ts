// The README's table of environment variables and the configuration's schemas name the same
// variables: a variable added to a section without a row (or a row left for one that is gone) fails.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/config/config.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The variables named in the first column of the "Environment variables" table. */
function tableVariables(): Set<string> {
  const section = readme.slice(readme.indexOf('### Environment variables'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| Variable')));
  const names = new Set<string>();
  for (const row of table.split('\n').filter((line) => line.startsWith('| `'))) {
    const [head, ...rest] = [...row.split('|')[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!);
    names.add(head!);
    // `A_B_C` / `_D` stands for A_B_C and A_B_D.
    for (const name of rest)
      names.add(name.startsWith('_') ? head!.replace(/_[A-Z]+$/, name) : name);
  }
  return names;
}

/** Rows for variables that are not (yet) read through a section's schema. */
const READ_ELSEWHERE = new Set([
  'MODELGATE_CONFIG', // names the YAML file itself
]);

describe("the README's configuration table", () => {
  const rows = tableVariables();
  const schemas = Object.values(CONFIG_VARIABLES).flatMap((variables) => Object.keys(variables));

  it('has a row for every variable of every section', () => {
    expect(schemas.filter((name) => !rows.has(name))).toEqual([]);
  });

  it('names no variable that no section reads', () => {
    const known = new Set([...schemas, ...READ_ELSEWHERE]);
    expect([...rows].filter((name) => !known.has(name))).toEqual([]);
  });
});
