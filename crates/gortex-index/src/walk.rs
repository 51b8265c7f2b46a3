//! Walking a repository: ignore rules, built-in excludes, size cap, symlinks, config files.
//!
//! The first stage of indexing. [`walk`] traverses with the `ignore` crate and judges every entry
//! by [`IgnoreRules`]: `.gitignore` (nested), `.ignore`, `.gortexignore`, git's excludes, the
//! ignore files of the root's parents, the built-in excluded directories and the `exclude`
//! patterns, with a size cap. The rules read ignore files themselves, within
//! [`MAX_IGNORE_FILE_BYTES`] and [`MAX_IGNORE_PATTERNS`] (the crate read them whole: a 200 KB
//! `.gitignore` of `gen_*.ts` patterns made a walk of 10k files take half a minute, each such
//! pattern being a regex run on every `.ts` path); a file cut to the caps is reported as skipped
//! (`ignore_file_partial`). Symlinks are never followed (a link may lead out of the repository or
//! loop): a link is reported (`symlink`), nothing below a linked directory is read. FIFOs and
//! devices are reported, never read. Every file the walk reaches then passes the content checks
//! of `classify.rs` (binary, minified, generated) before it is parsed.
//!
//! [`Admission`] judges single paths exactly as the walk would, without walking, with the same
//! rules: a watcher's batch (`RepoIndex::apply_changes`) admits or refuses each of its paths
//! through it (a path through a symlink is refused and the link reported, as the walk reports
//! it), and `tests/watch_batches.rs` compares it with the walk.

use crate::{SkipReason, Skipped};
use gortex_core::Language;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// Directories never descended into unless configured otherwise.
pub const DEFAULT_EXCLUDED_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "target",
    "dist",
    "build",
    "out",
    "vendor",
    "bower_components",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".next",
    ".nuxt",
    ".gradle",
    "coverage",
    ".cache",
    ".idea",
    ".vscode",
];

/// Config files the resolver reads (module paths, tsconfig paths, workspace packages, crates).
pub const CONFIG_FILES: &[&str] = &[
    "go.mod",
    "tsconfig.json",
    "jsconfig.json",
    "package.json",
    "Cargo.toml",
    "compile_commands.json",
];

/// What the walker found.
#[derive(Debug, Default)]
pub struct WalkResult {
    pub sources: Vec<Candidate>,
    /// Repo-relative paths of config files.
    pub configs: Vec<String>,
    pub skipped: Vec<Skipped>,
}

/// A source file the walker admitted (size and language known, content not yet read).
#[derive(Debug, Clone)]
pub struct Candidate {
    pub rel: String,
    pub abs: PathBuf,
    pub language: Language,
    pub size: u64,
    pub mtime_ns: u64,
}

/// Walk settings.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    pub excluded_dirs: Vec<String>,
    /// Gitignore-style patterns relative to the root (`.gortex.yaml` `exclude`).
    pub exclude: Vec<String>,
    pub max_file_size: u64,
    pub respect_gitignore: bool,
}

/// Modification time in nanoseconds since the epoch (0 when unavailable).
pub fn mtime_ns(meta: &std::fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// Repo-relative path with `/` separators.
pub fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let s: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!s.is_empty()).then(|| s.join("/"))
}

/// How the walk reports the symlink at `abs` (repository-relative `rel`), which it never follows:
/// a link to a directory always (nothing below it is read, whatever it holds), any other link when
/// its name is a language's (`symlink_loop` when it leads nowhere); `None` for other links.
fn symlink_skipped(rel: &str, abs: &Path) -> Option<Skipped> {
    let target = std::fs::metadata(abs);
    let to_dir = target.as_ref().is_ok_and(|m| m.is_dir());
    if !to_dir && Language::from_path(rel).is_none() {
        return None;
    }
    let link = std::fs::read_link(abs).ok().map(|t| t.display().to_string());
    let detail = match (link, to_dir) {
        (Some(t), true) => Some(format!("-> {t} (a directory; links are never followed)")),
        (Some(t), false) => Some(format!("-> {t}")),
        (None, _) => None,
    };
    let reason = if target.is_err() {
        SkipReason::SymlinkLoop
    } else {
        SkipReason::Symlink
    };
    Some(Skipped {
        path: rel.to_string(),
        reason,
        detail,
    })
}

