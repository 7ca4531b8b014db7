import { pathToFileURL } from 'node:url';

/**
 * Runs `main(argv)` when the module at `moduleUrl` is the script node was started with (not when
 * a test imports it): exit code 0, or the error's message on stderr prefixed with `label` and 1.
 */
export function runIfMain(moduleUrl: string, label: string, main: (argv: readonly string[]) => Promise<unknown>): void {
  const script = process.argv[1];
  if (script === undefined || moduleUrl !== pathToFileURL(script).href) return;
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${label}: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
