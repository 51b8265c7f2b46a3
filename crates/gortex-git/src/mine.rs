//! Mining: the first-parent history of `HEAD`, walked once oldest first and then incrementally
//! (only the commits after the last mined head), into commits, people, per-commit changed paths,
//! tags and the [`Lineage`] of every tracked file at `HEAD`.
//!
//! First parent only: a merge counts as one commit on the mainline (what a pull request changed),
//! the side branch's commits are not walked, as `git log --first-parent`. Renames are followed
//! (gix's rewrite tracking at 50 % similarity), so a moved file keeps its history. A file bigger
//! than [`MAX_FILE_BYTES`] or with a NUL byte in its first 8 KiB is not tracked. When the new head
//! does not descend from the mined one (history rewritten), the whole history is mined again.

use crate::lines::{Lineage, SetId, NO_HISTORY};
use gix::bstr::ByteSlice;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Files above this size are not tracked (generated data, bundles).
pub const MAX_FILE_BYTES: usize = 2 * 1024 * 1024;

/// The object cache while mining (delta bases reused across versions of a file).
const OBJECT_CACHE_BYTES: usize = 16 * 1024 * 1024;

/// Version of the [`Mined`] layout; a stored history of another version is mined again.
pub const MINED_VERSION: u32 = 3;

/// A failure to read the repository's history.
#[derive(Debug)]
pub struct GitError(pub String);

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GitError {}

fn err(what: &str, e: impl std::fmt::Display) -> GitError {
    GitError(format!("{what}: {e}"))
}

/// One mainline commit.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Commit {
    /// Full hex object id.
    pub sha: String,
    /// Index into [`Mined::people`].
    pub author: u32,
    /// Author time, seconds since the epoch.
    pub time: i64,
    /// First line of the message (at most 200 characters).
    pub summary: String,
    /// Whether the commit has more than one parent.
    pub merge: bool,
    /// Changed paths (indexes into [`Mined::paths`]), tracked or not.
    pub paths: Vec<u32>,
    /// Files this commit renamed: `(from, to)` path indexes.
    pub renames: Vec<(u32, u32)>,
    /// Lines added and removed in tracked files.
    pub added: u32,
    pub removed: u32,
}

/// An author: one person per name (after `.mailmap`), with the email of their latest commit.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Person {
    pub name: String,
    pub email: String,
}

/// A tag pointing at a mainline commit (or at a commit off it: `commit` is `None`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tag {
    pub name: String,
    pub sha: String,
    pub commit: Option<u32>,
    /// The tagged commit's time.
    pub time: i64,
}

/// A tracked file at `HEAD`: its blob and the history set of each line.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileLines {
    pub blob: String,
    pub lines: Vec<SetId>,
}

/// The mined history of one repository (worktree-relative paths).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Mined {
    pub version: u32,
    /// The head the history was mined up to; `None` for an unborn branch.
    pub head: Option<String>,
    /// Mainline commits, oldest first (index = position).
    pub commits: Vec<Commit>,
    pub people: Vec<Person>,
    pub paths: Vec<String>,
    pub files: BTreeMap<String, FileLines>,
    pub lineage: Lineage,
    pub tags: Vec<Tag>,
    /// Blobs missing from the object database while mining (see [`MineReport::missing_blobs`]).
    pub missing_blobs: u64,
}

/// What an update did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct MineReport {
    /// `unchanged`, `incremental` or `full`.
    pub mode: &'static str,
    pub new_commits: usize,
    pub file_changes: usize,
    pub diffed_files: usize,
    /// Blobs the object database does not have (a partial or filtered clone): those files lose
    /// their line history from that commit on, instead of failing the mine.
    pub missing_blobs: usize,
}

/// An opened repository and where the indexed root sits inside its worktree.
pub struct GitRepo {
    repo: gix::Repository,
    /// The indexed root relative to the worktree, `/`-separated with a trailing `/` (empty at the top).
    pub prefix: String,
    pub workdir: PathBuf,
}