/// A matcher for gitignore-style exclude patterns relative to `root`; an invalid pattern is an
/// error naming it.
pub fn exclude_matcher(root: &Path, patterns: &[String]) -> Result<ignore::gitignore::Gitignore, String> {
    let mut builder = ignore::gitignore::GitignoreBuilder::new(root);
    for p in patterns {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        builder
            .add_line(None, p)
            .map_err(|e| format!("exclude pattern {p:?} is not a valid gitignore-style pattern: {e}"))?;
    }
    builder.build().map_err(|e| format!("exclude patterns: {e}"))
}

/// Walks `root` honouring `.gitignore` (nested), `.ignore`, `.gortexignore`, git's excludes,
/// the ignore files of the root's parent directories, the built-in excluded directories and the
/// `exclude` patterns, all judged by [`IgnoreRules`] (the rules [`Admission`] uses too, each
/// ignore file read within [`MAX_IGNORE_FILE_BYTES`] and [`MAX_IGNORE_PATTERNS`]; a file cut to
/// them is reported). Symlinks are not followed (they could leave the repository or loop); they
/// are reported as skipped.
pub fn walk(root: &Path, options: &WalkOptions) -> WalkResult {
    let mut result = WalkResult::default();
    let rules = std::sync::Arc::new(std::sync::Mutex::new(IgnoreRules::new(root, options)));
    let judge = std::sync::Arc::clone(&rules);
    let root_path = root.to_path_buf();
    let mut builder = ignore::WalkBuilder::new(root);
    // The crate's own ignore-file handling is off: it reads every ignore file whole and compiles
    // it as is (a 200 KB `.gitignore` of `gen_*.ts` patterns cost seconds per thousand files).
    builder
        .hidden(false)
        .follow_links(false)
        .git_ignore(false)
        .git_global(false)
        .git_exclude(false)
        .parents(false)
        .ignore(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |entry| {
            if entry.depth() == 0 {
                return true;
            }
            let Some(rel) = relative(&root_path, entry.path()) else {
                return true;
            };
            let parts: Vec<&str> = rel.split('/').collect();
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            let mut rules = judge.lock().unwrap_or_else(|e| e.into_inner());
            !rules.leaves_out(&parts, entry.path(), is_dir)
        });
    for item in builder.build() {
        let entry = match item {
            Ok(e) => e,
            Err(err) => {
                let path = match &err {
                    ignore::Error::WithPath { path, .. } => {
                        relative(root, path).unwrap_or_else(|| path.display().to_string())
                    }
                    _ => String::new(),
                };
                let reason = if matches!(err, ignore::Error::Loop { .. }) {
                    SkipReason::SymlinkLoop
                } else {
                    SkipReason::Unreadable
                };
                result.skipped.push(Skipped {
                    path,
                    reason,
                    detail: Some(err.to_string()),
                });
                continue;
            }
        };
        let Some(file_type) = entry.file_type() else { continue };
        if file_type.is_dir() {
            continue;
        }
        let Some(rel) = relative(root, entry.path()) else {
            continue;
        };
        let name = entry.file_name().to_string_lossy();
        if file_type.is_symlink() {
            result.skipped.extend(symlink_skipped(&rel, entry.path()));
            continue;
        }
        if !file_type.is_file() {
            // FIFOs, sockets and devices would block or never end when read.
            if Language::from_path(&rel).is_some() {
                let detail = Some("not a regular file".to_string());
                result.skipped.push(Skipped {
                    path: rel,
                    reason: SkipReason::Unreadable,
                    detail,
                });
            }
            continue;
        }
        if CONFIG_FILES.contains(&name.as_ref()) {
            result.configs.push(rel.clone());
        }
        let Some(language) = Language::from_path(&rel) else {
            continue;
        };
        if !gortex_lang::supports(language) {
            continue;
        }
        let meta = match entry.metadata() {
            Ok(m) => m,
            Err(e) => {
                result.skipped.push(Skipped {
                    path: rel,
                    reason: SkipReason::Unreadable,
                    detail: Some(e.to_string()),
                });
                continue;
            }
        };
        if meta.len() > options.max_file_size {
            let detail = Some(format!("{} bytes > cap {} bytes", meta.len(), options.max_file_size));
            result.skipped.push(Skipped {
                path: rel,
                reason: SkipReason::TooLarge,
                detail,
            });
            continue;
        }
        result.sources.push(Candidate {
            rel,
            abs: entry.into_path(),
            language,
            size: meta.len(),
            mtime_ns: mtime_ns(&meta),
        });
    }
    let mut rules = rules.lock().unwrap_or_else(|e| e.into_inner());
    result.skipped.append(&mut rules.partial);
    result.sources.sort_by(|a, b| a.rel.cmp(&b.rel));
    result.configs.sort();
    result
}

