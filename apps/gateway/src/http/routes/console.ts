/**
 * `GET /console`: the operator console, a single-page app built into the `@modelgate/console`
 * workspace package's `dist/` (`pnpm start` builds it). Its files are read once, on the first
 * request, and kept in memory (400 kB, 120 kB gzipped, for the console 0.1).
 *
 * - `/console/assets/*` are Vite's hashed files: a changed file gets a new name, so they are cached
 *   for a year, `immutable`. A missing one is a 404, never the page (a script answered with HTML
 *   fails obscurely).
 * - Every other path under `/console/` is a screen of the app: `index.html`, revalidated on each
 *   load (`no-cache` with an ETag), so a browser never runs an old page against new assets after
 *   the gateway restarts with a new build.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Context, Hono } from 'hono';
import { notFound } from '../../errors/api-error.js';
import type { AppEnv } from '../env.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
/** Text compresses to a quarter or less; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.map', '.svg', '.txt']);
const HASHED_CACHE = 'public, max-age=31536000, immutable';
/** The page may not be framed (clickjacking an operator's clicks) and sends no referrer. */
const PAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

interface StaticFile {
  raw: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
}

/** The built files by their path under dist/ (`/`-separated), or null when there is no build. */
let files: Map<string, StaticFile> | null | undefined;

function consoleDist(): string | null {
  try {
    const manifest = fileURLToPath(import.meta.resolve('@modelgate/console/package.json'));
    const dist = join(dirname(manifest), 'dist');
    return existsSync(join(dist, 'index.html')) ? dist : null;
  } catch {
    return null;
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function loadFiles(): Map<string, StaticFile> | null {
  if (files !== undefined) return files;
  const dist = consoleDist();
  files = dist === null ? null : new Map();
  if (!dist || !files) return files;
  for (const path of walk(dist)) {
    const raw = readFileSync(path);
    const ext = extname(path);
    files.set(relative(dist, path).split(sep).join('/'), {
      raw,
      gzip: COMPRESSIBLE.has(ext) ? gzipSync(raw) : null,
      type: CONTENT_TYPES[ext] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`,
    });
  }
  return files;
}

function send(c: Context<AppEnv>, file: StaticFile, headers: Record<string, string>) {
  const all: Record<string, string> = {
    'content-type': file.type,
    etag: file.etag,
    vary: 'accept-encoding',
    ...headers,
  };
  if (c.req.header('if-none-match') === file.etag) return c.body(null, 304, all);
  if (file.gzip && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
    return c.body(new Uint8Array(file.gzip), 200, { ...all, 'content-encoding': 'gzip' });
  }
  return c.body(new Uint8Array(file.raw), 200, all);
}

function builtFiles(): Map<string, StaticFile> {
  const built = loadFiles();
  if (!built) {
    throw notFound(
      'The console is not built: run `pnpm build` (or `pnpm start`, which builds it) and restart the gateway.',
      'console_not_built',
    );
  }
  return built;
}

/**
 * @example
 * registerConsoleRoutes(app); // GET /console, /console/assets/*, /console/<screen>
 */
export function registerConsoleRoutes(app: Hono<AppEnv>): void {
  const page = (c: Context<AppEnv>) => {
    const index = builtFiles().get('index.html');
    if (!index) throw notFound('The console build has no index.html.', 'console_not_built');
    return send(c, index, { ...PAGE_HEADERS, 'cache-control': 'no-cache' });
  };

  app.get('/console', page);
  app.get('/console/assets/*', (c) => {
    const path = c.req.path.slice('/console/'.length);
    const file = builtFiles().get(path);
    if (!file) throw notFound(`No console asset ${path}.`, 'route_not_found');
    return send(c, file, { 'cache-control': HASHED_CACHE });
  });
  app.get('/console/*', page);
}