impl GitRepo {
    /// Discovers the repository containing `root`; `None` when `root` is in no git worktree.
    pub fn discover(root: &Path) -> Result<Option<GitRepo>, GitError> {
        let mut repo = match gix::discover(root) {
            Ok(repo) => repo,
            Err(gix::discover::Error::Discover(_)) => return Ok(None),
            Err(e) => return Err(err(&format!("opening the git repository at {}", root.display()), e)),
        };
        // Delta chains resolve from cached bases: mining reads every version of every file.
        repo.object_cache_size_if_unset(OBJECT_CACHE_BYTES);
        let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
            return Ok(None);
        };
        let canon_work = workdir.canonicalize().unwrap_or(workdir.clone());
        let canon_root = root.canonicalize().unwrap_or(root.to_path_buf());
        let prefix = match canon_root.strip_prefix(&canon_work) {
            Ok(rel) if rel.as_os_str().is_empty() => String::new(),
            Ok(rel) => format!("{}/", rel.to_string_lossy().replace('\\', "/")),
            Err(_) => String::new(),
        };
        Ok(Some(GitRepo { repo, prefix, workdir }))
    }

    /// The current head commit, `None` on an unborn branch.
    pub fn head(&self) -> Result<Option<String>, GitError> {
        match self.repo.head_id() {
            Ok(id) => Ok(Some(id.to_string())),
            Err(_) if self.repo.head().map(|h| h.is_unborn()).unwrap_or(false) => Ok(None),
            Err(e) => Err(err("reading HEAD", e)),
        }
    }

    /// The content of a blob.
    pub fn blob(&self, hex: &str) -> Result<Vec<u8>, GitError> {
        let id = gix::ObjectId::from_hex(hex.as_bytes()).map_err(|e| err("a blob id", e))?;
        self.blob_at(id)
    }

    fn blob_at(&self, id: gix::ObjectId) -> Result<Vec<u8>, GitError> {
        let object = self
            .repo
            .find_object(id)
            .map_err(|e| err(&format!("reading blob {id}"), e))?;
        Ok(object.detach().data)
    }

    /// The bytes of `path` (relative to the indexed root) at revision `rev` (a sha, branch, tag
    /// or `HEAD~2`); `None` when the file is not in that revision.
    pub fn file_at(&self, rev: &str, path: &str) -> Result<Option<Vec<u8>>, GitError> {
        let id = self
            .repo
            .rev_parse_single(rev)
            .map_err(|e| err(&format!("resolving `{rev}`"), e))?;
        let tree = id
            .object()
            .map(|o| o.peel_to_commit())
            .map_err(|e| err(&format!("reading `{rev}`"), e))?
            .map_err(|e| err(&format!("`{rev}` is not a commit"), e))?
            .tree()
            .map_err(|e| err(&format!("reading the tree of `{rev}`"), e))?;
        let full = format!("{}{path}", self.prefix);
        match tree
            .lookup_entry_by_path(&full)
            .map_err(|e| err(&format!("looking up {full} in `{rev}`"), e))?
        {
            Some(entry) if entry.mode().is_blob() => Ok(Some(
                entry
                    .object()
                    .map_err(|e| err(&format!("reading {full} at `{rev}`"), e))?
                    .detach()
                    .data,
            )),
            _ => Ok(None),
        }
    }

    /// The git blob id `content` would have.
    pub fn blob_id(&self, content: &[u8]) -> String {
        gix::objs::compute_hash(self.repo.object_hash(), gix::objs::Kind::Blob, content)
            .map(|id| id.to_string())
            .unwrap_or_default()
    }

    /// Brings `previous` up to the current head; `track` decides which worktree paths get line
    /// lineage (every changed path is still recorded on its commit).
    pub fn update(
        &self,
        previous: Option<Mined>,
        track: &dyn Fn(&str) -> bool,
    ) -> Result<(Mined, MineReport), GitError> {
        let head = self.head()?;
        let previous = match previous.filter(|m| m.version == MINED_VERSION) {
            Some(mut mined) if mined.head == head => {
                mined.tags = self.tags(&mined)?;
                let report = MineReport {
                    mode: "unchanged",
                    ..MineReport::default()
                };
                return Ok((mined, report));
            }
            other => other,
        };
        let Some(head) = head else {
            return Ok((
                Mined {
                    version: MINED_VERSION,
                    ..Mined::default()
                },
                MineReport {
                    mode: "full",
                    ..MineReport::default()
                },
            ));
        };
        let head_id = gix::ObjectId::from_hex(head.as_bytes()).map_err(|e| err("HEAD", e))?;
        let stop = previous.as_ref().and_then(|m| m.head.clone());
        let mut pending = Vec::new();
        let mut found = false;
        let walk = self
            .repo
            .rev_walk([head_id])
            .first_parent_only()
            .all()
            .map_err(|e| err("walking the history", e))?;
        for info in walk {
            let info = info.map_err(|e| err("walking the history", e))?;
            if stop.as_deref() == Some(info.id.to_string().as_str()) {
                found = true;
                break;
            }
            pending.push(info.id);
        }
        let (mut mined, mode) = match previous {
            Some(prev) if found => (prev, "incremental"),
            _ => (
                Mined {
                    version: MINED_VERSION,
                    ..Mined::default()
                },
                "full",
            ),
        };
        pending.reverse();
        let mut report = MineReport {
            mode,
            new_commits: pending.len(),
            ..MineReport::default()
        };
        let mailmap = self.repo.open_mailmap();
        let mut miner = Miner::new(&mut mined);
        for id in pending {
            self.mine_commit(&mut miner, &mailmap, id, track, &mut report)?;
        }
        drop(miner);
        mined.head = Some(head);
        let Mined { files, lineage, .. } = &mut mined;
        lineage.compact(files.values_mut().map(|f| &mut f.lines).collect());
        mined.tags = self.tags(&mined)?;
        Ok((mined, report))
    }

    fn mine_commit(
        &self,
        miner: &mut Miner<'_>,
        mailmap: &gix::mailmap::Snapshot,
        id: gix::ObjectId,
        track: &dyn Fn(&str) -> bool,
        report: &mut MineReport,
    ) -> Result<(), GitError> {
        let commit = self
            .repo
            .find_commit(id)
            .map_err(|e| err(&format!("reading commit {id}"), e))?;
        let author = commit.author().map_err(|e| err(&format!("the author of {id}"), e))?;
        let time = author.seconds();
        let author = mailmap.resolve_cow(author);
        let (name, email) = (
            author.name.to_str_lossy().trim().to_string(),
            author.email.to_str_lossy().trim().to_lowercase(),
        );
        let summary: String = commit
            .message()
            .map(|m| m.summary().to_str_lossy().chars().take(200).collect())
            .unwrap_or_default();
        let parents: Vec<gix::ObjectId> = commit.parent_ids().map(|p| p.detach()).collect();
        let tree = commit.tree().map_err(|e| err(&format!("the tree of {id}"), e))?;
        let parent_tree = match parents.first() {
            Some(p) => {
                let parent = self
                    .repo
                    .find_commit(*p)
                    .map_err(|e| err(&format!("the parent of {id}"), e))?;
                Some(parent.tree().map_err(|e| err(&format!("the parent tree of {id}"), e))?)
            }
            None => None,
        };
        // Renames at git's default similarity (50 %), so a moved file keeps its history.
        let options = gix::diff::Options::default().with_rewrites(Some(gix::diff::Rewrites {
            copies: None,
            percentage: Some(0.5),
            limit: 1000,
            track_empty: false,
        }));
        let changes = self
            .repo
            .diff_tree_to_tree(parent_tree.as_ref(), Some(&tree), Some(options))
            .map_err(|e| err(&format!("diffing {id} with its parent"), e))?;
        let index = miner.begin(
            Commit {
                sha: id.to_string(),
                author: 0,
                time,
                summary,
                merge: parents.len() > 1,
                paths: Vec::new(),
                renames: Vec::new(),
                added: 0,
                removed: 0,
            },
            Person { name, email },
        );
        // Additions and deletions wait until the commit's renames are known: a move too big for
        // gix's fuzzy rename search (over 1,000 files) is paired here (see `pair_moves`).
        let mut added: Vec<(String, gix::ObjectId)> = Vec::new();
        let mut deleted: Vec<(String, gix::ObjectId)> = Vec::new();
        for change in changes {
            use gix::object::tree::diff::ChangeDetached as C;
            match change {
                C::Addition {
                    location,
                    entry_mode,
                    id,
                    ..
                } if entry_mode.is_blob() => {
                    let path = location.to_str_lossy().into_owned();
                    report.file_changes += 1;
                    miner.touch(index, &path);
                    added.push((path, id));
                }
                C::Deletion {
                    location,
                    entry_mode,
                    id,
                    ..
                } if entry_mode.is_blob() => {
                    let path = location.to_str_lossy().into_owned();
                    report.file_changes += 1;
                    miner.touch(index, &path);
                    deleted.push((path, id));
                }
                C::Modification {
                    location,
                    previous_id,
                    entry_mode,
                    id,
                    ..
                } if entry_mode.is_blob() => {
                    let path = location.to_str_lossy().into_owned();
                    report.file_changes += 1;
                    miner.touch(index, &path);
                    if track(&path) {
                        match (self.blob_at(previous_id), self.blob_at(id)) {
                            (Ok(old), Ok(new)) => {
                                report.diffed_files += 1;
                                miner.modify(index, &path, &path, id.to_string(), &old, &new);
                            }
                            _ => missing(miner, report, &path),
                        }
                    } else {
                        miner.untrack(&path);
                    }
                }
                C::Rewrite {
                    source_location,
                    source_id,
                    entry_mode,
                    id,
                    location,
                    copy,
                    ..
                } if entry_mode.is_blob() => {
                    let (from, to) = (
                        source_location.to_str_lossy().into_owned(),
                        location.to_str_lossy().into_owned(),
                    );
                    report.file_changes += 1;
                    let to_id = miner.touch(index, &to);
                    if !copy {
                        let from_id = miner.touch(index, &from);
                        miner.mined.commits[index as usize].renames.push((from_id, to_id));
                    }
                    if track(&to) {
                        let Ok(new) = self.blob_at(id) else {
                            miner.untrack(&from);
                            missing(miner, report, &to);
                            continue;
                        };
                        if source_id == id {
                            miner.rename(&from, &to, copy);
                            if !miner.mined.files.contains_key(&to) {
                                miner.add(index, &to, id.to_string(), &new);
                            }
                        } else {
                            let Ok(old) = self.blob_at(source_id) else {
                                miner.untrack(&from);
                                missing(miner, report, &to);
                                continue;
                            };
                            report.diffed_files += 1;
                            if !copy {
                                miner.rename(&from, &to, false);
                                miner.modify(index, &to, &to, id.to_string(), &old, &new);
                            } else {
                                miner.modify(index, &from, &to, id.to_string(), &old, &new);
                            }
                        }
                        if let Some(f) = miner.mined.files.get_mut(&to) {
                            f.blob = id.to_string();
                        }
                    } else if !copy {
                        miner.delete(index, &from);
                    }
                }
                _ => {}
            }
        }
        for (from, to) in pair_moves(&added, &deleted) {
            let ((old_path, old_id), (new_path, new_id)) = (&deleted[from], &added[to]);
            if !track(new_path) || !miner.mined.files.contains_key(old_path) {
                continue;
            }
            let (Ok(old), Ok(new)) = (self.blob_at(*old_id), self.blob_at(*new_id)) else {
                continue;
            };
            if !similar(&old, &new) {
                continue;
            }
            let (from_id, to_id) = (miner.touch(index, old_path), miner.touch(index, new_path));
            miner.mined.commits[index as usize].renames.push((from_id, to_id));
            report.diffed_files += 1;
            miner.rename(old_path, new_path, false);
            miner.modify(index, new_path, new_path, new_id.to_string(), &old, &new);
            added[to].0.clear();
            deleted[from].0.clear();
        }
        for (path, _) in deleted.iter().filter(|(p, _)| !p.is_empty()) {
            miner.delete(index, path);
        }
        for (path, id) in added.iter().filter(|(p, _)| !p.is_empty()) {
            if track(path) {
                match self.blob_at(*id) {
                    Ok(data) => miner.add(index, path, id.to_string(), &data),
                    Err(_) => missing(miner, report, path),
                }
            }
        }
        Ok(())
    }

    /// Every tag, placed on the mainline where its commit is on it.
    fn tags(&self, mined: &Mined) -> Result<Vec<Tag>, GitError> {
        let by_sha: FxHashMap<&str, u32> = mined
            .commits
            .iter()
            .enumerate()
            .map(|(i, c)| (c.sha.as_str(), i as u32))
            .collect();
        let refs = self.repo.references().map_err(|e| err("listing tags", e))?;
        let mut tags = Vec::new();
        for reference in refs.tags().map_err(|e| err("listing tags", e))? {
            let Ok(mut reference) = reference else { continue };
            let name = reference.name().shorten().to_str_lossy().into_owned();
            let Ok(commit) = reference.peel_to_commit() else {
                continue;
            };
            let sha = commit.id.to_string();
            let time = commit.time().map(|t| t.seconds).unwrap_or(0);
            tags.push(Tag {
                commit: by_sha.get(sha.as_str()).copied(),
                name,
                sha,
                time,
            });
        }
        tags.sort_by(|a, b| a.time.cmp(&b.time).then_with(|| a.name.cmp(&b.name)));
        Ok(tags)
    }
}

