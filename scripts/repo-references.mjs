// The repository stands on its own: every Markdown file a tracked file names (`LEDGER.md`,
// `docs/design.md#video`) and every relative Markdown link must exist in the repository, anchors
// included. A reader of the repository never sees files that live outside it, so a pointer to one
// explains nothing. Run by scripts/repo-references.test.mjs (part of `pnpm test`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * Never scanned: other projects' files, build output, generated code, release history, and this
 * check's own files, whose examples name missing files on purpose.
 */
const NOT_OURS = [
  /(^|\/)node_modules\//,
  /(^|\/)dist\//,
  /\/generated\//,
  /^\.changeset\//,
  /^scripts\/repo-references(\.test)?\.mjs$/,
];

/** A Markdown file name, with an optional path before it and an optional `#anchor` after it. */
const MD_MENTION = /(?<![\w./@:-])((?:[\w.-]+\/)*[\w-][\w.-]*\.md)\b(?:#([\w-]+))?/g;
/** `[text](target)` and `[label]: target`. */
const MD_LINK = /\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)/g;
/** An address with a scheme, or a host name followed by a path: not a repository path. */
const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/\S+|(?<![\w./-])(?:[a-z0-9-]+\.)+[a-z]{2,}\/\S*/gi;

/**
 * The tracked files of the repository at `root`, as `/`-separated relative paths.
 *
 * @example
 * trackedFiles('.').includes('README.md'); // true
 */
export function trackedFiles(root) {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The lines of a Markdown text with fenced code blocks blanked (their lines keep their numbers). */
function outsideFences(text) {
  let fence = null;
  return text.split('\n').map((line) => {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker && (fence === null || fence === marker)) {
      fence = fence === null ? marker : null;
      return '';
    }
    return fence === null ? line : '';
  });
}

/** Every anchor a Markdown text defines (repeated headings get GitHub's `-1`, `-2` suffixes). */
export function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  for (const line of outsideFences(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/**
 * The repository as the checks see it: which paths exist (files and their folders) and, lazily,
 * the anchors of a Markdown file.
 */
export function repositoryView(files, readText) {
  const paths = new Set(files);
  for (const file of files) {
    for (let dir = dirname(file); dir !== '.'; dir = dirname(dir)) paths.add(dir);
  }
  const anchorCache = new Map();
  return {
    exists: (path) => paths.has(path),
    anchors(path) {
      if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(readText(path)));
      return anchorCache.get(path);
    },
  };
}

/** `target` relative to the folder of `from`, as a repository path (null when it leaves the repository). */
function resolveFrom(from, target) {
  const path = normalize(join(dirname(from), target)).replace(/\\/g, '/');
  return path.startsWith('../') || path === '..' ? null : path.replace(/\/$/, '') || '.';
}

/** Where a mentioned Markdown file may be: next to the mention, in a folder above it, or from the root. */
function candidatesForMention(from, mentioned) {
  const candidates = [resolveFrom(from, mentioned), normalize(mentioned)];
  if (!mentioned.includes('/')) {
    for (let dir = dirname(from); dir !== '.'; dir = dirname(dir)) {
      candidates.push(`${dir}/${mentioned}`);
    }
  }
  return candidates.filter((path) => path !== null);
}

/** A finding about the anchor of an existing Markdown target, or null when it is there. */
function anchorFinding(repo, path, anchor) {
  if (!anchor || !path.endsWith('.md') || repo.anchors(path).has(anchor)) return null;
  return `${path} has no heading with the anchor #${anchor}`;
}

function mentionFindings(file, line, repo) {
  const findings = [];
  for (const [, mentioned, anchor] of line.replace(URL_LIKE, '').matchAll(MD_MENTION)) {
    const found = candidatesForMention(file, mentioned).find((path) => repo.exists(path));
    if (!found) findings.push(`names ${mentioned}, which is not in the repository`);
    else {
      const problem = anchorFinding(repo, found, anchor);
      if (problem) findings.push(problem);
    }
  }
  return findings;
}

function linkFindings(file, line, repo) {
  const findings = [];
  const prose = line.replace(/`[^`]*`/g, '');
  for (const match of prose.matchAll(MD_LINK)) {
    const target = match[1] ?? match[2];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [pathPart, anchor] = target.split('#', 2);
    const path = pathPart === '' ? file : resolveFrom(file, decodeURI(pathPart));
    if (path === null || !repo.exists(path)) {
      findings.push(`links to ${target}, which is not in the repository`);
      continue;
    }
    const problem = anchorFinding(repo, path, anchor);
    if (problem) findings.push(problem);
  }
  return findings;
}

/**
 * What is wrong with the references of one file: Markdown files it names that are not in the
 * repository, relative links that lead nowhere, anchors without a heading.
 *
 * @example
 * const repo = repositoryView(['a.ts'], () => '');
 * findingsIn('a.ts', '// see DESIGN.md', repo);
 * // [{ file: 'a.ts', line: 1, text: '// see DESIGN.md', problem: 'names DESIGN.md, which is not in the repository' }]
 */
export function findingsIn(file, text, repo) {
  const rawLines = text.split('\n');
  const markdown = file.endsWith('.md');
  const linkLines = markdown ? outsideFences(text) : [];
  const findings = [];
  rawLines.forEach((raw, index) => {
    // A link's text may name its target's file (`[LEDGER.md](apps/gateway/LEDGER.md)`): the
    // link check covers it, so only the words outside links count as mentions.
    const words = markdown ? raw.replace(MD_LINK, '') : raw;
    const problems = mentionFindings(file, words, repo);
    if (markdown) problems.push(...linkFindings(file, linkLines[index] ?? '', repo));
    for (const problem of problems) {
      findings.push({ file, line: index + 1, text: raw.trim(), problem });
    }
  });
  return findings;
}

/**
 * Every finding in the repository at `root`.
 *
 * @example
 * const { failing } = scanRepository('.');
 * for (const f of failing) console.log(formatFinding(f));
 */
export function scanRepository(root) {
  const files = trackedFiles(root).filter((file) => !NOT_OURS.some((re) => re.test(file)));
  const readText = (path) => readFileSync(join(root, path), 'utf8');
  const repo = repositoryView(files, readText);
  const failing = [];
  for (const file of files) {
    const text = readText(file);
    if (text.includes('\0')) continue; // binary
    failing.push(...findingsIn(file, text, repo));
  }
  return { failing };
}

/** `file:line: problem` and the line itself, for a test failure or a log. */
export function formatFinding({ file, line, text, problem }) {
  return `${file}:${line}: ${problem}\n    ${text}`;
}
