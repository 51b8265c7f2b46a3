//! Which files a build must resolve again, and resolving them: the previous build's
//! resolutions by file ([`Prior`]), the dependency keys a change touches (`changed_keys`, over
//! `deps.rs`'s keys and the derived tables' differences), and [`resolve_input`], which the flat
//! builder (`build.rs`) and the layered one (`layer.rs`) share; and [`carry_over`], which
//! reuses the whole previous graph when no file's facts changed.

use crate::build::{file_position, BuildStats, Previous, RepoInput, TablesMade};
use crate::cache::{DerivedTables, KeptTablesSlot, ResolvedFile, RESOLVER_FINGERPRINT};
use crate::config::dir_of;
use crate::deps;
use crate::model::Graph;
use crate::resolve::{self, KeptTables};
use gortex_core::{same_text, FileFacts, NodeKind};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// What resolving a build's files gave: the results per file (`true`: the previous build's,
/// reused), the tables' fingerprint, derived tables and kept tables, and what was reused from.
pub(crate) struct Resolved<'x> {
    pub fingerprint: String,
    pub derived: Arc<DerivedTables>,
    pub kept: KeptTablesSlot,
    pub results: Vec<(Arc<ResolvedFile>, bool)>,
    pub reusable: Option<Reusable<'x>>,
}

/// Resolves every file of `input` no change since `previous` can have affected again, reusing
/// the others' previous resolutions; the lookup tables are the previous build's (kept or
/// patched) when they fit, else built.
pub(crate) fn resolve_input<'x>(
    input: &RepoInput<'_>,
    previous: Option<&'x Previous<'_>>,
    stats: &mut BuildStats,
) -> Resolved<'x> {
    let clock = std::time::Instant::now();
    let fingerprint = format!(
        "{RESOLVER_FINGERPRINT}:{:016x}",
        xxhash_rust::xxh3::xxh3_64(serde_json::to_string(input.config).unwrap_or_default().as_bytes())
    );
    // Nothing changed since the previous build (a warm open of an unchanged tree, a cold index
    // read back): the same files, facts and configuration give the same tables and the same
    // resolutions, so neither is made again.
    if let Some(p) = previous.filter(|p| unchanged_since(input, p, &fingerprint)) {
        stats.tables = TablesMade::Unneeded;
        let prior = Prior::Aligned(&p.cache.files);
        let results = p.cache.files.iter().map(|(_, r)| (Arc::clone(r), true)).collect();
        stats.tables_ms = clock.elapsed().as_millis() as u64;
        return Resolved {
            fingerprint,
            derived: Arc::clone(&p.cache.derived),
            kept: KeptTablesSlot::default(),
            results,
            reusable: Some((prior, FxHashSet::default(), FxHashSet::default())),
        };
    }
    // The last build's tables when this change cannot alter them (a body edit); their derived
    // tables are then the same too, shared rather than rendered and compared again.
    // When declarations changed but the files are the same, the tables are patched instead.
    let kept = previous.and_then(|p| Some((p.cache.kept_tables.take()?, &p.cache.derived)));
    let (kept, derived) = match kept {
        Some((kept, derived)) if kept.fits(input.files, &fingerprint) => {
            stats.tables = TablesMade::Kept;
            ((*kept).rebind(input.files), Arc::clone(derived))
        }
        Some((kept, derived)) if kept.patchable(input.files, &fingerprint) => {
            stats.tables = TablesMade::Patched;
            let (kept, fresh) = (*kept).patch(input.files, derived);
            // Renderings the patch made again but equal to the last ones are shared too.
            (kept, fresh.shared_with(derived))
        }
        _ => {
            let kept = KeptTables::build(input.files, input.config, fingerprint.clone());
            let fresh = kept.tables().render_derived();
            // Built again over files the previous build mostly had (an overlay view's first
            // build): its renderings are shared where they are the same, and when all are, the
            // change cannot have moved an import target or a supertype.
            let derived = match previous {
                Some(p) if p.cache.fingerprint == fingerprint => fresh.shared_with(&p.cache.derived),
                _ => Arc::new(fresh),
            };
            (kept, derived)
        }
    };
    let tables = kept.tables();

    stats.tables_ms = clock.elapsed().as_millis() as u64;
    // Which files must be resolved again.
    let reusable: Option<Reusable<'x>> = previous.filter(|p| p.cache.fingerprint == fingerprint).map(|p| {
        let (keys, forced) = changed_keys(input, p, &derived);
        (Prior::new(input, p), keys, forced)
    });
    let reused: Vec<Option<Arc<ResolvedFile>>> = match &reusable {
        Some((prior, keys, forced)) => (0..input.files.len() as u32)
            .into_par_iter()
            .map(|fi| {
                let path: &str = &input.files[fi as usize].path;
                prior
                    .get(fi, path)
                    .filter(|prev| !forced.contains(&fi) && !prev.deps.iter().any(|k| keys.contains(k)))
                    .map(Arc::clone)
            })
            .collect(),
        None => vec![None; input.files.len()],
    };
    let todo: Vec<u32> = (0..input.files.len() as u32)
        .filter(|&fi| reused[fi as usize].is_none())
        .collect();
    // The files to resolve again after an edit sit together (a directory's readers of the file
    // changed) and cost from microseconds to tens of milliseconds each: one job per file, or
    // rayon's split of the whole list leaves them all to one thread.
    let max_len = if todo.len() < 4096 { 1 } else { usize::MAX };
    let mut fresh = todo
        .par_iter()
        .with_max_len(max_len)
        .map(|&fi| Arc::new(resolve::resolve_file(tables, fi)))
        .collect::<Vec<_>>()
        .into_iter();
    let results: Vec<(Arc<ResolvedFile>, bool)> = reused
        .into_iter()
        .map(|prev| match prev {
            Some(prev) => (prev, true),
            None => (fresh.next().expect("one resolution per file to resolve"), false),
        })
        .collect();
    stats.resolve_ms = clock.elapsed().as_millis() as u64 - stats.tables_ms;
    // A build that applied a few changes keeps its tables for the next change (edits come in
    // runs); any other (opening a repository, where every file counts as added, or a bulk
    // change) frees them now, before assembly needs the memory.
    let kept = match previous {
        Some(p) if !p.changed.is_empty() && p.changed.len() * 2 < input.files.len() => KeptTablesSlot::new(kept),
        _ => {
            drop(kept);
            KeptTablesSlot::default()
        }
    };

    Resolved {
        fingerprint,
        derived,
        kept,
        results,
        reusable,
    }
}

