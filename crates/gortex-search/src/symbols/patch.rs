//! Patching the last build's text tables where a few runs of chunks changed (an edit that added,
//! removed or renamed a symbol, a file added or deleted, a file gaining its first symbol),
//! instead of merging every chunk: the runs' previous postings are taken out, their new ones put
//! in, and the docs and files after each run renumbered. The result equals
//! [`TextTables::merge`] of the same chunks (the reuse-equals-fresh tests compare every table).
//!
//! Each changed run's old postings are taken out and its new ones put in, docs and files after it
//! renumbered by arithmetic shifts (no table is read per posting), the vocabulary merged with the
//! fresh tokens and rid of the ones no posting holds any more, and document frequencies
//! recomputed only for the tokens whose postings or path files changed; the exact-name tables
//! keep each key's hash beside its doc (`hash << 32 | doc`) so they are merged rather than hashed
//! and sorted again. A patch is taken when the changed runs hold at most about half the chunks of
//! the two builds (see the parent module's doc on reuse).

use super::{
    average_lengths, average_path_length, doc_frequency, exact_keys, letter_mask, Chunk, TextTables, MAX_TOKEN_LEN,
};
use gortex_graph::{Graph, NodeIndex};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// An id no token, doc or file has: one that goes.
const GONE: u32 = u32::MAX;

/// A run of consecutive chunks whose files or text changed: the last build's chunks there and
/// this build's, each with the file it starts at (in its own build). Outside the runs, files and
/// their tokens are as in the last build.
pub(super) struct Region {
    /// File range in the last build.
    pub old_files: (usize, usize),
    /// File range in this build.
    pub new_files: (usize, usize),
    pub old: Vec<(usize, Arc<Chunk>)>,
    pub new: Vec<(usize, Arc<Chunk>)>,
}

/// Old id → new id when runs of ids are replaced: ids before the first run keep theirs, ids in a
/// run go ([`GONE`]), ids after a run move by the growth so far. Arithmetic rather than a table:
/// renumbering every posting reads no memory but the postings themselves.
struct Renumber {
    /// Per run, in order: its old id range and the shift of the ids after it.
    cuts: Vec<(u32, u32, i64)>,
}

impl Renumber {
    /// Cuts from (old start, old end, new start, new end) runs, in order; `None` unless the ids
    /// between runs line up (the same count before each run, and `old_total`/`new_total` after).
    fn new(runs: impl Iterator<Item = (u32, u32, u32, u32)>, old_total: u32, new_total: u32) -> Option<Renumber> {
        let (mut next, mut delta, mut cuts) = (0u32, 0i64, Vec::new());
        for (os, oe, ns, ne) in runs {
            if os < next || oe < os || ne < ns || os as i64 + delta != ns as i64 {
                return None;
            }
            delta += (ne - ns) as i64 - (oe - os) as i64;
            cuts.push((os, oe, delta));
            next = oe;
        }
        (old_total as i64 + delta == new_total as i64).then_some(Renumber { cuts })
    }

    /// The new id of old id `d`, or [`GONE`] (a binary search: a branch switch makes hundreds of
    /// runs, and every posting after the first is looked up).
    fn get(&self, d: u32) -> u32 {
        match self.cuts.partition_point(|&(start, _, _)| start <= d) {
            0 => d,
            k => {
                let (_, end, after) = self.cuts[k - 1];
                if d < end {
                    GONE
                } else {
                    (d as i64 + after) as u32
                }
            }
        }
    }

    /// Whether id `d`, and so every id before it, keeps its value.
    fn keeps(&self, d: u32) -> bool {
        self.cuts.first().is_none_or(|&(start, _, _)| d < start)
    }
}

/// `old` exact-name keys with their docs renumbered (dropping those that go), merged with
/// `more` (unsorted): sorted as [`exact_tables`] leaves them.
fn merge_keys(old: &[u64], docs: &Renumber, mut more: Vec<u64>) -> Vec<u64> {
    more.sort_unstable();
    let mut out = Vec::with_capacity(old.len() + more.len());
    let mut more = more.into_iter().peekable();
    for &k in old {
        let d = docs.get(k as u32);
        if d == GONE {
            continue;
        }
        let k = (k >> 32) << 32 | d as u64;
        while let Some(m) = more.next_if(|&m| m < k) {
            out.push(m);
        }
        out.push(k);
    }
    out.extend(more);
    out
}

/// One kind of postings (symbols over docs, or paths over files) in CSR form.
struct Lists<'a, T> {
    off: &'a [u32],
    ids: &'a [u32],
    tf: &'a [T],
}

