/**
 * GET /docs: the OpenAPI document rendered server-side into one self-contained HTML page (inline CSS,
 * no scripts, nothing fetched from the internet — the gateway often runs offline). It shows every
 * operation grouped by tag (method, path, parameters, request body, responses), the webhooks and
 * every schema with its properties and constraints; `$ref`s become in-page links.
 */
import { parse as parseYaml } from 'yaml';
import { escapeHtml as esc, renderMarkdown as md } from './markdown.js';

// The spec is data we render; its shape is only as typed as OpenAPI itself.
type Node = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const isObj = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function refName(ref: string): string {
  return ref.split('/').pop() ?? ref;
}

function anchor(kind: string, name: string): string {
  return `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

class Renderer {
  constructor(private readonly spec: Node) {}

  /** Follow a local `$ref` (#/components/...) once. */
  resolve(node: unknown): Node {
    if (isObj(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      let cur: unknown = this.spec;
      for (const part of node.$ref.slice(2).split('/')) cur = isObj(cur) ? cur[part] : undefined;
      return isObj(cur) ? cur : {};
    }
    return isObj(node) ? node : {};
  }

  /** A short type label, with links for references. */
  typeLabel(schema: unknown, depth = 0): string {
    if (!isObj(schema)) return '';
    if (typeof schema.$ref === 'string') {
      const name = refName(schema.$ref);
      return `<a href="#${anchor('schema', name)}">${esc(name)}</a>`;
    }
    if (depth > 4) return 'object';
    for (const comb of ['oneOf', 'anyOf'] as const) {
      const list = schema[comb];
      if (Array.isArray(list)) return list.map((s) => this.typeLabel(s, depth + 1)).join(' | ');
    }
    if (Array.isArray(schema.allOf))
      return schema.allOf.map((s) => this.typeLabel(s, depth + 1)).join(' & ');
    if (schema.const !== undefined) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
    const types = Array.isArray(schema.type)
      ? (schema.type as string[])
      : schema.type
        ? [String(schema.type)]
        : [];
    const labels = types.map((t) => {
      if (t === 'array') return `array of ${this.typeLabel(schema.items, depth + 1) || 'any'}`;
      if (t === 'object' && isObj(schema.additionalProperties)) {
        return `map of ${this.typeLabel(schema.additionalProperties, depth + 1)}`;
      }
      return esc(t);
    });
    if (labels.length === 0 && isObj(schema.properties)) labels.push('object');
    if (schema.format) labels[0] = `${labels[0] ?? ''} (${esc(String(schema.format))})`;
    return labels.join(' | ') || 'any';
  }

  constraints(schema: unknown): string {
    const s = this.resolveInline(schema);
    const parts: string[] = [];
    const show = (label: string, v: unknown) => {
      if (v !== undefined)
        parts.push(`${label} <code>${esc(typeof v === 'string' ? v : JSON.stringify(v))}</code>`);
    };
    if (Array.isArray(s.enum))
      parts.push(
        `one of ${s.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ')}`,
      );
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

  /** Inline (non-$ref) schema as-is; a $ref stays unresolved so constraints stay with their schema. */
  private resolveInline(schema: unknown): Node {
    return isObj(schema) && !schema.$ref ? schema : {};
  }

  /** Property table of an object schema; nested inline objects get their own nested table. */
  properties(schema: unknown, depth = 0): string {
    const s = this.resolveInline(schema);
    const props = isObj(s.properties) ? s.properties : null;
    const parts: string[] = [];
    for (const comb of ['oneOf', 'anyOf', 'allOf'] as const) {
      const list = s[comb];
      if (Array.isArray(list)) {
        const word = comb === 'allOf' ? 'All of' : comb === 'oneOf' ? 'One of' : 'Any of';
        parts.push(`<p>${word}: ${list.map((x) => this.typeLabel(x)).join(', ')}</p>`);
        const disc = isObj(s.discriminator) ? s.discriminator.propertyName : undefined;
        if (disc) parts.push(`<p>Discriminator: <code>${esc(String(disc))}</code></p>`);
      }
    }
    if (!props) return parts.join('\n');
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const rows = Object.entries(props).map(([name, raw]) => {
      const p = isObj(raw) ? raw : {};
      const nested =
        depth < 3 &&
        !p.$ref &&
        (isObj(p.properties) || (isObj(p.items) && isObj((p.items as Node).properties)))
          ? this.properties(isObj(p.properties) ? p : p.items, depth + 1)
          : '';
      return `<tr><td><code>${esc(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td>
<td>${this.typeLabel(p)}</td><td>${md(p.description as string)}${
        this.constraints(p) ? `<p class="c">${this.constraints(p)}</p>` : ''
      }${nested}</td></tr>`;
    });
    const extra =
      s.additionalProperties === false ? '<p class="c">No other fields are accepted.</p>' : '';
    parts.push(
      `<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>${extra}`,
    );
    return parts.join('\n');
  }

  schemaBlock(schema: unknown): string {
    if (!isObj(schema)) return '';
    if (schema.$ref) return `<p>Schema: ${this.typeLabel(schema)}</p>`;
    return `<p>Schema: ${this.typeLabel(schema)}</p>${this.properties(schema)}`;
  }

  example(value: unknown): string {
    if (value === undefined) return '';
    const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    return `<details><summary>Example</summary><pre><code>${esc(text)}</code></pre></details>`;
  }

  content(content: unknown): string {
    if (!isObj(content)) return '';
    return Object.entries(content)
      .map(([type, raw]) => {
        const media = isObj(raw) ? raw : {};
        return `<div class="media"><p class="ct"><code>${esc(type)}</code></p>${this.schemaBlock(media.schema)}${this.example(media.example)}</div>`;
      })
      .join('\n');
  }

  parameters(params: unknown): string {
    if (!Array.isArray(params) || params.length === 0) return '';
    const rows = params.map((raw) => {
      const p = this.resolve(raw);
      return `<tr><td><code>${esc(String(p.name))}</code>${p.required ? ' <span class="req">required</span>' : ''}</td>
<td>${esc(String(p.in))}</td><td>${this.typeLabel(p.schema)}</td><td>${md(p.description as string)}${
        this.constraints(p.schema) ? `<p class="c">${this.constraints(p.schema)}</p>` : ''
      }</td></tr>`;
    });
    return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
  }

  responses(responses: unknown): string {
    if (!isObj(responses)) return '';
    const items = Object.entries(responses).map(([status, raw]) => {
      const r = this.resolve(raw);
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
      return `<details class="resp"><summary><span class="status ${cls}">${esc(status)}</span> ${md(r.description as string).replace(/^<p>|<\/p>$/g, '')}${refLabel}</summary>${headers}${this.content(r.content)}</details>`;
    });
    return `<h4>Responses</h4>${items.join('\n')}`;
  }

  operation(method: string, path: string, op: Node, pathParams: unknown, kind = 'op'): string {
    const id = String(op.operationId ?? `${method}-${path}`);
    const params = [
      ...(Array.isArray(pathParams) ? pathParams : []),
      ...(Array.isArray(op.parameters) ? op.parameters : []),
    ];
    const body = op.requestBody ? this.resolve(op.requestBody) : null;
    return `<section class="op" id="${anchor(kind, id)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>
<p class="opid">${esc(String(op.summary ?? ''))} <span class="c">· operationId <code>${esc(id)}</code></span></p>
${md(op.description as string, 3)}
${this.parameters(params)}
${body ? `<h4>Request body${body.required ? ' <span class="req">required</span>' : ''}</h4>${md(body.description as string)}${this.content(body.content)}` : ''}
${this.responses(op.responses)}
</section>`;
  }

  render(): string {
    const spec = this.spec;
    const info = isObj(spec.info) ? spec.info : {};
    const paths = isObj(spec.paths) ? spec.paths : {};
    const tags = Array.isArray(spec.tags) ? (spec.tags as Node[]) : [];
    const byTag = new Map<string, string[]>();
    const nav = new Map<string, string[]>();
    for (const t of tags) {
      byTag.set(String(t.name), []);
      nav.set(String(t.name), []);
    }
    for (const [path, rawItem] of Object.entries(paths)) {
      const item = isObj(rawItem) ? rawItem : {};
      for (const method of METHODS) {
        const op = item[method];
        if (!isObj(op)) continue;
        const tag = Array.isArray(op.tags) && op.tags.length ? String(op.tags[0]) : 'Other';
        if (!byTag.has(tag)) {
          byTag.set(tag, []);
          nav.set(tag, []);
        }
        byTag.get(tag)!.push(this.operation(method, path, op, item.parameters));
        const id = String(op.operationId ?? `${method}-${path}`);
        nav
          .get(tag)!
          .push(
            `<li><a href="#${anchor('op', id)}"><span class="method ${method}">${method.toUpperCase()}</span> ${esc(path)}</a></li>`,
          );
      }
    }
    const webhooks = isObj(spec.webhooks) ? spec.webhooks : {};
    const webhookSections: string[] = [];
    const webhookNav: string[] = [];
    for (const [name, rawItem] of Object.entries(webhooks)) {
      const item = isObj(rawItem) ? rawItem : {};
      for (const method of METHODS) {
        const op = item[method];
        if (!isObj(op)) continue;
        webhookSections.push(
          this.operation(
            method,
            `{callback_url} (${name})`,
            { operationId: name, ...op },
            item.parameters,
            'webhook',
          ),
        );
        webhookNav.push(`<li><a href="#${anchor('webhook', name)}">${esc(name)}</a></li>`);
      }
    }
    const components = isObj(spec.components) ? spec.components : {};
    const schemas = isObj(components.schemas) ? components.schemas : {};
    const schemaSections = Object.entries(schemas).map(
      ([
        name,
        raw,
      ]) => `<section class="schema" id="${anchor('schema', name)}"><h3>${esc(name)}</h3>${md((raw as Node)?.description as string)}
<p class="c">${this.typeLabel(raw)}${this.constraints(raw) ? `; ${this.constraints(raw)}` : ''}</p>${this.properties(raw)}${this.example((raw as Node)?.example)}</section>`,
    );

    const tagSections = [...byTag.entries()]
      .filter(([, ops]) => ops.length > 0)
      .map(([tag, ops]) => {
        const t = tags.find((x) => x.name === tag);
        return `<section id="${anchor('tag', tag)}"><h2>${esc(tag)}</h2>${md(t?.description as string, 2)}${ops.join('\n')}</section>`;
      });
    const navHtml = [...nav.entries()]
      .filter(([, items]) => items.length > 0)
      .map(
        ([tag, items]) =>
          `<h5><a href="#${anchor('tag', tag)}">${esc(tag)}</a></h5><ul>${items.join('')}</ul>`,
      )
      .join('\n');

    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(String(info.title ?? 'API'))} — reference</title>
<style>${CSS}</style></head>
<body><nav><p class="brand">${esc(String(info.title ?? 'API'))} <span class="c">${esc(String(info.version ?? ''))}</span></p>
<p><a href="/openapi.yaml">openapi.yaml</a></p>
${navHtml}
${webhookNav.length ? `<h5><a href="#webhooks">Webhooks</a></h5><ul>${webhookNav.join('')}</ul>` : ''}
<h5><a href="#schemas">Schemas</a></h5></nav>
<main><header><h1>${esc(String(info.title ?? 'API'))} <span class="c">${esc(String(info.version ?? ''))}</span></h1>
<p class="lead">${esc(String(info.summary ?? ''))}</p>${md(info.description as string)}</header>
${tagSections.join('\n')}
${webhookSections.length ? `<section id="webhooks"><h2>Webhooks</h2>${webhookSections.join('\n')}</section>` : ''}
<section id="schemas"><h2>Schemas</h2>${schemaSections.join('\n')}</section>
</main></body></html>`;
  }
}

const CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1d2330;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:300px;flex:none;padding:16px;background:#f5f6f8;border-right:1px solid #e2e4e9;font-size:13px}
nav ul{list-style:none;padding:0;margin:0 0 8px}nav li a{display:block;padding:2px 0;color:#1d2330;text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav h5{margin:14px 0 4px;font-size:12px;text-transform:uppercase;letter-spacing:.05em}nav h5 a{color:#556}.brand{font-weight:700;font-size:15px}
main{flex:1;min-width:0;padding:24px 40px;max-width:1100px}h1{margin-top:0}h2{border-bottom:2px solid #e2e4e9;padding-bottom:4px;margin-top:48px}
.op,.schema{border:1px solid #e2e4e9;border-radius:8px;padding:4px 18px 12px;margin:18px 0}.op h3{font-size:17px}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#f0f1f4;padding:1px 4px;border-radius:4px}pre{background:#f0f1f4;padding:10px;border-radius:6px;overflow:auto}pre code{background:none;padding:0}
table{border-collapse:collapse;width:100%;margin:8px 0;font-size:14px}th,td{border-top:1px solid #e2e4e9;padding:6px 8px;text-align:left;vertical-align:top}th{font-size:12px;color:#556;text-transform:uppercase}
td table{font-size:13px}td p{margin:0 0 4px}.c{color:#667;font-size:13px}.req{color:#b4233c;font-size:11px;font-weight:600}
.method{display:inline-block;min-width:52px;text-align:center;font:700 11px ui-monospace,monospace;padding:2px 6px;border-radius:4px;color:#fff;background:#667}
.method.get{background:#2f7d4f}.method.post{background:#2458b3}.method.delete{background:#b4233c}.method.put,.method.patch{background:#a8660a}
.status{display:inline-block;font:700 12px ui-monospace,monospace;padding:1px 6px;border-radius:4px;background:#e2e4e9}.status.ok{background:#d8f0e0}.status.err{background:#fbe0e4}
details{margin:4px 0}summary{cursor:pointer}.resp summary p{display:inline}.media{margin-left:12px}.ct{margin:6px 0 0}.lead{font-size:17px;color:#445}a{color:#2458b3}
`;

/**
 * Render the reference page from the spec's YAML text.
 *
 * @example
 * const html = renderDocsPage(readFileSync('spec/openapi.yaml', 'utf8'));
 */
export function renderDocsPage(specYaml: string): string {
  const spec = parseYaml(specYaml) as unknown;
  return new Renderer(isObj(spec) ? spec : {}).render();
}
