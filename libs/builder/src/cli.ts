#!/usr/bin/env node
/**
 * Entry point of the node-home builder CLI (`node libs/builder/dist/cli.js --help`).
 */
import { runCli } from './cli-commands.js';

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