/// Whether `path` itself is a symlink (not followed).
fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The ignore files the walker reads in every directory (besides git's own excludes).
pub const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore", ".gortexignore"];

/// Most bytes read from one ignore file; the rest is not read (the cut is reported). Real ignore
/// files are a few kilobytes; the cap bounds what one pathological file costs to compile.
pub const MAX_IGNORE_FILE_BYTES: usize = 64 * 1024;

/// Most patterns honoured from one ignore file; later ones are dropped (the cut is reported). A
/// wildcard pattern ending in a literal extension (`gen_*.ts`) is compiled to a regex of its own
/// that runs on every path with that extension, so the cost of a walk grows with patterns × files.
pub const MAX_IGNORE_PATTERNS: usize = 1_000;

/// The ignore matchers of one directory.
#[derive(Default)]
struct DirMatchers {
    custom: Option<ignore::gitignore::Gitignore>,
    ignore: Option<ignore::gitignore::Gitignore>,
    git: Option<ignore::gitignore::Gitignore>,
    exclude: Option<ignore::gitignore::Gitignore>,
}

/// The rules that leave paths out of a walk, shared by [`walk`] and [`Admission`] so that both
/// judge alike: built-in excluded directories, the `exclude` patterns, and the ignore files of
/// every directory on the way and of the root's parents (`.gortexignore` over `.ignore` over
/// `.gitignore` over git's `info/exclude` over the global excludes; in each kind the deepest file
/// that matches decides), as the `ignore` crate orders them. Each ignore file is read once, never
/// through a symlink, within [`MAX_IGNORE_FILE_BYTES`] and [`MAX_IGNORE_PATTERNS`].
pub struct IgnoreRules {
    root: PathBuf,
    excluded: std::collections::HashSet<String>,
    patterns: ignore::gitignore::Gitignore,
    respect_gitignore: bool,
    global: ignore::gitignore::Gitignore,
    /// The matchers of the root's parent directories that have ignore files, nearest first.
    ancestors: Vec<DirMatchers>,
    /// The matchers of directories inside the root, by repository-relative path (`""`: the
    /// root); `None` for the many directories without an ignore file.
    dirs: std::collections::HashMap<String, Option<Box<DirMatchers>>>,
    /// Ignore files honoured only in part (cut to the caps, invalid lines), as skipped entries.
    pub partial: Vec<Skipped>,
}

impl IgnoreRules {
    /// The rules of `root` under the walker's options (the root's parents' ignore files read now).
    pub fn new(root: &Path, options: &WalkOptions) -> IgnoreRules {
        let empty = ignore::gitignore::Gitignore::empty;
        let mut rules = IgnoreRules {
            root: root.to_path_buf(),
            excluded: options.excluded_dirs.iter().cloned().collect(),
            // Patterns were checked when the options were made (`IndexOptions::check`); a bad
            // one here excludes nothing rather than failing the walk.
            patterns: exclude_matcher(root, &options.exclude).unwrap_or_else(|_| empty()),
            respect_gitignore: options.respect_gitignore,
            global: if options.respect_gitignore {
                ignore::gitignore::Gitignore::global().0
            } else {
                empty()
            },
            ancestors: Vec::new(),
            dirs: Default::default(),
            partial: Vec::new(),
        };
        let mut parent = root.parent();
        while let Some(dir) = parent {
            if let Some(matchers) = rules.read_dir_matchers(dir, &dir.display().to_string()) {
                rules.ancestors.push(*matchers);
            }
            parent = dir.parent();
        }
        rules
    }

    /// Whether the walk leaves out the entry at `abs` (repository-relative `parts`, its parents
    /// already admitted).
    pub fn leaves_out(&mut self, parts: &[&str], abs: &Path, is_dir: bool) -> bool {
        let Some((name, parents)) = parts.split_last() else {
            return false;
        };
        (is_dir && self.excluded.contains(*name))
            || self.patterns.matched(abs, is_dir).is_ignore()
            || self.ignored(parents, abs, is_dir)
    }

    /// Whether the ignore files decide that `abs` (inside the directory `parents`) is left out.
    fn ignored(&mut self, parents: &[&str], abs: &Path, is_dir: bool) -> bool {
        use ignore::Match;
        let (mut custom, mut ignore, mut git, mut exclude) = (Match::None, Match::None, Match::None, Match::None);
        let mut judge = |m: &DirMatchers| {
            let hit = |g: &Option<ignore::gitignore::Gitignore>| {
                g.as_ref().map_or(Match::None, |g| g.matched(abs, is_dir).map(|_| ()))
            };
            if custom.is_none() {
                custom = hit(&m.custom);
            }
            if ignore.is_none() {
                ignore = hit(&m.ignore);
            }
            if git.is_none() {
                git = hit(&m.git);
            }
            if exclude.is_none() {
                exclude = hit(&m.exclude);
            }
        };
        for depth in (0..=parents.len()).rev() {
            let dir = parents[..depth].join("/");
            if !self.dirs.contains_key(&dir) {
                let abs_dir = if dir.is_empty() {
                    self.root.clone()
                } else {
                    self.root.join(&dir)
                };
                let matchers = self.read_dir_matchers(&abs_dir, &dir);
                self.dirs.insert(dir.clone(), matchers);
            }
            if let Some(m) = &self.dirs[&dir] {
                judge(m);
            }
        }
        self.ancestors.iter().for_each(&mut judge);
        let global = if self.respect_gitignore {
            self.global.matched(abs, is_dir).map(|_| ())
        } else {
            Match::None
        };
        custom.or(ignore).or(git).or(exclude).or(global).is_ignore()
    }

    /// Reads the ignore files of the directory `abs` (`shown` names it in reports); `None` when
    /// it has none.
    fn read_dir_matchers(&mut self, abs: &Path, shown: &str) -> Option<Box<DirMatchers>> {
        let shown_file = |name: &str| {
            if shown.is_empty() {
                name.to_string()
            } else {
                format!("{}/{name}", shown.trim_end_matches('/'))
            }
        };
        let mut matchers = DirMatchers {
            custom: self.read_ignore_file(abs, &abs.join(".gortexignore"), shown_file(".gortexignore")),
            ignore: self.read_ignore_file(abs, &abs.join(".ignore"), shown_file(".ignore")),
            ..Default::default()
        };
        if self.respect_gitignore {
            matchers.git = self.read_ignore_file(abs, &abs.join(".gitignore"), shown_file(".gitignore"));
            if let Some(common) = git_common_dir(abs) {
                let file = common.join("info/exclude");
                let shown = shown_file(".git/info/exclude");
                matchers.exclude = self.read_ignore_file(abs, &file, shown);
            }
        }
        let none = matchers.custom.is_none()
            && matchers.ignore.is_none()
            && matchers.git.is_none()
            && matchers.exclude.is_none();
        (!none).then(|| Box::new(matchers))
    }

    /// One ignore file, rooted at `dir`, read within the caps; `None` when there is none (or it
    /// is not a regular file: a symlink is not followed, as git does not follow one).
    fn read_ignore_file(&mut self, dir: &Path, file: &Path, shown: String) -> Option<ignore::gitignore::Gitignore> {
        use std::io::Read;
        let meta = std::fs::symlink_metadata(file).ok()?;
        if !meta.is_file() {
            return None;
        }
        let mut bytes = Vec::new();
        let opened = std::fs::File::open(file).ok()?;
        opened
            .take(MAX_IGNORE_FILE_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .ok()?;
        let mut cuts: Vec<String> = Vec::new();
        if bytes.len() > MAX_IGNORE_FILE_BYTES {
            // Only whole lines: a pattern cut in two would match something else.
            let end = bytes[..MAX_IGNORE_FILE_BYTES]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            bytes.truncate(end);
            cuts.push(format!(
                "{} bytes > cap {MAX_IGNORE_FILE_BYTES} bytes: only the first {end} bytes read",
                meta.len()
            ));
        }
        let text = String::from_utf8_lossy(&bytes);
        let mut builder = ignore::gitignore::GitignoreBuilder::new(dir);
        let mut honoured = 0usize;
        let mut dropped = 0usize;
        let mut invalid: Vec<String> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = if i == 0 {
                line.trim_start_matches('\u{feff}')
            } else {
                line
            };
            // What `GitignoreBuilder::add_line` takes for no pattern.
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if honoured == MAX_IGNORE_PATTERNS {
                dropped += 1;
                continue;
            }
            match builder.add_line(Some(file.to_path_buf()), line) {
                Ok(_) => honoured += 1,
                Err(e) => invalid.push(format!("line {}: {e}", i + 1)),
            }
        }
        if dropped > 0 {
            cuts.push(format!(
                "{} patterns > cap {MAX_IGNORE_PATTERNS}: {dropped} later patterns not honoured",
                honoured + dropped
            ));
        }
        if !invalid.is_empty() {
            let more = invalid.len().saturating_sub(3);
            let mut listed = invalid.into_iter().take(3).collect::<Vec<_>>().join("; ");
            if more > 0 {
                listed.push_str(&format!("; {more} more"));
            }
            cuts.push(format!("invalid patterns skipped ({listed})"));
        }
        let matcher = match builder.build() {
            Ok(m) => m,
            Err(e) => {
                // The patterns together are too big to compile: none of this file is honoured
                // (as the `ignore` crate does), and that is said.
                cuts.push(format!("its patterns could not be compiled, none honoured ({e})"));
                ignore::gitignore::Gitignore::empty()
            }
        };
        if !cuts.is_empty() {
            self.partial.push(Skipped {
                path: shown,
                reason: SkipReason::IgnoreFilePartial,
                detail: Some(format!(
                    "ignore file honoured in part: {}; files it would leave out may be indexed",
                    cuts.join("; ")
                )),
            });
        }
        Some(matcher)
    }
}

/// The git directory whose `info/exclude` applies to the directory `dir`: `dir/.git`, or for a
/// worktree (`.git` a file naming its git directory) the common directory; `None` without `.git`.
fn git_common_dir(dir: &Path) -> Option<PathBuf> {
    let dot_git = dir.join(".git");
    let meta = std::fs::symlink_metadata(&dot_git).ok()?;
    if meta.is_dir() {
        return Some(dot_git);
    }
    if !meta.is_file() || meta.len() > 4096 {
        return None;
    }
    let text = std::fs::read_to_string(&dot_git).ok()?;
    let git_dir = PathBuf::from(text.lines().next()?.strip_prefix("gitdir: ")?);
    let common = std::fs::read_to_string(git_dir.join("commondir")).ok()?;
    let common = common.lines().next()?;
    Some(if common.starts_with('.') {
        git_dir.join(common)
    } else {
        PathBuf::from(common)
    })
}

/// What the walk would do with one repository-relative path, judged alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The walk reaches it: it may be read.
    Admitted,
    /// The walk never reaches it (excluded, ignored, empty): not indexed, nothing reported.
    Refused,
    /// The path is, or lies below, a symlink: never read. The walk reports the link itself
    /// (`Skipped::path` names the link, which is `rel` or one of its parents).
    Symlink(Skipped),
}