/// Whether `previous` was built from exactly this input: no change noted, the same resolver
/// and configuration, and its resolutions name the same files in the same order.
fn unchanged_since(input: &RepoInput<'_>, previous: &Previous<'_>, fingerprint: &str) -> bool {
    let files = &previous.cache.files;
    previous.changed.is_empty()
        && previous.cache.fingerprint == fingerprint
        && files.len() == input.files.len()
        && files
            .par_iter()
            .zip(input.files)
            .all(|((path, _), file)| Arc::ptr_eq(path, &file.path) || **path == *file.path)
}

/// Previous resolutions, the dependency keys a change touches, and files to redo anyway.
pub(crate) type Reusable<'x> = (Prior<'x>, FxHashSet<u64>, FxHashSet<u32>);

/// The previous build's resolution of each file: by position when this build has the same
/// files (an edit that added or removed none: the cache lists them in the same path order),
/// else by path.
pub(crate) enum Prior<'x> {
    Aligned(&'x [(Arc<str>, Arc<ResolvedFile>)]),
    ByPath(FxHashMap<&'x str, &'x Arc<ResolvedFile>>),
}

impl<'x> Prior<'x> {
    fn new(input: &RepoInput<'_>, previous: &'x Previous<'_>) -> Prior<'x> {
        let files = &previous.cache.files;
        // The cache lists the previous build's files; every file added or deleted since is a
        // change (added: no old facts; deleted: not in the input).
        let same_files = files.len() == input.files.len()
            && previous
                .changed
                .iter()
                .all(|c| c.old.is_some() && file_position(input.files, &c.path).is_some());
        if same_files {
            debug_assert!(files.iter().zip(input.files).all(|(c, f)| *c.0 == *f.path));
            Prior::Aligned(files)
        } else {
            Prior::ByPath(files.iter().map(|(path, r)| (&**path, r)).collect())
        }
    }

    /// File `fi`'s (at `path`) previous resolution.
    pub(crate) fn get(&self, fi: u32, path: &str) -> Option<&'x Arc<ResolvedFile>> {
        match self {
            Prior::Aligned(files) => files.get(fi as usize).map(|(_, r)| r),
            Prior::ByPath(map) => map.get(path).copied(),
        }
    }
}

