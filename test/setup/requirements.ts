/**
 * Jest global setup: checks once, before any test, that the machine has what the suite drives for
 * real — the built addon and CLI, redis-server, the C/C++ and Go language servers, Go and a JDK
 * (the call-edge gold), Chromium, systemd-analyze, python3 — and says in one message what is missing and how to install it. A full
 * run stops there; a run of chosen files goes on after the warning (it may not need them).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findExecutable } from '../../ts/lsp/specs';

interface Requirement {
  what: string;
  /** Which tests drive it. */
  usedBy: string;
  install: string;
  present: () => boolean;
}

const ROOT = path.resolve(__dirname, '..', '..');

const REQUIREMENTS: Requirement[] = [
  {
    what: 'the built native addon (native/*.node)',
    usedBy: 'every test',
    install: 'npm run build:native',
    present: () => Boolean(process.env.GORTEX_NATIVE_PATH) || fs.readdirSync(path.join(ROOT, 'native')).some((f) => f.endsWith('.node')),
  },
  { what: 'the built CLI (dist/ts)', usedBy: 'the CLI, daemon and package tests', install: 'npm run build:ts', present: () => fs.existsSync(path.join(ROOT, 'dist', 'ts', 'cli', 'commands')) },
  { what: 'redis-server', usedBy: 'test/http-redis.test.ts', install: 'apt-get install redis-server', present: () => findExecutable('redis-server') !== undefined },
  { what: 'clangd', usedBy: 'test/lsp.test.ts', install: 'apt-get install clangd', present: () => findExecutable('clangd') !== undefined },
  { what: 'gopls', usedBy: 'test/lsp.test.ts', install: 'go install golang.org/x/tools/gopls@v0.23.0', present: () => findExecutable('gopls') !== undefined },
  { what: 'go', usedBy: 'test/eval-edges.test.ts (builds scip-go), test/lsp.test.ts', install: 'apt-get install golang-go', present: () => findExecutable('go') !== undefined },
  { what: 'javac', usedBy: 'test/eval-edges.test.ts (Java gold)', install: 'apt-get install default-jdk-headless', present: () => findExecutable('javac') !== undefined },
  { what: 'chromium (/usr/bin/chromium)', usedBy: 'test/ui.test.ts', install: 'apt-get install chromium', present: () => fs.existsSync('/usr/bin/chromium') },
  { what: 'systemd-analyze', usedBy: 'test/service.test.ts', install: 'apt-get install systemd', present: () => findExecutable('systemd-analyze') !== undefined },
  { what: 'python3', usedBy: 'test/service.test.ts (reads the launchd plist)', install: 'apt-get install python3', present: () => findExecutable('python3') !== undefined },
  { what: 'git', usedBy: 'most tests (fixture repositories)', install: 'apt-get install git', present: () => findExecutable('git') !== undefined },
];

/** The missing requirements, as one message (empty when nothing is missing). */
export function missingRequirements(): string {
  const missing = REQUIREMENTS.filter((r) => !r.present());
  if (missing.length === 0) return '';
  const width = Math.max(...missing.map((r) => r.what.length));
  return [
    'npm test drives real tools, and this machine lacks:',
    ...missing.map((r) => `  ${r.what.padEnd(width)}  used by ${r.usedBy}; install: ${r.install}`),
    '.ci/run installs all of them.',
  ].join('\n');
}

export default async function globalSetup(globalConfig: { testPathPatterns?: { isSet?: () => boolean } }): Promise<void> {
  const message = missingRequirements();
  if (message === '') return;
  const chosenFiles = globalConfig.testPathPatterns?.isSet?.() === true;
  if (!chosenFiles) throw new Error(message);
  process.stderr.write(`\n${message}\n(going on: only chosen test files run)\n\n`);
}