/// Deleted and added files of one commit that look like one file moved: the same file name, and
/// each the other's unique best match by the number of trailing path components they share
/// (`backend/consul/x_test.go` → `internal/backend/consul/x_test.go` beats any other
/// `x_test.go`). `(deleted index, added index)` pairs, to be confirmed by content.
fn pair_moves(added: &[(String, gix::ObjectId)], deleted: &[(String, gix::ObjectId)]) -> Vec<(usize, usize)> {
    if added.is_empty() || deleted.is_empty() {
        return Vec::new();
    }
    let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    let shared_suffix = |a: &str, b: &str| a.rsplit('/').zip(b.rsplit('/')).take_while(|(x, y)| x == y).count();
    let mut by_name: FxHashMap<String, (Vec<usize>, Vec<usize>)> = FxHashMap::default();
    for (i, (p, _)) in deleted.iter().enumerate() {
        by_name.entry(name(p)).or_default().0.push(i);
    }
    for (i, (p, _)) in added.iter().enumerate() {
        if let Some(e) = by_name.get_mut(&name(p)) {
            e.1.push(i);
        }
    }
    // The unique best of `candidates` for `path`, if one shares strictly more than the others.
    let best = |path: &str, candidates: &[usize], paths: &[(String, gix::ObjectId)]| -> Option<usize> {
        let mut scored: Vec<(usize, usize)> = candidates
            .iter()
            .map(|&c| (shared_suffix(path, &paths[c].0), c))
            .collect();
        scored.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        match scored.as_slice() {
            [(top, c)] => Some(*c).filter(|_| *top > 0),
            [(top, c), (next, _), ..] if top > next => Some(*c),
            _ => None,
        }
    };
    let mut pairs = Vec::new();
    for (dels, adds) in by_name.values() {
        for &a in adds {
            let Some(d) = best(&added[a].0, dels, deleted) else {
                continue;
            };
            if best(&deleted[d].0, adds, added) == Some(a) {
                pairs.push((d, a));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// Whether two versions share at least half their lines (git's default rename similarity).
fn similar(old: &[u8], new: &[u8]) -> bool {
    if !trackable(old) || !trackable(new) {
        return false;
    }
    let input = imara_diff::intern::InternedInput::new(old, new);
    let mut changed = 0usize;
    imara_diff::diff(
        imara_diff::Algorithm::Histogram,
        &input,
        |_: Range<u32>, after: Range<u32>| changed += after.len(),
    );
    let unchanged = input.after.len().saturating_sub(changed);
    unchanged * 2 >= input.before.len().max(input.after.len())
}

/// A blob the object database lacks: the file is no longer tracked (until a later version is there).
fn missing(miner: &mut Miner<'_>, report: &mut MineReport, path: &str) {
    miner.untrack(path);
    miner.mined.missing_blobs += 1;
    report.missing_blobs += 1;
}

/// Applies one commit's changes to a [`Mined`].
struct Miner<'a> {
    mined: &'a mut Mined,
    people: FxHashMap<String, u32>,
    paths: FxHashMap<String, u32>,
    single: SetId,
}

impl<'a> Miner<'a> {
    fn new(mined: &'a mut Mined) -> Miner<'a> {
        let people = mined
            .people
            .iter()
            .enumerate()
            .map(|(i, p)| (person_key(p), i as u32))
            .collect();
        let paths = mined
            .paths
            .iter()
            .enumerate()
            .map(|(i, p)| (p.clone(), i as u32))
            .collect();
        Miner {
            mined,
            people,
            paths,
            single: NO_HISTORY,
        }
    }

    fn begin(&mut self, mut commit: Commit, person: Person) -> u32 {
        let key = person_key(&person);
        let people = &mut self.mined.people;
        let index = *self.people.entry(key).or_insert_with(|| {
            people.push(person.clone());
            (people.len() - 1) as u32
        });
        if !person.email.is_empty() {
            people[index as usize].email = person.email;
        }
        commit.author = index;
        let index = self.mined.commits.len() as u32;
        self.mined.commits.push(commit);
        self.single = self.mined.lineage.singleton(index);
        index
    }

    fn touch(&mut self, commit: u32, path: &str) -> u32 {
        let paths = &mut self.mined.paths;
        let id = *self.paths.entry(path.to_string()).or_insert_with(|| {
            paths.push(path.to_string());
            (paths.len() - 1) as u32
        });
        let list = &mut self.mined.commits[commit as usize].paths;
        if !list.contains(&id) {
            list.push(id);
        }
        id
    }

    fn add(&mut self, commit: u32, path: &str, blob: String, data: &[u8]) {
        if !trackable(data) {
            self.untrack(path);
            return;
        }
        let lines = line_count(data);
        self.mined.commits[commit as usize].added += lines as u32;
        self.mined.files.insert(
            path.to_string(),
            FileLines {
                blob,
                lines: vec![self.single; lines],
            },
        );
    }

    fn delete(&mut self, commit: u32, path: &str) {
        if let Some(f) = self.mined.files.remove(path) {
            self.mined.commits[commit as usize].removed += f.lines.len() as u32;
        }
    }

    fn untrack(&mut self, path: &str) {
        self.mined.files.remove(path);
    }

    fn rename(&mut self, from: &str, to: &str, copy: bool) {
        let moved = if copy {
            self.mined.files.get(from).cloned()
        } else {
            self.mined.files.remove(from)
        };
        if let Some(f) = moved {
            self.mined.files.insert(to.to_string(), f);
        }
    }

    /// `to` becomes `new`, diffed against `old` whose line history is `from`'s.
    fn modify(&mut self, commit: u32, from: &str, to: &str, blob: String, old: &[u8], new: &[u8]) {
        if !trackable(new) {
            self.untrack(to);
            return;
        }
        let Some(previous) = self
            .mined
            .files
            .get(from)
            .map(|f| f.lines.clone())
            .filter(|_| trackable(old))
        else {
            return self.add(commit, to, blob, new);
        };
        let input = imara_diff::intern::InternedInput::new(old, new);
        let mut hunks: Vec<(Range<u32>, Range<u32>)> = Vec::new();
        imara_diff::diff(
            imara_diff::Algorithm::Histogram,
            &input,
            |before: Range<u32>, after: Range<u32>| hunks.push((before, after)),
        );
        let entry = &mut self.mined.commits[commit as usize];
        for (before, after) in &hunks {
            entry.added += after.len() as u32;
            entry.removed += before.len() as u32;
        }
        let lines = self
            .mined
            .lineage
            .apply(&previous, &hunks, input.after.len(), commit, self.single);
        self.mined.files.insert(to.to_string(), FileLines { blob, lines });
    }
}

/// One person per name (case-insensitive), or per email when the name is empty.
fn person_key(p: &Person) -> String {
    if p.name.is_empty() {
        p.email.clone()
    } else {
        p.name.to_lowercase()
    }
}

/// Whether a blob is small text worth a line history.
pub fn trackable(data: &[u8]) -> bool {
    data.len() <= MAX_FILE_BYTES && !data[..data.len().min(8192)].contains(&0)
}

/// Lines as the line diff counts them (a last line without a newline counts).
pub fn line_count(data: &[u8]) -> usize {
    let newlines = data.iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(!data.is_empty() && !data.ends_with(b"\n"))
}

#[cfg(test)]
mod tests {
    use super::pair_moves;

    fn paths(list: &[&str]) -> Vec<(String, gix::ObjectId)> {
        list.iter()
            .map(|p| (p.to_string(), gix::ObjectId::null(gix::hash::Kind::Sha1)))
            .collect()
    }

    #[test]
    fn moves_pair_by_name_and_longest_shared_suffix() {
        let deleted = paths(&[
            "backend/consul/backend_test.go",
            "backend/s3/backend_test.go",
            "lib/util.go",
            "a/doc.go",
            "b/doc.go",
        ]);
        let added = paths(&[
            "internal/backend/consul/backend_test.go",
            "internal/backend/s3/backend_test.go",
            "pkg/util.go",
            "c/doc.go",
            "d/doc.go",
        ]);
        assert_eq!(
            pair_moves(&added, &deleted),
            vec![(0, 0), (1, 1), (2, 2)],
            "ambiguous doc.go moves stay unpaired"
        );
    }
}