/// Dependency keys a change touches, and the positions of the files to resolve regardless.
fn changed_keys<'a>(
    input: &RepoInput<'a>,
    previous: &Previous<'_>,
    derived: &Arc<DerivedTables>,
) -> (FxHashSet<u64>, FxHashSet<u32>) {
    let mut keys = FxHashSet::default();
    // By position, not path: every file is checked against it, and hashing 60,000 paths reads
    // 60,000 strings scattered in memory.
    let mut forced: FxHashSet<u32> = FxHashSet::default();
    let current = |path: &str| file_position(input.files, path).map(|i| (i as u32, &input.files[i]));
    // A file's readers (FILE) and directory (DIR); with `symbols`, also the readers that found
    // its symbols by index or by a noted name (SYMBOLS), whom only appended declarations spare.
    let touch = |path: &str, keys: &mut FxHashSet<u64>, symbols: bool| {
        keys.insert(deps::key(deps::FILE, path));
        keys.insert(deps::key(deps::DIR, dir_of(path)));
        if symbols {
            keys.insert(deps::key(deps::SYMBOLS, path));
        }
    };
    for change in previous.changed {
        let path = change.path.as_str();
        // The file as it is now (none when deleted).
        let file = current(path);
        if let Some((fi, f)) = file {
            forced.insert(fi);
            // An edit that other files cannot see (a body, a comment, moved lines): only the
            // file itself is resolved again. Other files' results point at its symbols by index,
            // which the same interface keeps; the derived tables below still catch hierarchy
            // changes made through its references.
            if change.old.as_ref().is_some_and(|old| old.same_interface(&f.facts)) {
                continue;
            }
        }
        let new_facts = file.map(|(_, f)| &*f.facts);
        match (change.old.as_deref(), new_facts) {
            // Declarations added after the last one (the common way a new function arrives):
            // readers that found this file's symbols by index or by a name keep them; any lookup
            // of a new symbol's name (owners' names for detached methods) is redone.
            (Some(old), Some(new)) if old.appended_to_by(new) => {
                touch(path, &mut keys, false);
                for s in &new.symbols[old.symbols.len()..] {
                    keys.insert(deps::key(deps::NAME, &s.name));
                    if let Some(owner) = &s.type_name {
                        keys.insert(deps::key(deps::NAME, owner));
                    }
                }
            }
            _ => touch(path, &mut keys, true),
        }
        // Readers of this file noted it (FILE); name-only lookups elsewhere only care about
        // declarations that appeared or disappeared (or changed kind, test-ness or enclosing
        // declaration: a namespace member lookup that missed a block noted only the name).
        type Declared<'f> = FxHashSet<(&'f str, NodeKind, bool, Option<&'f str>)>;
        fn declared(facts: Option<&FileFacts>) -> Declared<'_> {
            let Some(facts) = facts else {
                return FxHashSet::default();
            };
            let test_file = facts.test_runner.is_some();
            let mut set = FxHashSet::default();
            for s in &facts.symbols {
                let parent = s
                    .parent
                    .and_then(|p| facts.symbols.get(p as usize))
                    .map(|p| p.name.as_str());
                set.insert((s.name.as_str(), s.kind, test_file, parent));
                if let (Some(owner), None, NodeKind::Method) = (&s.type_name, s.parent, s.kind) {
                    // Detached methods are looked up through their owner's name.
                    set.insert((owner.as_str(), NodeKind::Type, test_file, None));
                }
            }
            set
        }
        let (before, after) = (declared(change.old.as_deref()), declared(new_facts));
        for (name, _, _, _) in before.symmetric_difference(&after) {
            keys.insert(deps::key(deps::NAME, name));
        }
        // A lookup that missed in this file noted the name (not the file): names that became
        // or stopped being top-level here, even if declared before (a nesting change).
        // (An added or deleted file's names are all in the difference above.)
        if let (Some(old), Some((_, file))) = (&change.old, file) {
            let (was, is) = (
                resolve::top_level_names(old, file.language),
                resolve::top_level_names(&file.facts, file.language),
            );
            for name in was.symmetric_difference(&is) {
                keys.insert(deps::key(deps::NAME, name));
            }
        }
        let (was, is) = (change.old.as_ref().map(|f| &f.imports), new_facts.map(|f| &f.imports));
        if was != is {
            keys.insert(deps::key(deps::IMPORTS, path));
        }
        for facts in change.old.as_deref().into_iter().chain(new_facts) {
            if let Some(pkg) = &facts.package {
                keys.insert(deps::key(deps::JAVA_PACKAGE, pkg));
            }
        }
        for module in resolve::python_module_keys(path) {
            keys.insert(deps::key(deps::PY_MODULE, &module));
        }
        if path.ends_with(".rs") {
            let (_, module) = resolve::rust_module_of(&input.config.cargo_crates, path, 0);
            keys.insert(deps::key(deps::RUST_MODULE, &module.join("::")));
        }
    }
    // Files whose whole-repository tables changed: their readers noted them as FILE keys.
    let old = &previous.cache.derived;
    let mut affected: FxHashSet<String> = FxHashSet::default();
    if Arc::ptr_eq(old, derived) {
        return (keys, forced);
    }
    let (was, is) = (&old.import_targets, &derived.import_targets);
    if was.len() == is.len() && was.iter().zip(is).all(|(a, b)| same_text(&a.0, &b.0)) {
        // The same files in the same order (an edit): compare in place (shared renderings
        // compare by address first).
        for (a, b) in was.iter().zip(is) {
            if a.1 != b.1 {
                affected.insert(b.0.to_string());
            }
        }
    } else {
        diff_pairs(was, is, |path, _, _| {
            affected.insert(path.to_string());
        });
    }
    if !Arc::ptr_eq(&old.supertypes, &derived.supertypes) {
        diff_pairs(&old.supertypes, &derived.supertypes, |sub, _, _| {
            affected.insert(sym_path(sub).to_string());
        });
    }
    if !Arc::ptr_eq(&old.method_owners, &derived.method_owners) {
        diff_pairs(&old.method_owners, &derived.method_owners, |method, before, after| {
            affected.insert(sym_path(method).to_string());
            for owner in before.into_iter().chain(after) {
                affected.insert(sym_path(owner).to_string());
            }
        });
    }
    for path in &affected {
        touch(path, &mut keys, true);
        if let Some((fi, _)) = current(path.as_str()) {
            forced.insert(fi);
        }
    }
    (keys, forced)
}

