/**
 * A schema as HTML: a short type label (references become in-page links), its constraints, its
 * property table (nested inline objects get tables of their own) and its example.
 */
import { escapeHtml as esc, renderMarkdown as md } from './markdown.js';
import { anchor, isObj, refName, type SpecNode } from './spec-node.js';

/**
 * A short type label, with links for references.
 *
 * @example
 * typeLabel({ type: 'array', items: { $ref: '#/components/schemas/Model' } });
 * // 'array of <a href="#schema-Model">Model</a>'
 */
export function typeLabel(schema: unknown, depth = 0): string {
  if (!isObj(schema)) return '';
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `<a href="#${anchor('schema', name)}">${esc(name)}</a>`;
  }
  if (depth > 4) return 'object';
  for (const comb of ['oneOf', 'anyOf'] as const) {
    const list = schema[comb];
    if (Array.isArray(list)) return list.map((s) => typeLabel(s, depth + 1)).join(' | ');
  }
  if (Array.isArray(schema.allOf))
    return schema.allOf.map((s) => typeLabel(s, depth + 1)).join(' & ');
  if (schema.const !== undefined) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : schema.type
      ? [String(schema.type)]
      : [];
  const labels = types.map((t) => {
    if (t === 'array') return `array of ${typeLabel(schema.items, depth + 1) || 'any'}`;
    if (t === 'object' && isObj(schema.additionalProperties)) {
      return `map of ${typeLabel(schema.additionalProperties, depth + 1)}`;
    }
    return esc(t);
  });
  if (labels.length === 0 && isObj(schema.properties)) labels.push('object');
  if (schema.format) labels[0] = `${labels[0] ?? ''} (${esc(String(schema.format))})`;
  return labels.join(' | ') || 'any';
}

/** Inline (non-$ref) schema as-is; a $ref stays unresolved so constraints stay with their schema. */
function resolveInline(schema: unknown): SpecNode {
  return isObj(schema) && !schema.$ref ? schema : {};
}

/** An inline schema's constraints (enum, bounds, lengths, pattern, default, deprecated). */
export function constraints(schema: unknown): string {
  const s = resolveInline(schema);
  const parts: string[] = [];
  const show = (label: string, v: unknown) => {
    if (v !== undefined)
      parts.push(`${label} <code>${esc(typeof v === 'string' ? v : JSON.stringify(v))}</code>`);
  };
  if (Array.isArray(s.enum))
    parts.push(`one of ${s.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ')}`);
  show('min', s.minimum);
  show('max', s.maximum);
  show('&gt;', s.exclusiveMinimum);
  show('&lt;', s.exclusiveMaximum);
  show('min length', s.minLength);
  show('max length', s.maxLength);
  show('min items', s.minItems);
  show('max items', s.maxItems);
  show('pattern', s.pattern);
  show('default', s.default);
  if (s.deprecated) parts.push('<strong>deprecated</strong>');
  return parts.join('; ');
}

/** The oneOf / anyOf / allOf alternatives of a schema, with its discriminator. */
function combinations(s: SpecNode): string[] {
  const parts: string[] = [];
  for (const comb of ['oneOf', 'anyOf', 'allOf'] as const) {
    const list = s[comb];
    if (Array.isArray(list)) {
      const word = comb === 'allOf' ? 'All of' : comb === 'oneOf' ? 'One of' : 'Any of';
      parts.push(`<p>${word}: ${list.map((x) => typeLabel(x)).join(', ')}</p>`);
      const disc = isObj(s.discriminator) ? s.discriminator.propertyName : undefined;
      if (disc) parts.push(`<p>Discriminator: <code>${esc(String(disc))}</code></p>`);
    }
  }
  return parts;
}

/** One row of a property table. */
function propertyRow(name: string, raw: unknown, required: boolean, depth: number): string {
  const p = isObj(raw) ? raw : {};
  const nested =
    depth < 3 &&
    !p.$ref &&
    (isObj(p.properties) || (isObj(p.items) && isObj((p.items as SpecNode).properties)))
      ? properties(isObj(p.properties) ? p : p.items, depth + 1)
      : '';
  return `<tr><td><code>${esc(name)}</code>${required ? ' <span class="req">required</span>' : ''}</td>
<td>${typeLabel(p)}</td><td>${md(p.description as string)}${
    constraints(p) ? `<p class="c">${constraints(p)}</p>` : ''
  }${nested}</td></tr>`;
}

/** Property table of an object schema; nested inline objects get their own nested table. */
export function properties(schema: unknown, depth = 0): string {
  const s = resolveInline(schema);
  const props = isObj(s.properties) ? s.properties : null;
  const parts = combinations(s);
  if (!props) return parts.join('\n');
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const rows = Object.entries(props).map(([name, raw]) =>
    propertyRow(name, raw, required.has(name), depth),
  );
  const extra =
    s.additionalProperties === false ? '<p class="c">No other fields are accepted.</p>' : '';
  parts.push(
    `<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>${extra}`,
  );
  return parts.join('\n');
}

/** A media type's schema: its label, and for an inline schema its properties. */
export function schemaBlock(schema: unknown): string {
  if (!isObj(schema)) return '';
  if (schema.$ref) return `<p>Schema: ${typeLabel(schema)}</p>`;
  return `<p>Schema: ${typeLabel(schema)}</p>${properties(schema)}`;
}

/** An example value, folded away. */
export function example(value: unknown): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return `<details><summary>Example</summary><pre><code>${esc(text)}</code></pre></details>`;
}
