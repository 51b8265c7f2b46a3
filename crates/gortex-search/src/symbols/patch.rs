//! Patching the last build's text tables for a few chunks tokenised again (an edit that added,
//! removed or renamed a symbol), instead of merging every chunk: the chunks' previous postings
//! are taken out, their new ones put in, and docs after them renumbered. The result equals
//! [`TextTables::merge`] of the same chunks (the reuse-equals-fresh tests compare every table).

use super::{average_lengths, doc_frequency, exact_keys, letter_mask, Chunk, TextTables, MAX_TOKEN_LEN};
use gortex_graph::{Graph, NodeIndex};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// An id no token or doc has: one that goes.
const GONE: u32 = u32::MAX;

/// One chunk of files tokenised again: its file range, its last build's tokens and its new ones.
pub(super) struct ChunkChange {
    pub start: usize,
    pub end: usize,
    pub old: Arc<Chunk>,
    pub new: Arc<Chunk>,
}

/// A chunk's path postings as (file, token, tf), sorted: comparable across two tokenisations.
fn path_postings(c: &Chunk) -> Vec<(u32, &str, u8)> {
    let mut out: Vec<(u32, &str, u8)> = c
        .paths
        .iter()
        .map(|&(t, f, tf)| (f, &*c.vocab[t as usize], tf))
        .collect();
    out.sort_unstable();
    out
}

