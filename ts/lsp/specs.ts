/**
 * Which language server serves which files: the built-in table (command, language ids, install
 * hint, initialisation options), `lsp.<name>` of the configuration files over it, and finding the
 * command on `PATH` or among gortex's own installed packages.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LspSetting } from '../config/config';
import { packageRoot } from '../support/package-root';

/** A language server gortex knows how to run. */
export interface ServerSpec {
  /** The server's key: `typescript` (TS and JS), `python`, `go`, `cpp` (C and C++), `rust`, `java`. */
  name: string;
  /** The command and its arguments. */
  command: string[];
  /** File extensions (lower case, with the dot) it serves, and the LSP language id of each. */
  languageIds: Record<string, string>;
  /** How to install the default command. */
  install: string;
  /** Quiet time after a publish before a file's diagnostics count as complete (servers that publish in parts). */
  settleMs: number;
  /**
   * Set for a server that never publishes "still clean" (typescript-language-server skips an empty
   * list after an empty one): a changed file whose last publish was empty and that hears nothing
   * for this long is taken to be clean still.
   */
  quietWhenCleanMs?: number;
  /**
   * Set for a server that answers requests about any file of its workspace from the disk, open or
   * not (pyright, gopls): enrichment asks it without lending each file, which would make the
   * server check the file as an open document.
   */
  readsWorkspace?: boolean;
  /** `initializationOptions` for a workspace at `root`. */
  initializationOptions?(root: string): unknown;
}

const TS_IDS: Record<string, string> = {
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript', '.tsx': 'typescriptreact',
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascriptreact',
};

/** The built-in servers, by name. */
export const SERVER_SPECS: Record<string, ServerSpec> = {
  typescript: {
    name: 'typescript',
    command: ['typescript-language-server', '--stdio'],
    languageIds: TS_IDS,
    install: 'npm install -g typescript-language-server@4 typescript',
    // tsserver reports syntax, semantic and suggestion diagnostics as separate events.
    settleMs: 750,
    quietWhenCleanMs: 3000,
    initializationOptions: (root) => {
      // The workspace's own TypeScript when it has one; else the one installed with gortex.
      const own = path.join(root, 'node_modules', 'typescript', 'lib', 'tsserver.js');
      const tsserver = fs.existsSync(own) ? own : bundledTsserver();
      return { ...(tsserver ? { tsserver: { path: tsserver } } : {}), preferences: { includeCompletionsForModuleExports: true } };
    },
  },
  python: { name: 'python', command: ['pyright-langserver', '--stdio'], languageIds: { '.py': 'python', '.pyi': 'python' }, install: 'npm install -g pyright', settleMs: 200, readsWorkspace: true },
  go: { name: 'go', command: ['gopls'], languageIds: { '.go': 'go' }, install: 'go install golang.org/x/tools/gopls@v0.23.0', settleMs: 300, readsWorkspace: true },
  cpp: {
    name: 'cpp',
    command: ['clangd', '--log=error'],
    languageIds: { '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp' },
    install: 'apt-get install clangd (Debian/Ubuntu) or brew install llvm',
    settleMs: 200,
  },
  rust: { name: 'rust', command: ['rust-analyzer'], languageIds: { '.rs': 'rust' }, install: 'rustup component add rust-analyzer', settleMs: 500 },
  java: { name: 'java', command: ['jdtls'], languageIds: { '.java': 'java' }, install: 'install Eclipse JDT Language Server (jdtls) and put it on PATH', settleMs: 500 },
};

function bundledTsserver(): string | undefined {
  try {
    return require.resolve('typescript/lib/tsserver.js', { paths: [packageRoot()] });
  } catch {
    return undefined;
  }
}

/** The server spec for a repository-relative path, or undefined when no server serves its extension. */
export function specFor(rel: string): ServerSpec | undefined {
  const ext = path.extname(rel).toLowerCase();
  return Object.values(SERVER_SPECS).find((s) => Object.hasOwn(s.languageIds, ext));
}

/** What runs for one server at one repository: the spec with the configuration's command, or why nothing runs. */
export interface ResolvedServer {
  spec: ServerSpec;
  /** The command as configured or built in. */
  command: string[];
  /** The executable found for `command[0]`, or undefined (then `unavailable` says why). */
  executable?: string;
  unavailable?: string;
  /** Where the command came from: `built-in` or the configuration's `file:line`. */
  source: string;
}

/** Resolves the server a spec names, with `lsp.<name>` of the configuration applied. */
export function resolveServer(spec: ServerSpec, setting: LspSetting | undefined, env: NodeJS.ProcessEnv = process.env): ResolvedServer {
  const command = setting?.command ?? spec.command;
  const source = setting?.command ? setting.source : 'built-in';
  if (setting && !setting.enabled) return { spec, command, source, unavailable: `the ${spec.name} language server is turned off (lsp.${spec.name}.enabled: false at ${setting.source})` };
  const executable = findExecutable(command[0]!, env);
  if (executable) return { spec, command, executable, source };
  return {
    spec,
    command,
    source,
    unavailable: setting?.command
      ? `the ${spec.name} language server command "${command[0]}" (${setting.source}) was not found on PATH`
      : `the ${spec.name} language server (${command[0]}) is not installed: ${spec.install}, or name another with lsp.${spec.name}.command in the gortex config`,
  };
}

/** `name` as an executable path: as given when it has a slash, else the first match on `PATH`, then gortex's own `node_modules/.bin`, then Go's install directories. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const runnable = (p: string): boolean => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (name.includes('/')) return runnable(name) ? path.resolve(name) : undefined;
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  try {
    dirs.push(path.join(packageRoot(), 'node_modules', '.bin'));
  } catch {
    /* not inside an installed package: PATH alone */
  }
  // Where `go install` puts binaries (gopls), often not on PATH.
  if (env.GOBIN) dirs.push(env.GOBIN);
  for (const gopath of (env.GOPATH ?? '').split(path.delimiter).filter((d) => d !== '')) dirs.push(path.join(gopath, 'bin'));
  if (env.HOME) dirs.push(path.join(env.HOME, 'go', 'bin'));
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (runnable(candidate)) return candidate;
  }
  return undefined;
}
