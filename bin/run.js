#!/usr/bin/env node
// gortex CLI entry: runs the compiled oclif commands in dist/ts/cli/commands.
'use strict';

const { execute, settings } = require('@oclif/core');

// Always run the compiled JavaScript: never let oclif map commands back to ts/ sources
// (it tries to when NODE_ENV is "test" or "development", e.g. under Jest).
settings.enableAutoTranspile = false;

execute({ dir: __dirname }).catch((error) => {
  // execute() already reports command errors; this is only reached if oclif itself fails.
  console.error(error && error.stack ? error.stack : String(error));
  process.exitCode = 1;
});
