/**
 * The pinned corpora of `gortex eval parity`: one registry package per language, fetched as a
 * source archive, checked against a pinned sha256 and unpacked into a cache folder.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** How an archive is unpacked: gzip'd tar (`.tgz`, `.crate`, sdist), xz'd tar (Debian `.orig.tar.xz`) or zip (Go module zip, jar). */
export type ArchiveFormat = 'tgz' | 'txz' | 'zip';

/** One pinned corpus. */
export interface ParityCorpus {
  /** The language measured on it (a graph `language`; `tsx` counts as `typescript`). */
  language: string;
  /** Package name as its registry spells it. */
  name: string;
  version: string;
  /** Which registry serves it (for the report). */
  registry: 'npm' | 'PyPI' | 'Go proxy' | 'crates.io' | 'Maven Central' | 'Debian';
  url: string;
  sha256: string;
  format: ArchiveFormat;
  /** The folder inside the archive that holds the package (`package`, `requests-2.32.3`, …); '' for the archive root. */
  inner: string;
  /** The sub-folder of the package that is indexed ('' = all of it). */
  subdir: string;
  /** Why this package and folder (shown nowhere; kept for whoever changes the pin). */
  note: string;
}

/**
 * The corpus list, one per language. Adding a language means adding a row here and its coverage
 * to `eval/parity-baseline.json` (`gortex eval parity --lang L --update` prints the merged file).
 */
