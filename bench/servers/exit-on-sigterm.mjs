// Preloaded (node --import) into a profiled server that has no SIGTERM handler of its own (Portkey,
// the floor): a process ended by the signal's default action never writes its --cpu-prof file, one
// that calls process.exit does.
process.once('SIGTERM', () => process.exit(0));
