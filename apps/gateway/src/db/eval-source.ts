/**
 * Source text for code that runs in a fresh thread or process (`new Worker(text, { eval: true })`,
 * `node -e text`), built from a self-contained function: no separate file to ship in dist/ or to
 * compile for tests. Node may evaluate the text as CommonJS or as an ES module (`--input-type`,
 * inherited by workers, or syntax detection), so the function gets its `require` from
 * `createRequire` rather than from the module scope.
 */

/**
 * Text that calls `main(require, process.argv)`; `require` resolves from `base` (an absolute path).
 * `main` must reference nothing outside its own body.
 *
 * @example
 * new Worker(evalSource((load) => load('node:worker_threads').parentPort?.postMessage('hi'), here), { eval: true });
 */
export function evalSource(
  main: (load: NodeJS.Require, argv: string[]) => void,
  base: string,
): string {
  return `import('node:module').then((m) => (${main.toString()})(m.createRequire(${JSON.stringify(base)}), process.argv));`;
}
