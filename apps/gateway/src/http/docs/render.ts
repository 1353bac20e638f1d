/**
 * GET /docs: the OpenAPI document rendered server-side into one self-contained HTML page (inline CSS,
 * no scripts, nothing fetched from the internet — the gateway often runs offline). It shows every
 * operation grouped by tag (method, path, parameters, request body, responses), the webhooks and
 * every schema with its properties and constraints; `$ref`s become in-page links.
 *
 * This module lays out the page; an operation's section is operation-html.ts, a schema's parts
 * schema-html.ts, the style sheet page-css.ts.
 */
import { parse as parseYaml } from 'yaml';
import { escapeHtml as esc, renderMarkdown as md } from './markdown.js';
import { operationHtml } from './operation-html.js';
import { CSS } from './page-css.js';
import { constraints, example, properties, typeLabel } from './schema-html.js';
import { anchor, isObj, type SpecNode } from './spec-node.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Sections and navigation entries, by tag in the order tags are met. */
interface TaggedOperations {
  byTag: Map<string, string[]>;
  nav: Map<string, string[]>;
}

/** Every path operation's section and nav entry, under its first tag (`Other` without one). */
function tagOperations(spec: SpecNode, tags: readonly SpecNode[]): TaggedOperations {
  const paths = isObj(spec.paths) ? spec.paths : {};
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
      byTag.get(tag)!.push(operationHtml(spec, method, path, op, item.parameters));
      const id = String(op.operationId ?? `${method}-${path}`);
      nav
        .get(tag)!
        .push(
          `<li><a href="#${anchor('op', id)}"><span class="method ${method}">${method.toUpperCase()}</span> ${esc(path)}</a></li>`,
        );
    }
  }
  return { byTag, nav };
}

/** Every webhook's section and nav entry. */
function webhookParts(spec: SpecNode): { sections: string[]; nav: string[] } {
  const webhooks = isObj(spec.webhooks) ? spec.webhooks : {};
  const sections: string[] = [];
  const nav: string[] = [];
  for (const [name, rawItem] of Object.entries(webhooks)) {
    const item = isObj(rawItem) ? rawItem : {};
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      sections.push(
        operationHtml(
          spec,
          method,
          `{callback_url} (${name})`,
          { operationId: name, ...op },
          item.parameters,
          'webhook',
        ),
      );
      nav.push(`<li><a href="#${anchor('webhook', name)}">${esc(name)}</a></li>`);
    }
  }
  return { sections, nav };
}

/** Every component schema's section. */
function schemaSections(spec: SpecNode): string[] {
  const components = isObj(spec.components) ? spec.components : {};
  const schemas = isObj(components.schemas) ? components.schemas : {};
  return Object.entries(schemas).map(
    ([
      name,
      raw,
    ]) => `<section class="schema" id="${anchor('schema', name)}"><h3>${esc(name)}</h3>${md((raw as SpecNode)?.description as string)}
<p class="c">${typeLabel(raw)}${constraints(raw) ? `; ${constraints(raw)}` : ''}</p>${properties(raw)}${example((raw as SpecNode)?.example)}</section>`,
  );
}

/** The tag sections that hold operations, each with the tag's description. */
function tagSections(byTag: Map<string, string[]>, tags: readonly SpecNode[]): string[] {
  return [...byTag.entries()]
    .filter(([, ops]) => ops.length > 0)
    .map(([tag, ops]) => {
      const t = tags.find((x) => x.name === tag);
      return `<section id="${anchor('tag', tag)}"><h2>${esc(tag)}</h2>${md(t?.description as string, 2)}${ops.join('\n')}</section>`;
    });
}

/** The navigation's tag headings with their operations. */
function tagNav(nav: Map<string, string[]>): string {
  return [...nav.entries()]
    .filter(([, items]) => items.length > 0)
    .map(
      ([tag, items]) =>
        `<h5><a href="#${anchor('tag', tag)}">${esc(tag)}</a></h5><ul>${items.join('')}</ul>`,
    )
    .join('\n');
}

/** The whole page around the rendered parts. */
function page(spec: SpecNode): string {
  const info = isObj(spec.info) ? spec.info : {};
  const tags = Array.isArray(spec.tags) ? (spec.tags as SpecNode[]) : [];
  const { byTag, nav } = tagOperations(spec, tags);
  const webhooks = webhookParts(spec);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(String(info.title ?? 'API'))} — reference</title>
<style>${CSS}</style></head>
<body><nav><p class="brand">${esc(String(info.title ?? 'API'))} <span class="c">${esc(String(info.version ?? ''))}</span></p>
<p><a href="/openapi.yaml">openapi.yaml</a></p>
${tagNav(nav)}
${webhooks.nav.length ? `<h5><a href="#webhooks">Webhooks</a></h5><ul>${webhooks.nav.join('')}</ul>` : ''}
<h5><a href="#schemas">Schemas</a></h5></nav>
<main><header><h1>${esc(String(info.title ?? 'API'))} <span class="c">${esc(String(info.version ?? ''))}</span></h1>
<p class="lead">${esc(String(info.summary ?? ''))}</p>${md(info.description as string)}</header>
${tagSections(byTag, tags).join('\n')}
${webhooks.sections.length ? `<section id="webhooks"><h2>Webhooks</h2>${webhooks.sections.join('\n')}</section>` : ''}
<section id="schemas"><h2>Schemas</h2>${schemaSections(spec).join('\n')}</section>
</main></body></html>`;
}

/**
 * Render the reference page from the spec's YAML text.
 *
 * @example
 * const html = renderDocsPage(readFileSync('spec/openapi.yaml', 'utf8'));
 */
export function renderDocsPage(specYaml: string): string {
  const spec = parseYaml(specYaml) as unknown;
  return page(isObj(spec) ? spec : {});
}
