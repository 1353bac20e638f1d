#!/usr/bin/env node
// The `modelgate` binary.
import { main } from './main.js';

const interrupt = new AbortController();
// One-shot commands stop on Ctrl+C (exit 130); the chat screen reads Ctrl+C as a key instead, so a
// SIGINT there comes from `kill` and closes it. A second SIGINT exits whatever is still running.
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
});

const code = await main(process.argv.slice(2), process.env, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: interrupt.signal,
});
// Leave nothing (sockets kept alive, timers) holding the process open once the output is out.
process.stdout.write('', () => process.exit(code));