export const PARITY_CORPORA: readonly ParityCorpus[] = [
  {
    language: 'typescript',
    name: 'zod',
    version: '4.1.12',
    registry: 'npm',
    url: 'https://registry.npmjs.org/zod/-/zod-4.1.12.tgz',
    sha256: '2ef9d7a7d822b059c9bd21f87caa4fdc48220d437353678984df942fb67b43fa',
    format: 'tgz',
    inner: 'package',
    subdir: 'src',
    note: 'zod 3.x tarballs ship only lib/*.js + .d.ts; 4.x ships its TypeScript sources under src/ (the compiled v4/ and v3/ folders are left out)',
  },
  {
    language: 'javascript',
    name: 'express',
    version: '4.21.2',
    registry: 'npm',
    url: 'https://registry.npmjs.org/express/-/express-4.21.2.tgz',
    sha256: 'fc43a91e7dc7affb53c6ad7123a4f35485ed3c45226ae7a3847b7738e783e008',
    format: 'tgz',
    inner: 'package',
    subdir: '',
    note: 'hand-written CommonJS (require) sources, no build step',
  },
  {
    language: 'python',
    name: 'requests',
    version: '2.32.3',
    registry: 'PyPI',
    url: 'https://files.pythonhosted.org/packages/63/70/2bf7780ad2d390a8d301ad0b550f1581eadbd9a20f896afe06353c2a2913/requests-2.32.3.tar.gz',
    sha256: '55365417734eb18255590a9ff9eb97e9e1da868d4ccd6402399eaf68af20a760',
    format: 'tgz',
    inner: 'requests-2.32.3',
    subdir: '',
    note: 'the sdist: src/requests and tests/',
  },
  {
    language: 'go',
    name: 'github.com/gin-gonic/gin',
    version: 'v1.10.0',
    registry: 'Go proxy',
    url: 'https://proxy.golang.org/github.com/gin-gonic/gin/@v/v1.10.0.zip',
    sha256: 'c983efe780ee7c250a287eb26f228e0f7b77667c5ff9f4448cd54f05d28f5e70',
    format: 'zip',
    inner: 'github.com/gin-gonic/gin@v1.10.0',
    subdir: '',
    note: 'the module zip (the whole module, tests included)',
  },
  {
    language: 'rust',
    name: 'ripgrep',
    version: '14.1.1',
    registry: 'crates.io',
    url: 'https://static.crates.io/crates/ripgrep/ripgrep-14.1.1.crate',
    sha256: 'f77b8032dc584527975f34aa5a897d0ef5a785573fda778771a614ff9da501d9',
    format: 'tgz',
    inner: 'ripgrep-14.1.1',
    subdir: '',
    note: 'the published crate is the binary crate (crates/core), not the whole workspace',
  },
  {
    language: 'java',
    name: 'com.google.code.gson:gson',
    version: '2.11.0',
    registry: 'Maven Central',
    url: 'https://repo1.maven.org/maven2/com/google/code/gson/gson/2.11.0/gson-2.11.0-sources.jar',
    sha256: '49a853f71bc874ee1898a4ad5009b57d0c536e5a998b3890253ffbf4b7276ad3',
    format: 'zip',
    inner: '',
    subdir: '',
    note: 'the sources jar (main sources only, no tests)',
  },
  {
    language: 'c',
    name: 'lua5.4',
    version: '5.4.7',
    registry: 'Debian',
    url: 'https://deb.debian.org/debian/pool/main/l/lua5.4/lua5.4_5.4.7.orig.tar.gz',
    sha256: '9fbf5e28ef86c69858f6d3d34eccc32e911c1a28b4120ff3e84aaa70cfbf1e30',
    format: 'tgz',
    inner: 'lua-5.4.7',
    subdir: '',
    note: 'the Debian orig tarball of Lua: plain C, one header per module (lapi.c ↔ lapi.h), no include paths needed',
  },
  {
    language: 'cpp',
    name: 'leveldb',
    version: '1.23',
    registry: 'Debian',
    url: 'https://deb.debian.org/debian/pool/main/l/leveldb/leveldb_1.23.orig.tar.gz',
    sha256: '9a37f8a6174f09bd622bc723b55881dc541cd50747cbd08831c2a82d620f6d76',
    format: 'tgz',
    inner: 'leveldb-1.23',
    subdir: '',
    note: 'the Debian orig tarball: namespaced classes, out-of-line methods, `#include "leveldb/x.h"` from include/',
  },
  {
    language: 'csharp',
    name: 'dnlib',
    version: '2.1',
    registry: 'Debian',
    url: 'https://deb.debian.org/debian/pool/main/d/dnlib/dnlib_2.1.orig.tar.gz',
    sha256: 'eb2d35a27a68ca37568659615d93cf2a544527d0ba7428a7e2852b7592362556',
    format: 'tgz',
    inner: 'dnlib-2.1_VS2010',
    subdir: '',
    note: 'NuGet packages ship compiled assemblies, not sources; Debian packages dnlib (a .NET metadata library) from source',
  },
  {
    language: 'kotlin',
    name: 'com.squareup.okhttp3:okhttp',
    version: '4.12.0',
    registry: 'Maven Central',
    url: 'https://repo1.maven.org/maven2/com/squareup/okhttp3/okhttp/4.12.0/okhttp-4.12.0-sources.jar',
    sha256: 'd91a769a4140e542cddbac4e67fcf279299614e8bfd53bd23b85e60c2861341c',
    format: 'zip',
    inner: '',
    subdir: '',
    note: 'the sources jar of OkHttp 4 (written in Kotlin; main sources only, no tests)',
  },
  {
    language: 'php',
    name: 'php-monolog',
    version: '3.9.0',
    registry: 'Debian',
    url: 'https://deb.debian.org/debian/pool/main/p/php-monolog/php-monolog_3.9.0.orig.tar.xz',
    sha256: '6699608b50ed7cc4eea8898d5d9928827a0bfb20190a6f0cdf784e78281c8787',
    format: 'txz',
    inner: 'php-monolog-3.9.0',
    subdir: '',
    note: 'Packagist is not among the registries here; Debian packages Monolog from source (src/ and tests/)',
  },
  {
    language: 'ruby',
    name: 'org.jruby:jruby-stdlib',
    version: '9.4.12.0',
    registry: 'Maven Central',
    url: 'https://repo1.maven.org/maven2/org/jruby/jruby-stdlib/9.4.12.0/jruby-stdlib-9.4.12.0.jar',
    sha256: 'efb56bc918fc426b98086e8b0a25015c61858dd2ad9b066c24921c6cb60cf63e',
    format: 'zip',
    inner: 'META-INF/jruby.home/lib/ruby/gems/shared/gems/rake-13.0.6',
    subdir: '',
    note: 'rubygems.org is not reachable here and the Debian ruby-* tarballs 404 through the proxy; JRuby ships Ruby gems as source in this jar, rake 13.0.6 among them (the gem as published: lib/, exe/)',
  },
  {
    language: 'lua',
    name: 'lua-penlight',
    version: '1.14.0',
    registry: 'Debian',
    url: 'https://deb.debian.org/debian/pool/main/l/lua-penlight/lua-penlight_1.14.0.orig.tar.gz',
    sha256: '2387431c0e83c4189cccb35b989141a3280d735cb5d42bacf3451af9869bebf7',
    format: 'tgz',
    inner: 'Penlight-1.14.0',
    subdir: '',
    note: 'LuaRocks is not among the registries here; Debian packages Penlight from source (lua/pl/*.lua, busted specs, examples)',
  },
  {
    language: 'bash',
    name: 'bash-completion',
    version: '2.16.0',
    registry: 'Debian',
    url: 'https://deb.debian.org/debian/pool/main/b/bash-completion/bash-completion_2.16.0.orig.tar.gz',
    sha256: 'c4d7edf0b035d8f6ed33294380326bde1fb8a4a8e24699566d545b4276141cc2',
    format: 'tgz',
    inner: 'bash-completion-2.16.0',
    subdir: '',
    note: 'the largest shell code base the package proxy serves: bash_completion plus 500 extension-less completion files recognised by their `-*- shell-script -*-` modeline (bats and git-extras tarballs answer 404 here)',
  },
  {
    language: 'scala',
    name: 'org.typelevel:cats-core_2.13',
    version: '2.13.0',
    registry: 'Maven Central',
    url: 'https://repo1.maven.org/maven2/org/typelevel/cats-core_2.13/2.13.0/cats-core_2.13-2.13.0-sources.jar',
    sha256: 'e13b1fc9c33fd6f6bee2bb4ea31840d031af727c92c177524d2588ab567a2137',
    format: 'zip',
    inner: '',
    subdir: '',
    note: 'the sources jar of Cats (245 .scala files, no tests)',
  },
  {
    language: 'vue',
    name: 'element-ui',
    version: '2.15.14',
    registry: 'npm',
    url: 'https://registry.npmjs.org/element-ui/-/element-ui-2.15.14.tgz',
    sha256: '60e6c12cb64680c01fe12951e18980c29f550e424a7ccf7544857d48a1169b23',
    format: 'tgz',
    inner: 'package',
    subdir: 'packages',
    note: 'one of few npm packages shipping Vue single-file components as source: packages/*/src/*.vue (116 SFCs, Vue 2 options API) beside the index.js files that import them; lib/ is compiled',
  },
  {
    language: 'swift',
    name: 'expo-modules-core',
    version: '3.0.0',
    registry: 'npm',
    url: 'https://registry.npmjs.org/expo-modules-core/-/expo-modules-core-3.0.0.tgz',
    sha256: 'c4fbfb3c0aa7a681e7e00a7f032f5104ac1f4a90b0e73a347a2ffa2d957f894a',
    format: 'tgz',
    inner: 'package',
    subdir: 'ios',
    note: 'Swift packages are not on any registry reachable here (SwiftPM fetches git, CocoaPods is not mirrored); React Native modules ship their iOS sources on npm: ios/ holds 178 .swift files of one CocoaPods module (tests included) beside Objective-C++',
  },
  {
    language: 'haskell',
    name: 'haskell-megaparsec',
    version: '9.5.0',
    registry: 'Debian',
    url: 'https://deb.debian.org/debian/pool/main/h/haskell-megaparsec/haskell-megaparsec_9.5.0.orig.tar.gz',
    sha256: '687008d6ddcadfd6603c805067f005067f0e428856fc83eceed68d0c6fc3da52',
    format: 'tgz',
    inner: 'megaparsec-9.5.0',
    subdir: '',
    note: 'generic tier: the Hackage tarball as Debian ships it, `Text.Megaparsec.*` modules importing one another (Hackage itself is not reachable here)',
  },
  {
    language: 'elixir',
    name: 'elixir-lang',
    version: '1.18.3',
    registry: 'Debian',
    url: 'https://deb.debian.org/debian/pool/main/e/elixir-lang/elixir-lang_1.18.3.dfsg.orig.tar.xz',
    sha256: '3620a200199328950e309ab1994c014311ee46440d8692a331ad6509edce582f',
    format: 'txz',
    inner: 'elixir-1.18.3',
    subdir: 'lib/elixir/lib',
    note: 'generic tier: the Elixir standard library itself (`Enum`, `String`, `Kernel`, …; Hex is not reachable here)',
  },
  {
    language: 'erlang',
    name: 'erlang-proper',
    version: '1.5.0',
    registry: 'Debian',
    url: 'https://deb.debian.org/debian/pool/main/e/erlang-proper/erlang-proper_1.5.0.orig.tar.gz',
    sha256: '68fcc3b23ea98537d7a2b926de688dc347e02804c54d0f8d79ca7092c9456b68',
    format: 'tgz',
    inner: 'proper-1.5.0',
    subdir: 'src',
    note: 'generic tier: PropEr, a property-testing library whose modules call each other `mod:fun(…)` (rebar3 and yaws answer 404 here)',
  },
];

