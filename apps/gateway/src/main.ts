#!/usr/bin/env -S node --max-semi-space-size=8 --liftoff-only
/**
 * `node --max-semi-space-size=8 --liftoff-only dist/main.js` (or the `modelgate-gateway` bin, whose
 * first line says the same): start the gateway from the environment, drain on SIGTERM/SIGINT.
 * Exit codes: 0 after a clean drain, 1 on a bad configuration or a failed start.
 * `modelgate-gateway ledger check [--sweep]` instead prints the ledger per key (LEDGER.md): exit 0
 * when it balances, 1 when it does not, 2 when it cannot run (one line on stderr says why).
 *
 * Why the young generation is capped at 8 MB per semi-space (V8's default is 16): a gateway's
 * garbage is small and dies within its request, so the larger nursery bought nothing but resident
 * memory. Measured with 1,000 held streams: peak RSS 152 → 135 MB, and saturation was no lower
 * (PERFORMANCE.md round 5).
 *
 * Why WebAssembly stays on V8's baseline compiler (`--liftoff-only`): the embedded database is
 * PostgreSQL compiled to WASM, and tiering its hot functions up to TurboFan left ≈ 75 MB resident
 * (compiled code, and compiler memory kept by malloc): 1,000 held streams on PGlite peak at
 * ≈ 230 MB instead of ≈ 305 MB. A PGlite query costs ≈ 20 % more CPU, but a request makes few
 * (settlements are batched): gateway CPU per chat, one at a time or 16 at once, on PGlite or
 * PostgreSQL (where only undici's HTTP parser is WASM), was unchanged within 5 % (round 6).
 * Every start path (package scripts, the bench) uses these flags.
 */
import { ConfigError, loadConfig } from './config/config.js';
import { DataDirInUseError } from './db/pglite-lock.js';
import { startGateway } from './index.js';
import { createLogger } from './observability/logger.js';
import { endOfLifeMessage, endOfLifeNode } from './observability/node-end-of-life.js';

function isAddressInUse(err: unknown): err is NodeJS.ErrnoException & { port: number } {
  return (
    err instanceof Error &&
    'code' in err &&
    err.code === 'EADDRINUSE' &&
    'port' in err &&
    typeof err.port === 'number'
  );
}

async function main(): Promise<void> {
  const [command, sub, ...flags] = process.argv.slice(2);
  if (command === 'ledger' && sub === 'check') {
    const { ledgerCheckCommand } = await import('./commands/ledger-check.js');
    process.exit(await ledgerCheckCommand(process.env, flags));
  }
  if (command !== undefined) {
    process.stderr.write(`modelgate: unknown command '${process.argv.slice(2).join(' ')}'\n`);
    process.stderr.write('usage: modelgate-gateway [ledger check [--sweep]]\n');
    process.exit(2);
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`modelgate: configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger({ level: config.logLevel });
  const eol = endOfLifeNode();
  if (eol) log.warn(endOfLifeMessage(eol), { node: eol.version, end_of_life: eol.endOfLife });

  // Last-resort handlers: a stray rejection is logged, never fatal to requests in flight.
  process.on('unhandledRejection', (reason) => log.error('unhandled rejection', { err: reason }));
  process.on('uncaughtException', (err) => log.error('uncaught exception', { err }));

  let gateway: Awaited<ReturnType<typeof startGateway>>;
  try {
    gateway = await startGateway({ config, log });
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DataDirInUseError) {
      process.stderr.write(`modelgate: configuration error: ${err.message}\n`);
    } else if (isAddressInUse(err)) {
      const variable = err.port === config.cdnPort ? 'CDN_PORT' : 'PORT';
      process.stderr.write(
        `modelgate: port ${err.port} is already in use; set ${variable} to a free port (or stop what listens there)\n`,
      );
    } else {
      log.error('failed to start', { err });
    }
    process.exit(1);
  }

  let stopping = false;
  const drain = (signal: string) => {
    if (stopping) {
      log.warn('second signal: exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    log.info('draining', { signal, deadline_ms: config.drainTimeoutMs });
    gateway.close(config.drainTimeoutMs).then(
      () => process.exit(0),
      (err) => {
        log.error('drain failed', { err });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => drain('SIGTERM'));
  process.on('SIGINT', () => drain('SIGINT'));
}

void main();
