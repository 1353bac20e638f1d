/** The command line's flags, as node:util's parseArgs reads them: one table for every command. */
import { parseArgs } from 'node:util';

/** Parses argv against the flag table; throws on an unknown flag or a missing value. */
export function parseWithNode(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'admin-key': { type: 'string' },
      model: { type: 'string', short: 'm' },
      api: { type: 'string' },
      profile: { type: 'string' },
      json: { type: 'boolean' },
      csv: { type: 'boolean' },
      // Repeatable: an edit takes several input images (a video takes one).
      image: { type: 'string', multiple: true },
      mask: { type: 'string' },
      duration: { type: 'string' },
      wait: { type: 'boolean' },
      name: { type: 'string' },
      quota: { type: 'string' },
      limit: { type: 'string' },
      status: { type: 'string' },
      all: { type: 'boolean' },
      rpm: { type: 'string' },
      tpm: { type: 'string' },
      models: { type: 'string' },
      expires: { type: 'string' },
      budget: { type: 'string' },
      team: { type: 'string' },
      'alert-url': { type: 'string' },
      days: { type: 'string' },
      hours: { type: 'string' },
      by: { type: 'string' },
      key: { type: 'string' },
      action: { type: 'string' },
      size: { type: 'string' },
      quality: { type: 'string' },
      n: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}

/** The flags as parseArgs read them. */
export type OptionValues = ReturnType<typeof parseWithNode>['values'];
