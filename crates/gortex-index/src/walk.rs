//! Walking a repository: ignore rules, built-in excludes, size cap, symlinks, config files.
//!
//! The first stage of indexing. [`walk`] uses the `ignore` crate with `.gitignore` (nested),
//! `.ignore`, `.gortexignore`, global git excludes, the built-in excluded directories and a size
//! cap; symlinks are not followed (they are reported), FIFOs and devices are reported, never
//! read. Every file the walk reaches then passes the content checks of `classify.rs` (binary,
//! minified, generated) before it is parsed.
//!
//! [`Admission`] judges single paths exactly as the walk would, without walking: a watcher's batch
//! (`RepoIndex::apply_changes`) admits or refuses each of its paths through it, and
//! `tests/watch_batches.rs` compares it with the walk.

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

/// Walks `root` honouring `.gitignore` (nested), `.ignore`, `.gortexignore`, global git
/// excludes, the built-in excluded directories and the `exclude` patterns. Symlinks are not
/// followed (they could leave the repository or loop); they are reported as skipped.
pub fn walk(root: &Path, options: &WalkOptions) -> WalkResult {
    let mut result = WalkResult::default();
    let excluded: std::collections::HashSet<String> = options.excluded_dirs.iter().cloned().collect();
    // Patterns were checked when the options were made (`IndexOptions::check`); a bad one here
    // excludes nothing rather than failing the walk.
    let patterns = exclude_matcher(root, &options.exclude).unwrap_or_else(|_| ignore::gitignore::Gitignore::empty());
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .hidden(false)
        .follow_links(false)
        .git_ignore(options.respect_gitignore)
        .git_global(options.respect_gitignore)
        .git_exclude(options.respect_gitignore)
        .require_git(false)
        .parents(true)
        .ignore(true)
        .add_custom_ignore_filename(".gortexignore")
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if entry.depth() == 0 {
                return true;
            }
            let excluded_dir = is_dir && excluded.contains(entry.file_name().to_string_lossy().as_ref());
            !(excluded_dir || patterns.matched(entry.path(), is_dir).is_ignore())
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
            if Language::from_path(&rel).is_some() {
                let detail = std::fs::read_link(entry.path())
                    .ok()
                    .map(|t| format!("-> {}", t.display()));
                let loops = std::fs::metadata(entry.path()).is_err();
                let reason = if loops {
                    SkipReason::SymlinkLoop
                } else {
                    SkipReason::Symlink
                };
                result.skipped.push(Skipped {
                    path: rel,
                    reason,
                    detail,
                });
            }
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
    result.sources.sort_by(|a, b| a.rel.cmp(&b.rel));
    result.configs.sort();
    result
}

/// The ignore files the walker reads in every directory (besides git's own excludes).
pub const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore", ".gortexignore"];

/// The ignore matchers of one directory.
struct DirMatchers {
    custom: ignore::gitignore::Gitignore,
    ignore: ignore::gitignore::Gitignore,
    git: ignore::gitignore::Gitignore,
}

/// Judges single paths the way [`walk`] would, without walking: built-in excluded directories,
/// exclude patterns, and the ignore files of every directory on the way (`.gortexignore` over
/// `.ignore` over `.gitignore` over `.git/info/exclude` over the global excludes; in each kind
/// the deepest file that matches decides; a directory left out leaves out everything below).
/// Matchers are read once per directory.
pub struct Admission {
    root: PathBuf,
    excluded: std::collections::HashSet<String>,
    patterns: ignore::gitignore::Gitignore,
    respect_gitignore: bool,
    git_exclude: ignore::gitignore::Gitignore,
    global: ignore::gitignore::Gitignore,
    dirs: std::collections::HashMap<String, DirMatchers>,
}

impl Admission {
    /// An admission check for `root` under the walker's options.
    pub fn new(root: &Path, options: &WalkOptions) -> Admission {
        let empty = ignore::gitignore::Gitignore::empty;
        let (git_exclude, global) = if options.respect_gitignore {
            let mut builder = ignore::gitignore::GitignoreBuilder::new(root);
            builder.add(root.join(".git/info/exclude"));
            (
                builder.build().unwrap_or_else(|_| empty()),
                ignore::gitignore::Gitignore::global().0,
            )
        } else {
            (empty(), empty())
        };
        Admission {
            root: root.to_path_buf(),
            excluded: options.excluded_dirs.iter().cloned().collect(),
            patterns: exclude_matcher(root, &options.exclude).unwrap_or_else(|_| empty()),
            respect_gitignore: options.respect_gitignore,
            git_exclude,
            global,
            dirs: Default::default(),
        }
    }

    /// Whether the walker would reach the repository-relative path `rel` (a file).
    pub fn admits(&mut self, rel: &str) -> bool {
        let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
        for depth in 1..=parts.len() {
            let is_dir = depth < parts.len();
            if is_dir && self.excluded.contains(parts[depth - 1]) {
                return false;
            }
            let abs = self.root.join(parts[..depth].join("/"));
            if self.patterns.matched(&abs, is_dir).is_ignore() || self.ignored(&parts[..depth - 1], &abs, is_dir) {
                return false;
            }
        }
        !parts.is_empty()
    }

    /// Whether the ignore files decide that `abs` (inside the directory `parents`) is left out.
    fn ignored(&mut self, parents: &[&str], abs: &Path, is_dir: bool) -> bool {
        use ignore::Match;
        let (mut custom, mut ignore, mut git) = (Match::None, Match::None, Match::None);
        let respect_gitignore = self.respect_gitignore;
        for depth in (0..=parents.len()).rev() {
            let m = self.matchers(&parents[..depth].join("/"));
            if custom.is_none() {
                custom = m.custom.matched(abs, is_dir).map(|_| ());
            }
            if ignore.is_none() {
                ignore = m.ignore.matched(abs, is_dir).map(|_| ());
            }
            if git.is_none() && respect_gitignore {
                git = m.git.matched(abs, is_dir).map(|_| ());
            }
        }
        let found = [custom, ignore, git].into_iter().find(|m| !m.is_none());
        let decided = match found {
            Some(m) => m,
            None => {
                let excluded = self.git_exclude.matched(abs, is_dir).map(|_| ());
                if excluded.is_none() {
                    self.global.matched(abs, is_dir).map(|_| ())
                } else {
                    excluded
                }
            }
        };
        decided.is_ignore()
    }

    fn matchers(&mut self, dir: &str) -> &DirMatchers {
        let root = &self.root;
        self.dirs.entry(dir.to_string()).or_insert_with(|| {
            let abs = if dir.is_empty() { root.clone() } else { root.join(dir) };
            let read = |name: &str| {
                let path = abs.join(name);
                if !path.is_file() {
                    return ignore::gitignore::Gitignore::empty();
                }
                let mut builder = ignore::gitignore::GitignoreBuilder::new(&abs);
                builder.add(path);
                builder
                    .build()
                    .unwrap_or_else(|_| ignore::gitignore::Gitignore::empty())
            };
            DirMatchers {
                custom: read(".gortexignore"),
                ignore: read(".ignore"),
                git: read(".gitignore"),
            }
        })
    }
}
