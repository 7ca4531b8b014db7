import { buildProgram } from './cli/index.js';

/** Entry point used by bin/shale.js. */
export async function main(argv: readonly string[]): Promise<void> {
  await buildProgram().parseAsync([...argv]);
}
