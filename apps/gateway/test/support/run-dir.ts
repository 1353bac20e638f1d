/**
 * The test run's scratch folders, made by global-setup.ts and handed to the test files with
 * `inject`; what lives in them, by name.
 */
import { join } from 'node:path';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Under node_modules/.cache, so a build there finds its dependencies: the gateway's build. */
    testRunDir: string;
    /** In memory where the machine has /dev/shm: the PGlite templates and a copy per database. */
    pgliteRoot: string;
  }
}

export type PgliteTemplate = 'empty' | 'migrated';

/** The run's PGlite template of that kind: initdb only, or every migration applied too. */
export const templateDir = (pgliteRoot: string, template: PgliteTemplate) =>
  join(pgliteRoot, `template-${template}`);

/** The run's one build of the gateway (child-gateway.ts). */
export const gatewayBuildDir = (runDir: string) => join(runDir, 'gateway-build');
