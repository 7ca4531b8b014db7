#!/usr/bin/env -S node --max-semi-space-size=32
import { main } from '../dist/main.js';

main(process.argv).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
