#!/usr/bin/env node
// The `slipstream` CLI (src/cli/main.ts), run from a checkout through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  isTty: Boolean(process.stderr.isTTY),
});
