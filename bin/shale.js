#!/usr/bin/env node
import { main } from '../dist/main.js';

main(process.argv).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