/// Judges single paths the way [`walk`] would, without walking: the same [`IgnoreRules`] (a
/// directory left out leaves out everything below), and symlinks: the walk does not follow
/// them, so a path that is a link or goes through one is never admitted, whatever the link
/// points at (the root is canonical and paths are normalised, so an admitted path cannot resolve
/// outside the root). Matchers are read once per directory.
pub struct Admission {
    rules: IgnoreRules,
    /// Whether each directory on the way (repository-relative) is a symlink, as first seen.
    links: std::collections::HashMap<String, bool>,
}

impl Admission {
    /// An admission check for `root` under the walker's options.
    pub fn new(root: &Path, options: &WalkOptions) -> Admission {
        Admission {
            rules: IgnoreRules::new(root, options),
            links: Default::default(),
        }
    }

    /// Whether the walker would reach the repository-relative path `rel` (a file) and read it.
    pub fn admits(&mut self, rel: &str) -> bool {
        self.judge(rel) == Verdict::Admitted
    }

    /// What the walker would do with the repository-relative path `rel` (a file): each step from
    /// the root down is judged as the walk judges its entries (a link is not a directory to the
    /// ignore rules, and is reported rather than entered).
    pub fn judge(&mut self, rel: &str) -> Verdict {
        let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
        for depth in 1..=parts.len() {
            let last = depth == parts.len();
            let here = parts[..depth].join("/");
            let abs = self.rules.root.join(&here);
            let link = if last {
                is_symlink(&abs)
            } else {
                *self.links.entry(here.clone()).or_insert_with(|| is_symlink(&abs))
            };
            if self.rules.leaves_out(&parts[..depth], &abs, !last && !link) {
                return Verdict::Refused;
            }
            if link {
                return symlink_skipped(&here, &abs).map_or(Verdict::Refused, Verdict::Symlink);
            }
        }
        if parts.is_empty() {
            Verdict::Refused
        } else {
            Verdict::Admitted
        }
    }
}
