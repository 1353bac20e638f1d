/**
 * Just enough Markdown for OpenAPI descriptions: headings, paragraphs, lists, fenced code, inline
 * code, bold, italics and links. Everything is escaped first, so spec text can never inject HTML.
 */

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function inline(text: string): string {
  // Split out code spans first so their content is not formatted.
  return text
    .split(/(`[^`]*`)/g)
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length >= 2) {
        return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      }
      return escapeHtml(part)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
        .replace(/\[([^\]]+)\]\(((?:https?:\/\/|#)[^)\s]+)\)/g, '<a href="$2">$1</a>');
    })
    .join('');
}

/**
 * @example
 * renderMarkdown('## Auth\nSend `Authorization: Bearer sk-…`.');
 * // '<h3>Auth</h3>\n<p>Send <code>Authorization: Bearer sk-…</code>.</p>'
 */
export function renderMarkdown(source: string | undefined | null, headingOffset = 1): string {
  if (!source) return '';
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  let para: string[] = [];
  let list: string[] | null = null;
  let listTag: 'ul' | 'ol' = 'ul';

  const flushPara = () => {
    if (para.length) out.push(`<p>${inline(para.join(' '))}</p>`);
    para = [];
  };
  const flushList = () => {
    if (list)
      out.push(`<${listTag}>${list.map((li) => `<li>${inline(li)}</li>`).join('')}</${listTag}>`);
    list = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*```/.exec(line);
    if (fence) {
      flushPara();
      flushList();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]!); i++) code.push(lines[i]!);
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flushPara();
      flushList();
      const level = Math.min(6, heading[1]!.length + headingOffset);
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`);
      continue;
    }
    const bullet = /^\s*(?:[-*]|(\d+)\.)\s+(.*)$/.exec(line);
    if (bullet) {
      flushPara();
      const tag = bullet[1] ? 'ol' : 'ul';
      if (list && tag !== listTag) flushList();
      listTag = tag;
      list ??= [];
      list.push(bullet[2]!);
      continue;
    }
    if (line.trim() === '') {
      flushPara();
      flushList();
      continue;
    }
    if (list && /^\s+\S/.test(line)) {
      list[list.length - 1] += ` ${line.trim()}`;
      continue;
    }
    flushList();
    para.push(line.trim());
  }
  flushPara();
  flushList();
  return out.join('\n');
}
