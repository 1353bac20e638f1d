// README code blocks as tests: every package whose README shows code runs that code, so a snippet
// that stops compiling or working fails the build instead of misleading a reader. Shared by the
// packages' `test/readme.test.ts` files (imported by relative path; it is test support, not a package).
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

const run = promisify(execFile);

/** One fenced code block of a README. */
export interface Snippet {
  /** The fence's language: `ts`, `tsx`, `js`, `sh`, … */
  lang: string;
  code: string;
  /** 1-based line of the opening fence, for test names. */
  line: number;
}

/** The fenced code blocks of a Markdown file, optionally only those of the given languages. */
export function readSnippets(markdownPath: string, langs?: readonly string[]): Snippet[] {
  const lines = readFileSync(markdownPath, 'utf8').split('\n');
  const snippets: Snippet[] = [];
  let open: { lang: string; line: number; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (!open && fence) open = { lang: fence[1] ?? '', line: index + 1, body: [] };
    else if (open && text.startsWith('```')) {
      if (!langs || langs.includes(open.lang)) {
        snippets.push({ lang: open.lang, code: open.body.join('\n'), line: open.line });
      }
      open = undefined;
    } else open?.body.push(text);
  });
  return snippets;
}

/** Replaces every occurrence of each key (the README's placeholders: URLs, keys) by its value. */
export function substitute(code: string, replacements: Record<string, string> = {}): string {
  let out = code;
  for (const [from, to] of Object.entries(replacements)) out = out.split(from).join(to);
  return out;
}

/** TypeScript / TSX to plain ES module JavaScript (types erased, JSX to react/jsx-runtime). */
export function toJavaScript(code: string): string {
  return ts.transpileModule(code, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      jsx: ts.JsxEmit.ReactJSX,
      verbatimModuleSyntax: false,
    },
  }).outputText;
}

let written = 0;

/**
 * Writes the snippet as a module inside `dir` (so its bare imports resolve as they would for the
 * package's user: the package's own name to its built `dist/`, its dependencies from its
 * `node_modules`), hands the path to `use`, and deletes the file afterwards.
 */
export async function withSnippetModule<T>(
  dir: string,
  snippet: Snippet,
  replacements: Record<string, string>,
  use: (path: string) => Promise<T>,
): Promise<T> {
  const code = substitute(snippet.code, replacements);
  const js = snippet.lang === 'js' || snippet.lang === 'mjs' ? code : toJavaScript(code);
  written += 1;
  const path = join(dir, `.readme-snippet-${process.pid}-${written}.mjs`);
  writeFileSync(path, js);
  try {
    return await use(path);
  } finally {
    rmSync(path, { force: true });
  }
}

/** Runs a snippet as its own Node process in `dir`; resolves with its standard output. */
export function runSnippet(
  dir: string,
  snippet: Snippet,
  options: { replacements?: Record<string, string>; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  return withSnippetModule(dir, snippet, options.replacements ?? {}, async (path) => {
    const { stdout } = await run(process.execPath, [path], {
      cwd: dir,
      env: { ...process.env, ...options.env },
      timeout: 30_000,
    });
    return stdout;
  });
}

/** The root `package.json` scripts, by name. */
export function rootScripts(repoRoot: string): Record<string, string> {
  return JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts;
}

/**
 * The `pnpm …` commands of a shell snippet that the repository does not have: each `pnpm <name>`
 * (after `&&` too) must be `install` or a root script. Comments are ignored. Long-running commands
 * (`pnpm start`, `pnpm web`) cannot run inside a test; this keeps them from naming a script that
 * does not exist.
 */
export function unknownPnpmCommands(snippet: Snippet, repoRoot: string): string[] {
  const scripts = rootScripts(repoRoot);
  return snippet.code
    .split('\n')
    .flatMap((line) => line.replace(/#.*/, '').split('&&'))
    .map((command) => command.trim())
    .filter((command) => command.startsWith('pnpm '))
    .map((command) => command.split(/\s+/)[1] ?? '')
    .filter((name) => name !== 'install' && !(name in scripts));
}