/// `old` postings with ids renumbered, each touched token's new ones (`added`, by new token,
/// ascending) merged in: the new lists, offsets first. `new_old` maps new token → old token.
fn rebuild_lists<T: Copy + Default + Send + Sync>(
    old: Lists<'_, T>,
    ids: &Renumber,
    new_old: &[u32],
    net: &FxHashMap<u32, i64>,
    touched: &[bool],
    added_off: &[u32],
    added: &[(u32, T)],
) -> (Vec<u32>, Vec<u32>, Vec<T>) {
    let ntok = new_old.len();
    // An old token: its postings less the lost plus the gained ones; a fresh one: its new ones.
    let mut off = Vec::with_capacity(ntok + 1);
    off.push(0u32);
    for (t, &o) in new_old.iter().enumerate() {
        let total = if o == GONE {
            added_off[t + 1] - added_off[t]
        } else {
            let had = (old.off[o as usize + 1] - old.off[o as usize]) as i64;
            (had + net.get(&o).copied().unwrap_or(0)) as u32
        };
        off.push(off[t] + total);
    }
    let n = off[ntok] as usize;
    let mut out_ids = vec![0u32; n];
    let mut out_tf = vec![T::default(); n];
    // Filled in parallel, each range of tokens into its own slice.
    let span = (ntok / (rayon::current_num_threads() * 16)).max(1024);
    let mut parts: Vec<(usize, &mut [u32], &mut [T])> = Vec::new();
    let (mut rest_ids, mut rest_tf): (&mut [u32], &mut [T]) = (&mut out_ids, &mut out_tf);
    for t0 in (0..ntok).step_by(span) {
        let t1 = (t0 + span).min(ntok);
        let len = (off[t1] - off[t0]) as usize;
        let (a, more_ids) = std::mem::take(&mut rest_ids).split_at_mut(len);
        let (b, more_tf) = std::mem::take(&mut rest_tf).split_at_mut(len);
        (rest_ids, rest_tf) = (more_ids, more_tf);
        parts.push((t0, a, b));
    }
    parts.into_par_iter().for_each(|(t0, out_ids, out_tf)| {
        let mut at = 0usize;
        for (t, &o) in new_old.iter().enumerate().take((t0 + span).min(ntok)).skip(t0) {
            let kept = if o == GONE {
                0..0
            } else {
                old.off[o as usize] as usize..old.off[o as usize + 1] as usize
            };
            if !touched[t] {
                // No posting in a changed run (every token a run's old chunks hold has an entry
                // in `net`, so is touched): each one keeps its id or moves, a plain copy when none
                // lies past the first run.
                let (src, n) = (&old.ids[kept.clone()], kept.len());
                let dst = &mut out_ids[at..at + n];
                if src.last().is_none_or(|&d| ids.keeps(d)) {
                    dst.copy_from_slice(src);
                } else {
                    for (slot, &d) in dst.iter_mut().zip(src) {
                        *slot = ids.get(d);
                    }
                }
                out_tf[at..at + n].copy_from_slice(&old.tf[kept]);
                at += n;
                continue;
            }
            let mut news = added[added_off[t] as usize..added_off[t + 1] as usize]
                .iter()
                .peekable();
            for i in kept {
                let d = ids.get(old.ids[i]);
                if d == GONE {
                    continue;
                }
                while let Some(&&(nd, ntf)) = news.peek().filter(|n| n.0 < d) {
                    out_ids[at] = nd;
                    out_tf[at] = ntf;
                    at += 1;
                    news.next();
                }
                out_ids[at] = d;
                out_tf[at] = old.tf[i];
                at += 1;
            }
            for &(nd, ntf) in news {
                out_ids[at] = nd;
                out_tf[at] = ntf;
                at += 1;
            }
        }
        debug_assert_eq!(at, out_ids.len(), "the counted postings are the filled ones");
    });
    (off, out_ids, out_tf)
}

/// The new chunks' postings of one kind in new token ids and global ids, grouped by token (a
/// counting sort keeps each token's in order): offsets per new token and the postings.
fn added_lists<T: Copy + Default>(
    ntok: usize,
    news: &[(&Chunk, &[u32], u32)],
    postings: impl Fn(&Chunk) -> &[(u32, u32, T)],
) -> (Vec<u32>, Vec<(u32, T)>) {
    let mut off = vec![0u32; ntok + 1];
    for &(c, ids, _) in news {
        for &(t, _, _) in postings(c) {
            off[ids[t as usize] as usize + 1] += 1;
        }
    }
    for t in 0..ntok {
        off[t + 1] += off[t];
    }
    let mut added = vec![(0u32, T::default()); off[ntok] as usize];
    let mut fill = off.clone();
    for &(c, ids, base) in news {
        for &(t, id, tf) in postings(c) {
            let slot = &mut fill[ids[t as usize] as usize];
            added[*slot as usize] = (id + base, tf);
            *slot += 1;
        }
    }
    (off, added)
}