/** The languages that have a corpus, in list order. */
export const PARITY_LANGUAGES: readonly string[] = PARITY_CORPORA.map((c) => c.language);

/** `name@version` of a corpus, as the report prints it. */
export function corpusLabel(corpus: ParityCorpus): string {
  return `${corpus.name}@${corpus.version}`;
}

/** The default cache folder: `$XDG_CACHE_HOME/gortex/parity`, else `~/.cache/gortex/parity`. */
export function defaultParityCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'gortex', 'parity');
}

/** A download, checksum or unpack failure; its message names the URL and the fix. */
export class CorpusFetchError extends Error {
  override name = 'CorpusFetchError';
}

function sha256Of(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** The folder-safe `<language>-<name>-<version>` of a corpus (Go and Maven names hold `/` and `:`). */
function corpusKey(corpus: ParityCorpus): string {
  return `${corpus.language}-${corpus.name.replace(/[/:]/g, '_')}-${corpus.version}`;
}

function archiveName(corpus: ParityCorpus): string {
  // The URL's last segment alone can collide (every Go module zip is `<version>.zip`).
  return `${corpusKey(corpus)}-${decodeURIComponent(new URL(corpus.url).pathname.split('/').pop()!)}`;
}

/** A file pinned by URL and sha256: a corpus archive, or a tool a gold is made with. */
export interface PinnedFile {
  url: string;
  sha256: string;
  registry: ParityCorpus['registry'];
  /** `name@version`, for messages. */
  label: string;
}

async function download(pin: PinnedFile, file: string): Promise<void> {
  const manual = `or download it by hand to ${file} (sha256 ${pin.sha256})`;
  let response: Response;
  try {
    response = await fetch(pin.url, { redirect: 'follow' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CorpusFetchError(
      `Cannot download ${pin.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}. ` +
        `Fix: check that ${pin.registry} is reachable from this machine (proxy, DNS), ${manual}.`,
    );
  }
  if (!response.ok) {
    throw new CorpusFetchError(
      `Cannot download ${pin.url}: HTTP ${response.status}. Fix: the pin ${pin.label} may have been ` +
        `withdrawn from ${pin.registry}; pin another version in ts/eval/, ${manual}.`,
    );
  }
  const body = Buffer.from(await response.arrayBuffer());
  // Written under a temporary name so an interrupted download never passes as the archive.
  fs.writeFileSync(`${file}.part`, body);
  fs.renameSync(`${file}.part`, file);
}

/** `file`, downloaded when absent and checked against its pin (a mismatch is removed and refused). */
export async function ensurePinnedFile(pin: PinnedFile, file: string, log: (msg: string) => void = () => {}): Promise<string> {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    log(`downloading ${pin.url}`);
    await download(pin, file);
  }
  const got = sha256Of(file);
  if (got !== pin.sha256) {
    fs.rmSync(file, { force: true });
    throw new CorpusFetchError(
      `${pin.url} has sha256 ${got}, expected ${pin.sha256} (the file was removed). Fix: run again; if it ` +
        `differs again the registry serves other bytes for ${pin.label} and the pin needs review.`,
    );
  }
  return file;
}

function unpack(corpus: ParityCorpus, archive: string, into: string): void {
  const [cmd, args]: [string, string[]] =
    corpus.format === 'tgz'
      ? ['tar', ['-xzf', archive, '-C', into]]
      : corpus.format === 'txz'
        ? ['tar', ['-xJf', archive, '-C', into]]
        : ['unzip', ['-q', '-o', archive, '-d', into]];
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error) {
    throw new CorpusFetchError(
      `Cannot unpack ${archive}: \`${cmd}\` is not available (${r.error.message}). Fix: install it (apt-get install ${cmd}).`,
    );
  }
  if (r.status !== 0) {
    throw new CorpusFetchError(`Cannot unpack ${archive} with ${cmd}: ${r.stderr.trim()}. Fix: delete it and run again.`);
  }
}

/**
 * The directory to index for `corpus`, fetching, verifying and unpacking it into `cacheDir` when
 * it is not there yet. A cached archive is checked against the pin again before each unpack.
 */
export async function ensureCorpus(corpus: ParityCorpus, cacheDir: string, log: (msg: string) => void = () => {}): Promise<string> {
  const dest = path.join(cacheDir, corpusKey(corpus));
  const indexed = path.join(dest, corpus.subdir);
  // `dest` appears only by the rename below, so its presence means a complete unpack.
  if (fs.existsSync(dest)) return indexed;
  const archive = await ensurePinnedFile({ ...corpus, label: corpusLabel(corpus) }, path.join(cacheDir, 'archives', archiveName(corpus)), log);
  const tmp = `${dest}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  try {
    unpack(corpus, archive, tmp);
    const inner = path.join(tmp, corpus.inner);
    if (!fs.existsSync(inner)) {
      throw new CorpusFetchError(`${archive} has no folder "${corpus.inner}": the pin in ts/eval/parity-corpora.ts is wrong.`);
    }
    fs.renameSync(inner, dest);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return indexed;
}
