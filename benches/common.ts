// Helpers shared by the benchmarks: corpus fetching, machine facts, BENCHMARKS.md sections.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The package root. */
export const ROOT = path.resolve(__dirname, '..', '..');

/** Loosely typed JSON records (benchmark results are free-form). */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Runs a command in the package root; throws with its stderr when it fails. */
export function sh(cmd: string, args: string[], env?: NodeJS.ProcessEnv): string {
  const r = spawnSync(cmd, args, { cwd: ROOT, env: env ?? process.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** Fetches corpora by source name (`rxjs`, `ts`, …) with fetch-corpora.sh: corpus name → directory. */
export function fetchCorpora(sources: string[], log: (msg: string) => void): Map<string, string> {
  log(`fetching corpora: ${sources.join(' ')}`);
  const out = sh(path.join(ROOT, 'benches', 'fetch-corpora.sh'), sources);
  const paths = new Map<string, string>();
  for (const line of out.trim().split('\n')) {
    const [name, p] = line.split('\t');
    if (name && p) paths.set(name, p);
  }
  return paths;
}

/** The first line of a text, trimmed. */
export function firstLine(s: string): string {
  return s.split('\n')[0]?.trim() ?? '';
}

/** Facts about the machine a run happened on. */
export function machine(): Json {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  return {
    date: new Date().toISOString(),
    nproc: os.cpus().length,
    cpu,
    mem_gib: Math.round(os.totalmem() / 2 ** 30),
    kernel: os.release(),
    node: process.version,
    rustc: firstLine(sh('rustc', ['--version'])),
  };
}

/** Replaces (or appends) the `## <heading>` section of a markdown file with `body`. */
export function writeSection(file: string, heading: string, body: string): void {
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n\n';
  const start = text.indexOf(`## ${heading}`);
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + 1);
    text = text.slice(0, start) + body + (next >= 0 ? '\n' + text.slice(next + 1) : '');
  } else {
    text = text.trimEnd() + '\n\n' + body;
  }
  fs.writeFileSync(file, text);
}

/** What `benchMain` needs from one benchmark. */
export interface BenchSpec<O extends { out: string; fromJson?: string }> {
  /** The BENCHMARKS.md section it owns (`## <heading>`). */
  heading: string;
  /** Raw results go to `benches/results/<rawPrefix>-<date>.json`. */
  rawPrefix: string;
  options: O;
  run: (options: O) => Promise<Json>;
  section: (result: Json, machine: Json, rawName: string) => string;
}

/**
 * The shared main of a benchmark: measure (or, with `--from-json`, re-render saved results),
 * save the raw JSON, and write its BENCHMARKS.md section.
 */
export async function benchMain<O extends { out: string; fromJson?: string }>(spec: BenchSpec<O>): Promise<void> {
  const o = spec.options;
  if (o.fromJson) {
    const raw = JSON.parse(fs.readFileSync(o.fromJson, 'utf8')) as Json;
    const body = spec.section(raw.result, raw.machine, path.relative(ROOT, o.fromJson));
    writeSection(o.out, spec.heading, body);
    process.stdout.write(body);
    return;
  }
  const m = machine();
  const result = await spec.run(o);
  const rawName = path.join('benches', 'results', `${spec.rawPrefix}-${m.date.slice(0, 10)}.json`);
  fs.mkdirSync(path.join(ROOT, 'benches', 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, rawName), JSON.stringify({ machine: m, options: o, result }, null, 2) + '\n');
  const body = spec.section(result, m, rawName);
  writeSection(o.out, spec.heading, body);
  process.stdout.write(body);
}

/** Seeded sampling, shared with `gortex eval refactor`. */
export { prng, sample } from '../ts/support/random';

/**
 * Walks `--flag value` command lines: `for (const flag of args)` yields each flag, `args.value(flag)`
 * takes the word after it (throwing `<flag> needs a value` at the end), `args.int(flag)` a
 * non-negative integer.
 */
export class Args implements Iterable<string> {
  private at = 0;
  constructor(private readonly argv: readonly string[]) {}
  *[Symbol.iterator](): Iterator<string> {
    while (this.at < this.argv.length) yield this.argv[this.at++]!;
  }
  value(flag: string): string {
    const v = this.argv[this.at++];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    return v;
  }
  int(flag: string): number {
    const n = Number(this.value(flag));
    if (!Number.isInteger(n) || n < 0) throw new Error(`${flag} needs a non-negative integer`);
    return n;
  }
}

/** The value of `--name` on this process's command line, or `fallback`. */
export function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

/** Files under `root` whose names match `pattern` (relative, sorted), skipping `node_modules` and dot-directories. */
export function listFiles(root: string, pattern: RegExp): string[] {
  const out: string[] = [];
  const stack = [''];
  while (stack.length) {
    const rel = stack.pop()!;
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) stack.push(child);
      } else if (pattern.test(entry.name)) out.push(child);
    }
  }
  return out.sort();
}

/** A function declaration named `name` that can be appended to a file of this extension (Java: a class). */
export function probeSource(file: string, name: string): string {
  if (file.endsWith('.py')) return `\n\ndef ${name}():\n    return 1\n`;
  if (file.endsWith('.go')) return `\nfunc ${name}() int {\n\treturn 1\n}\n`;
  if (file.endsWith('.rs')) return `\npub fn ${name}() -> i32 {\n    1\n}\n`;
  if (file.endsWith('.java')) return `\nclass ${name} {}\n`;
  return `\nexport function ${name}() {\n  return 1;\n}\n`;
}
