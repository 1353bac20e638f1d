/**
 * An operation (or a webhook) as an HTML section: method and path, summary and description, its
 * parameters, request body and responses, each with their media types and schemas.
 */
import { escapeHtml as esc, renderMarkdown as md } from './markdown.js';
import { constraints, example, schemaBlock, typeLabel } from './schema-html.js';
import { anchor, isObj, refName, resolveRef, type SpecNode } from './spec-node.js';

function content(body: unknown): string {
  if (!isObj(body)) return '';
  return Object.entries(body)
    .map(([type, raw]) => {
      const media = isObj(raw) ? raw : {};
      return `<div class="media"><p class="ct"><code>${esc(type)}</code></p>${schemaBlock(media.schema)}${example(media.example)}</div>`;
    })
    .join('\n');
}

function parameters(spec: SpecNode, params: unknown): string {
  if (!Array.isArray(params) || params.length === 0) return '';
  const rows = params.map((raw) => {
    const p = resolveRef(spec, raw);
    return `<tr><td><code>${esc(String(p.name))}</code>${p.required ? ' <span class="req">required</span>' : ''}</td>
<td>${esc(String(p.in))}</td><td>${typeLabel(p.schema)}</td><td>${md(p.description as string)}${
      constraints(p.schema) ? `<p class="c">${constraints(p.schema)}</p>` : ''
    }</td></tr>`;
  });
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

function response(spec: SpecNode, status: string, raw: unknown): string {
  const r = resolveRef(spec, raw);
  const refLabel =
    isObj(raw) && typeof raw.$ref === 'string'
      ? ` <span class="c">(${esc(refName(raw.$ref))})</span>`
      : '';
  const headers = isObj(r.headers)
    ? `<p class="c">Headers: ${Object.keys(r.headers)
        .map((h) => `<code>${esc(h)}</code>`)
        .join(', ')}</p>`
    : '';
  const cls = status.startsWith('2')
    ? 'ok'
    : status.startsWith('4') || status.startsWith('5')
      ? 'err'
      : '';
  return `<details class="resp"><summary><span class="status ${cls}">${esc(status)}</span> ${md(r.description as string).replace(/^<p>|<\/p>$/g, '')}${refLabel}</summary>${headers}${content(r.content)}</details>`;
}

function responses(spec: SpecNode, all: unknown): string {
  if (!isObj(all)) return '';
  const items = Object.entries(all).map(([status, raw]) => response(spec, status, raw));
  return `<h4>Responses</h4>${items.join('\n')}`;
}

/**
 * One operation's section; `kind` prefixes its anchor (`op`, or `webhook` for webhooks).
 *
 * @example
 * operationHtml(spec, 'get', '/v1/models', spec.paths['/v1/models'].get, undefined);
 * // '<section class="op" id="op-listModels">…</section>'
 */
export function operationHtml(
  spec: SpecNode,
  method: string,
  path: string,
  op: SpecNode,
  pathParams: unknown,
  kind = 'op',
): string {
  const id = String(op.operationId ?? `${method}-${path}`);
  const params = [
    ...(Array.isArray(pathParams) ? pathParams : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ];
  const body = op.requestBody ? resolveRef(spec, op.requestBody) : null;
  return `<section class="op" id="${anchor(kind, id)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>
<p class="opid">${esc(String(op.summary ?? ''))} <span class="c">· operationId <code>${esc(id)}</code></span></p>
${md(op.description as string, 3)}
${parameters(spec, params)}
${body ? `<h4>Request body${body.required ? ' <span class="req">required</span>' : ''}</h4>${md(body.description as string)}${content(body.content)}` : ''}
${responses(spec, op.responses)}
</section>`;
}