fn sym_path(key: &str) -> &str {
    key.rsplit_once('#').map(|(p, _)| p).unwrap_or(key)
}

/// Calls `on_diff(key, old, new)` for every key whose value differs between two lists sorted
/// by key, keys unique (one walk of both, in order).
fn diff_pairs<'x, K: std::ops::Deref<Target = str>, V: PartialEq>(
    old: &'x [(K, V)],
    new: &'x [(K, V)],
    mut on_diff: impl FnMut(&'x str, Option<&'x V>, Option<&'x V>),
) {
    debug_assert!(old.windows(2).all(|w| *w[0].0 < *w[1].0) && new.windows(2).all(|w| *w[0].0 < *w[1].0));
    let (mut a, mut b) = (old.iter().peekable(), new.iter().peekable());
    loop {
        match (a.peek(), b.peek()) {
            (None, None) => return,
            (Some((k, v)), None) => {
                on_diff(k, Some(v), None);
                a.next();
            }
            (None, Some((k, v))) => {
                on_diff(k, None, Some(v));
                b.next();
            }
            (Some((ka, va)), Some((kb, vb))) => match (**ka).cmp(&**kb) {
                std::cmp::Ordering::Less => {
                    on_diff(ka, Some(va), None);
                    a.next();
                }
                std::cmp::Ordering::Greater => {
                    on_diff(kb, None, Some(vb));
                    b.next();
                }
                std::cmp::Ordering::Equal => {
                    if va != vb {
                        on_diff(kb, Some(va), Some(vb));
                    }
                    a.next();
                    b.next();
                }
            },
        }
    }
}

/// Whether `graph` is what a build of `input` would give because it was built from the same
/// files with equal facts (an edit of comments or trailing text, which no extractor reads); if
/// so it now records `input`'s facts, and can serve as the new version with nothing resolved
/// or assembled. On the Linux kernel such a build re-resolved nothing and still spent ≈ 2.5 s
/// on lookup tables and assembly. False, the graph untouched, when a file's path, language or
/// facts differ, or the graph is layered; the caller vouches for the rest of the input: the
/// same configuration and language-server answers.
pub fn carry_over(graph: &mut Graph, input: &RepoInput<'_>) -> bool {
    let same = graph.layer.is_none()
        && graph.repo == input.repo
        && graph.files().len() == input.files.len()
        && graph.file_facts().len() == input.files.len()
        && graph
            .files()
            .par_iter()
            .zip(graph.file_facts())
            .zip(input.files)
            .all(|((&node, facts), file)| {
                let n = &graph.nodes[node as usize];
                same_text(&n.path, &file.path)
                    && n.language == Some(file.language)
                    && (Arc::ptr_eq(facts, &file.facts) || **facts == *file.facts)
            });
    if same {
        // The new facts' identity is what later builds and derived indexes tell unchanged files by.
        graph.set_file_facts(input.files.iter().map(|f| Arc::clone(&f.facts)).collect());
    }
    same
}