/// `old` exact-name keys with their docs renumbered by `doc_map` (dropping those that go),
/// merged with `more` (unsorted): sorted as [`exact_tables`] leaves them.
fn merge_keys(old: &[u64], doc_map: &[u32], mut more: Vec<u64>) -> Vec<u64> {
    more.sort_unstable();
    let mut out = Vec::with_capacity(old.len() + more.len());
    let mut more = more.into_iter().peekable();
    for &k in old {
        let d = doc_map[k as u32 as usize];
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

/// How many postings each of a chunk's local tokens has.
fn postings_per_token(c: &Chunk) -> Vec<i64> {
    let mut counts = vec![0i64; c.vocab.len()];
    for &(t, _, _) in &c.postings {
        counts[t as usize] += 1;
    }
    counts
}

/// Old doc → new doc: the changed chunks' docs go ([`GONE`]), the docs after each move by its
/// growth. `None` when the chunks' docs do not line up with the two layouts.
fn renumber_docs(old_file_doc_off: &[u32], file_doc_off: &[u32], changes: &[ChunkChange]) -> Option<Vec<u32>> {
    let (old_ndocs, new_ndocs) = (*old_file_doc_off.last()? as usize, *file_doc_off.last()? as usize);
    let mut doc_map = vec![GONE; old_ndocs];
    let (mut next, mut delta) = (0usize, 0i64);
    let shift = |doc_map: &mut [u32], range: std::ops::Range<usize>, delta: i64| {
        for (d, slot) in doc_map.iter_mut().enumerate().take(range.end).skip(range.start) {
            *slot = (d as i64 + delta) as u32;
        }
    };
    for c in changes {
        let (os, oe) = (old_file_doc_off[c.start] as usize, old_file_doc_off[c.end] as usize);
        let (ns, ne) = (file_doc_off[c.start] as usize, file_doc_off[c.end] as usize);
        if os < next
            || os as i64 + delta != ns as i64
            || c.old.doc_len.len() != oe - os
            || c.new.doc_len.len() != ne - ns
        {
            return None;
        }
        shift(&mut doc_map, next..os, delta);
        delta += (ne - ns) as i64 - (oe - os) as i64;
        next = oe;
    }
    shift(&mut doc_map, next..old_ndocs, delta);
    (old_ndocs as i64 + delta == new_ndocs as i64).then_some(doc_map)
}

impl TextTables {
    /// These tables with `changes` applied, for a build whose doc layout is `doc_node`,
    /// `doc_file`, `file_doc_off` and whose last one had `old_file_doc_off`. `None` when the
    /// change is not one this handles (other files, paths that changed, tokens that do not
    /// line up): the caller merges instead.
    pub(super) fn patch(
        &self,
        g: &Graph,
        old_file_doc_off: &[u32],
        changes: &[ChunkChange],
        doc_node: &[NodeIndex],
        doc_file: &[u32],
        file_doc_off: &[u32],
    ) -> Option<TextTables> {
        let old_ndocs = self.doc_len.len();
        if old_file_doc_off.len() != file_doc_off.len() || old_file_doc_off.last() != Some(&(old_ndocs as u32)) {
            return None;
        }
        // Paths are the same files' paths: their postings (and lengths) stay as they are.
        for c in changes {
            if c.old.path_len != c.new.path_len || path_postings(&c.old) != path_postings(&c.new) {
                return None;
            }
        }

        let doc_map = renumber_docs(old_file_doc_off, file_doc_off, changes)?;

        // How many postings each old token loses and gains; tokens new to the vocabulary.
        let old_ntok = self.vocabulary_len();
        let mut net: FxHashMap<u32, i64> = FxHashMap::default();
        let mut fresh: Vec<&str> = Vec::new();
        // Per change, the new chunk's local tokens: an old id, or `GONE` while still fresh.
        let mut new_local: Vec<Vec<u32>> = Vec::with_capacity(changes.len());
        for c in changes {
            let old_ids: Vec<u32> = c
                .old
                .vocab
                .par_iter()
                .map(|t| self.token_id(t))
                .collect::<Option<_>>()?;
            for (&id, &n) in old_ids.iter().zip(&postings_per_token(&c.old)) {
                if n > 0 {
                    *net.entry(id).or_default() -= n;
                }
            }
            let local: Vec<u32> = c
                .new
                .vocab
                .par_iter()
                .map(|t| self.token_id(t).unwrap_or(GONE))
                .collect();
            fresh.extend(
                local
                    .iter()
                    .zip(&c.new.vocab)
                    .filter(|(&id, _)| id == GONE)
                    .map(|(_, t)| &**t),
            );
            for (&id, &n) in local.iter().zip(&postings_per_token(&c.new)) {
                if n > 0 && id != GONE {
                    *net.entry(id).or_default() += n;
                }
            }
            new_local.push(local);
        }
        fresh.sort_unstable();
        fresh.dedup();
        let count = |o: u32| {
            (self.post_off[o as usize + 1] - self.post_off[o as usize]) as i64
                + (self.path_off[o as usize + 1] - self.path_off[o as usize]) as i64
        };
        let dropped = |o: u32| net.get(&o).is_some_and(|&n| count(o) + n <= 0);

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

        // The new chunks' postings in new ids and docs, grouped by token (a counting sort: each
        // token's stay in doc order); which tokens changed.
        let mut touched = vec![false; ntok];
        for (o, _) in net.iter() {
            if old_new[*o as usize] != GONE {
                touched[old_new[*o as usize] as usize] = true;
            }
        }
        let new_ids: Vec<Vec<u32>> = changes
            .iter()
            .zip(&new_local)
            .map(|(c, local)| {
                local
                    .iter()
                    .zip(&c.new.vocab)
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
        let mut added_off = vec![0u32; ntok + 1];
        for (c, ids) in changes.iter().zip(&new_ids) {
            for &(t, _, _) in &c.new.postings {
                added_off[ids[t as usize] as usize + 1] += 1;
            }
        }
        for t in 0..ntok {
            added_off[t + 1] += added_off[t];
        }
        let mut added: Vec<(u32, u16)> = vec![(0, 0); added_off[ntok] as usize];
        let mut fill = added_off.clone();
        for (c, ids) in changes.iter().zip(&new_ids) {
            let base = file_doc_off[c.start];
            for &(t, d, tf) in &c.new.postings {
                let id = ids[t as usize] as usize;
                touched[id] = true;
                added[fill[id] as usize] = (d + base, tf);
                fill[id] += 1;
            }
        }
        drop(fill);

        // Postings: each token's kept ones renumbered, merged with its new ones by doc. Counts
        // first, then the lists filled in parallel, each range of tokens into its own slice.
        let mut post_off = Vec::with_capacity(ntok + 1);
        post_off.push(0u32);
        for (t, &o) in new_old.iter().enumerate() {
            // An old token: its postings less the lost plus the gained ones; a fresh one: its new ones.
            let total = if o == GONE {
                added_off[t + 1] - added_off[t]
            } else {
                let old = (self.post_off[o as usize + 1] - self.post_off[o as usize]) as i64;
                (old + net.get(&o).copied().unwrap_or(0)) as u32
            };
            post_off.push(post_off[t] + total);
        }
        let npost = post_off[ntok] as usize;
        let mut post_doc = vec![0u32; npost];
        let mut post_tf = vec![0u16; npost];
        let ranges = (ntok / (rayon::current_num_threads() * 16)).max(1024);
        let mut parts: Vec<(usize, &mut [u32], &mut [u16])> = Vec::new();
        let (mut docs, mut tfs): (&mut [u32], &mut [u16]) = (&mut post_doc, &mut post_tf);
        for t0 in (0..ntok).step_by(ranges) {
            let t1 = (t0 + ranges).min(ntok);
            let len = (post_off[t1] - post_off[t0]) as usize;
            let (d, rest_d) = std::mem::take(&mut docs).split_at_mut(len);
            let (f, rest_f) = std::mem::take(&mut tfs).split_at_mut(len);
            (docs, tfs) = (rest_d, rest_f);
            parts.push((t0, d, f));
        }
        parts.into_par_iter().for_each(|(t0, docs, tfs)| {
            let mut at = 0usize;
            let mut push = |d: u32, tf: u16| {
                docs[at] = d;
                tfs[at] = tf;
                at += 1;
            };
            let t1 = (t0 + ranges).min(ntok);
            for (t, &o) in new_old.iter().enumerate().take(t1).skip(t0) {
                let old = if o == GONE {
                    0..0
                } else {
                    self.post_off[o as usize] as usize..self.post_off[o as usize + 1] as usize
                };
                if !touched[t] {
                    for i in old {
                        push(doc_map[self.post_doc[i] as usize], self.post_tf[i]);
                    }
                    continue;
                }
                let mut news = added[added_off[t] as usize..added_off[t + 1] as usize]
                    .iter()
                    .peekable();
                for i in old {
                    let d = doc_map[self.post_doc[i] as usize];
                    if d == GONE {
                        continue;
                    }
                    while let Some(&&(nd, ntf)) = news.peek().filter(|n| n.0 < d) {
                        push(nd, ntf);
                        news.next();
                    }
                    push(d, self.post_tf[i]);
                }
                for &(nd, ntf) in news {
                    push(nd, ntf);
                }
            }
            debug_assert_eq!(at, docs.len(), "the counted postings are the filled ones");
        });

        // Paths did not change; only their tokens' ids may have.
        let (path_off, path_file, path_tf) = if same_vocab {
            (self.path_off.clone(), self.path_file.clone(), self.path_tf.clone())
        } else {
            let mut path_off = Vec::with_capacity(ntok + 1);
            let mut path_file = Vec::with_capacity(self.path_file.len());
            let mut path_tf = Vec::with_capacity(self.path_tf.len());
            path_off.push(0u32);
            for &o in &new_old {
                if o != GONE {
                    let r = self.path_off[o as usize] as usize..self.path_off[o as usize + 1] as usize;
                    path_file.extend_from_slice(&self.path_file[r.clone()]);
                    path_tf.extend_from_slice(&self.path_tf[r]);
                }
                path_off.push(path_file.len() as u32);
            }
            (path_off, path_file, path_tf)
        };

        // A token's document frequency changes only if its postings did, or if it is in the path
        // of a file whose symbols changed (those are in the changed chunks' vocabularies too).
        for (c, local) in changes.iter().zip(&new_local) {
            for &(t, _, _) in &c.new.paths {
                let o = local[t as usize];
                if o != GONE && old_new[o as usize] != GONE {
                    touched[old_new[o as usize] as usize] = true;
                }
            }
        }
        let df: Vec<u32> = (0..ntok)
            .into_par_iter()
            .map(|t| {
                let o = new_old[t];
                if !touched[t] && o != GONE {
                    return self.df[o as usize];
                }
                let docs = &post_doc[post_off[t] as usize..post_off[t + 1] as usize];
                let files = &path_file[path_off[t] as usize..path_off[t + 1] as usize];
                doc_frequency(docs, files, doc_file, file_doc_off)
            })
            .collect();

        let mut doc_len = Vec::with_capacity(doc_node.len());
        let mut next = 0usize;
        for c in changes {
            doc_len.extend_from_slice(&self.doc_len[next..old_file_doc_off[c.start] as usize]);
            doc_len.extend_from_slice(&c.new.doc_len);
            next = old_file_doc_off[c.end] as usize;
        }
        doc_len.extend_from_slice(&self.doc_len[next..]);
        let avg_len = average_lengths(&doc_len);
        // Exact-name tables: the kept docs renumbered (their order holds), the new ones merged in.
        let (mut name_keys, mut qualified_keys) = (Vec::new(), Vec::new());
        for c in changes {
            let (s, e) = (file_doc_off[c.start], file_doc_off[c.end]);
            let (n, q) = exact_keys(g, &doc_node[s as usize..e as usize], s);
            name_keys.extend(n);
            qualified_keys.extend(q);
        }
        let (by_name, by_qualified) = rayon::join(
            || merge_keys(&self.by_name, &doc_map, name_keys),
            || merge_keys(&self.by_qualified, &doc_map, qualified_keys),
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
            file_path_len: self.file_path_len.clone(),
            avg_len,
            avg_path_len: self.avg_path_len,
            by_name,
            by_qualified,
        })
    }
}