/// How many postings of each kind every local token of a chunk has: (symbol, path).
fn per_token(c: &Chunk) -> Vec<(i64, i64)> {
    let mut counts = vec![(0i64, 0i64); c.vocab.len()];
    for &(t, _, _) in &c.postings {
        counts[t as usize].0 += 1;
    }
    for &(t, _, _) in &c.paths {
        counts[t as usize].1 += 1;
    }
    counts
}

impl TextTables {
    /// These tables with `regions` replaced, for a build whose doc layout is `doc_node`,
    /// `doc_file`, `file_doc_off` and whose last one had `old_file_doc_off`. `None` when the
    /// regions do not line up with the two layouts or name a token the tables lack: the caller
    /// merges instead.
    pub(super) fn patch(
        &self,
        g: &Graph,
        old_file_doc_off: &[u32],
        regions: &[Region],
        doc_node: &[NodeIndex],
        doc_file: &[u32],
        file_doc_off: &[u32],
    ) -> Option<TextTables> {
        let old_nfiles = old_file_doc_off.len().checked_sub(1)?;
        let nfiles = file_doc_off.len().checked_sub(1)?;
        if old_file_doc_off[old_nfiles] as usize != self.doc_len.len() || self.file_path_len.len() != old_nfiles {
            return None;
        }
        // Each run's chunks cover its files and their docs, in both builds.
        for r in regions {
            let covers = |files: (usize, usize), chunks: &[(usize, Arc<Chunk>)], doc_off: &[u32]| {
                let mut at = files.0;
                for (start, c) in chunks {
                    let end = *start + c.path_len.len();
                    if *start != at || end > files.1 || c.doc_len.len() != (doc_off[end] - doc_off[*start]) as usize {
                        return false;
                    }
                    at = end;
                }
                at == files.1
            };
            if r.old_files.1 > old_nfiles
                || r.new_files.1 > nfiles
                || !covers(r.old_files, &r.old, old_file_doc_off)
                || !covers(r.new_files, &r.new, file_doc_off)
            {
                return None;
            }
        }
        let u = |x: usize| x as u32;
        let files = Renumber::new(
            regions
                .iter()
                .map(|r| (u(r.old_files.0), u(r.old_files.1), u(r.new_files.0), u(r.new_files.1))),
            u(old_nfiles),
            u(nfiles),
        )?;
        let docs = Renumber::new(
            regions.iter().map(|r| {
                (
                    old_file_doc_off[r.old_files.0],
                    old_file_doc_off[r.old_files.1],
                    file_doc_off[r.new_files.0],
                    file_doc_off[r.new_files.1],
                )
            }),
            *old_file_doc_off.last()?,
            *file_doc_off.last()?,
        )?;

        // How many postings of each kind each old token loses and gains; tokens new to the
        // vocabulary. Every token a run had or has gets an entry, so its lists are redone.
        let old_ntok = self.vocabulary_len();
        let (mut net_post, mut net_path): (FxHashMap<u32, i64>, FxHashMap<u32, i64>) = Default::default();
        let mut fresh: Vec<&str> = Vec::new();
        // Per new chunk, its local tokens: an old id, or `GONE` while still fresh.
        let mut new_local: Vec<Vec<u32>> = Vec::new();
        for r in regions {
            for (_, c) in &r.old {
                let old_ids: Vec<u32> = c.vocab.par_iter().map(|t| self.token_id(t)).collect::<Option<_>>()?;
                for (&id, &(posts, paths)) in old_ids.iter().zip(&per_token(c)) {
                    if posts > 0 {
                        *net_post.entry(id).or_default() -= posts;
                    }
                    if paths > 0 {
                        *net_path.entry(id).or_default() -= paths;
                    }
                }
            }
            for (_, c) in &r.new {
                let local: Vec<u32> = c.vocab.par_iter().map(|t| self.token_id(t).unwrap_or(GONE)).collect();
                fresh.extend(
                    local
                        .iter()
                        .zip(&c.vocab)
                        .filter(|(&id, _)| id == GONE)
                        .map(|(_, t)| &**t),
                );
                for (&id, &(posts, paths)) in local.iter().zip(&per_token(c)) {
                    if id != GONE && posts > 0 {
                        *net_post.entry(id).or_default() += posts;
                    }
                    if id != GONE && paths > 0 {
                        *net_path.entry(id).or_default() += paths;
                    }
                }
                new_local.push(local);
            }
        }
        fresh.sort_unstable();
        fresh.dedup();
        let remaining = |o: u32| {
            let posts = (self.post_off[o as usize + 1] - self.post_off[o as usize]) as i64;
            let paths = (self.path_off[o as usize + 1] - self.path_off[o as usize]) as i64;
            posts + net_post.get(&o).copied().unwrap_or(0) + paths + net_path.get(&o).copied().unwrap_or(0)
        };
        let dropped = |o: u32| (net_post.contains_key(&o) || net_path.contains_key(&o)) && remaining(o) <= 0;

        // The new vocabulary: old tokens that keep a posting and fresh ones, in order.
        let mut old_new = vec![GONE; old_ntok];
        let mut new_old: Vec<u32> = Vec::with_capacity(old_ntok + fresh.len());
        let mut fresh_ids: Vec<u32> = Vec::with_capacity(fresh.len());
        let mut fi = 0;
        for o in 0..old_ntok as u32 {
            let token = self.token(o);
            while fi < fresh.len() && fresh[fi] < token {
                fresh_ids.push(new_old.len() as u32);
                new_old.push(GONE);
                fi += 1;
            }
            if !dropped(o) {
                old_new[o as usize] = new_old.len() as u32;
                new_old.push(o);
            }
        }
        while fi < fresh.len() {
            fresh_ids.push(new_old.len() as u32);
            new_old.push(GONE);
            fi += 1;
        }
        let ntok = new_old.len();
        let same_vocab = ntok == old_ntok && fresh.is_empty();
        let (vocab, vocab_off, vocab_mask, by_len) = if same_vocab {
            (
                self.vocab.clone(),
                self.vocab_off.clone(),
                self.vocab_mask.clone(),
                self.by_len.clone(),
            )
        } else {
            let mut vocab = Vec::with_capacity(self.vocab.len() + fresh.iter().map(|t| t.len()).sum::<usize>());
            let mut vocab_off = Vec::with_capacity(ntok + 1);
            let mut vocab_mask = Vec::with_capacity(ntok);
            let mut by_len: Vec<Vec<u32>> = vec![Vec::new(); MAX_TOKEN_LEN + 1];
            vocab_off.push(0u32);
            let mut fi = 0;
            for (t, &o) in new_old.iter().enumerate() {
                let token = if o == GONE {
                    fi += 1;
                    fresh[fi - 1]
                } else {
                    self.token(o)
                };
                vocab.extend_from_slice(token.as_bytes());
                vocab_off.push(vocab.len() as u32);
                vocab_mask.push(if o == GONE {
                    letter_mask(token.as_bytes())
                } else {
                    self.vocab_mask[o as usize]
                });
                by_len[token.len().min(MAX_TOKEN_LEN)].push(t as u32);
            }
            (vocab, vocab_off, vocab_mask, by_len)
        };

        // The new chunks' postings in new token ids, and which tokens' lists change.
        let new_ids: Vec<Vec<u32>> = regions
            .iter()
            .flat_map(|r| &r.new)
            .zip(&new_local)
            .map(|((_, c), local)| {
                local
                    .iter()
                    .zip(&c.vocab)
                    .map(|(&o, t)| {
                        if o == GONE {
                            fresh_ids[fresh.binary_search(&&**t).expect("a fresh token is listed")]
                        } else {
                            old_new[o as usize]
                        }
                    })
                    .collect()
            })
            .collect();
        // Each new chunk with its ids and the first doc (for symbol postings) or file (for path
        // postings) its own ids count from.
        let news = |base: &dyn Fn(usize) -> u32| -> Vec<(&Chunk, &[u32], u32)> {
            regions
                .iter()
                .flat_map(|r| &r.new)
                .zip(&new_ids)
                .map(|((start, c), ids)| (&**c, ids.as_slice(), base(*start)))
                .collect()
        };
        let touched = |net: &FxHashMap<u32, i64>, added_off: &[u32]| -> Vec<bool> {
            let mut touched: Vec<bool> = (0..ntok).map(|t| added_off[t] < added_off[t + 1]).collect();
            for o in net.keys() {
                if old_new[*o as usize] != GONE {
                    touched[old_new[*o as usize] as usize] = true;
                }
            }
            touched
        };
        let (post_added_off, post_added) = added_lists(ntok, &news(&|start| file_doc_off[start]), |c| &c.postings);
        let post_touched = touched(&net_post, &post_added_off);
        let (path_added_off, path_added) = added_lists(ntok, &news(&|start| start as u32), |c| &c.paths);
        let path_touched = touched(&net_path, &path_added_off);
        let ((post_off, post_doc, post_tf), (path_off, path_file, path_tf)) = rayon::join(
            || {
                let old = Lists {
                    off: &self.post_off,
                    ids: &self.post_doc,
                    tf: &self.post_tf,
                };
                rebuild_lists(
                    old,
                    &docs,
                    &new_old,
                    &net_post,
                    &post_touched,
                    &post_added_off,
                    &post_added,
                )
            },
            || {
                let old = Lists {
                    off: &self.path_off,
                    ids: &self.path_file,
                    tf: &self.path_tf,
                };
                rebuild_lists(
                    old,
                    &files,
                    &new_old,
                    &net_path,
                    &path_touched,
                    &path_added_off,
                    &path_added,
                )
            },
        );

        // A token's document frequency changes only if its symbol or path postings did (a path
        // token of a run's file is in that run's vocabularies).
        let df: Vec<u32> = (0..ntok)
            .into_par_iter()
            .map(|t| {
                let o = new_old[t];
                if !post_touched[t] && !path_touched[t] && o != GONE {
                    return self.df[o as usize];
                }
                let docs = &post_doc[post_off[t] as usize..post_off[t + 1] as usize];
                let files = &path_file[path_off[t] as usize..path_off[t + 1] as usize];
                doc_frequency(docs, files, doc_file, file_doc_off)
            })
            .collect();

        // Per-doc and per-file lengths: the runs' spliced in.
        let mut doc_len = Vec::with_capacity(doc_node.len());
        let mut file_path_len = Vec::with_capacity(nfiles);
        let (mut next_doc, mut next_file) = (0usize, 0usize);
        for r in regions {
            doc_len.extend_from_slice(&self.doc_len[next_doc..old_file_doc_off[r.old_files.0] as usize]);
            file_path_len.extend_from_slice(&self.file_path_len[next_file..r.old_files.0]);
            for (_, c) in &r.new {
                doc_len.extend_from_slice(&c.doc_len);
                file_path_len.extend_from_slice(&c.path_len);
            }
            next_doc = old_file_doc_off[r.old_files.1] as usize;
            next_file = r.old_files.1;
        }
        doc_len.extend_from_slice(&self.doc_len[next_doc..]);
        file_path_len.extend_from_slice(&self.file_path_len[next_file..]);
        let avg_len = average_lengths(&doc_len);
        let avg_path_len = average_path_length(&file_path_len);

        // Exact-name tables: the kept docs renumbered (their order holds), the new ones merged in.
        let (mut name_keys, mut qualified_keys) = (Vec::new(), Vec::new());
        for r in regions {
            let (s, e) = (file_doc_off[r.new_files.0], file_doc_off[r.new_files.1]);
            let (n, q) = exact_keys(g, &doc_node[s as usize..e as usize], s);
            name_keys.extend(n);
            qualified_keys.extend(q);
        }
        let (by_name, by_qualified) = rayon::join(
            || merge_keys(&self.by_name, &docs, name_keys),
            || merge_keys(&self.by_qualified, &docs, qualified_keys),
        );
        Some(TextTables {
            vocab,
            vocab_off,
            vocab_mask,
            by_len,
            post_off,
            post_doc,
            post_tf,
            path_off,
            path_file,
            path_tf,
            df,
            doc_len,
            file_path_len,
            avg_len,
            avg_path_len,
            by_name,
            by_qualified,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renumbering_drops_the_ids_of_each_run_and_moves_the_ones_after_it() {
        // Of ids 0..20: 3..5 replaced by four ids, two inserted before 10, 12..15 removed.
        let runs = [(3, 5, 3, 7), (10, 10, 12, 14), (12, 15, 16, 16)];
        let map = Renumber::new(runs.into_iter(), 20, 21).expect("the runs line up");
        let got: Vec<u32> = (0..20).map(|d| map.get(d)).collect();
        let mut want = vec![0, 1, 2, GONE, GONE];
        want.extend(7..12); // 5..10 move by two
        want.extend([14, 15]); // 10, 11 by four
        want.extend([GONE; 3]);
        want.extend(16..21); // 15..20 by one
        assert_eq!(got, want);
        assert!(map.keeps(2) && !map.keeps(3));
        // Runs that do not line up, overlap or miss the total: no map.
        assert!(Renumber::new([(3, 5, 4, 7)].into_iter(), 20, 22).is_none());
        assert!(Renumber::new([(3, 5, 3, 7), (4, 6, 6, 8)].into_iter(), 20, 22).is_none());
        assert!(Renumber::new([(3, 5, 3, 7)].into_iter(), 20, 21).is_none());
    }
}
