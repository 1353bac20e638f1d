// The package version, read from package.json at build time (tsup inlines the JSON import).
import packageJson from '../package.json' with { type: 'json' };

export const VERSION: string = packageJson.version;
