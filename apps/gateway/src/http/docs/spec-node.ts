/** Reading the OpenAPI document as plain data: objects, local `$ref`s and in-page anchors. */

/** A node of the spec; it is data we render, only as typed as OpenAPI itself. */
export type SpecNode = Record<string, unknown>;

/** Whether a value is an object node (not null, not an array). */
export const isObj = (v: unknown): v is SpecNode =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The last segment of a `$ref`: the name of what it points at. */
export function refName(ref: string): string {
  return ref.split('/').pop() ?? ref;
}

/**
 * The id of an in-page anchor for a kind of item and its name.
 *
 * @example
 * anchor('schema', 'Video.Task'); // 'schema-Video_Task'
 */
export function anchor(kind: string, name: string): string {
  return `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** Follow a local `$ref` (#/components/...) once. */
export function resolveRef(spec: SpecNode, node: unknown): SpecNode {
  if (isObj(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    let cur: unknown = spec;
    for (const part of node.$ref.slice(2).split('/')) cur = isObj(cur) ? cur[part] : undefined;
    return isObj(cur) ? cur : {};
  }
  return isObj(node) ? node : {};
}
