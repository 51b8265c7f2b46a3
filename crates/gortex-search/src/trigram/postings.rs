//! Postings: the sorted document ids of one trigram, delta + LEB128 varint encoded, kept in
//! shards of the trigram space with an undo log for a sync that is rolled back.

use super::*;

pub(super) fn write_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(super) fn read_varint(bytes: &[u8], pos: &mut usize) -> u32 {
    let mut v = 0u32;
    let mut shift = 0;
    loop {
        let b = bytes[*pos];
        *pos += 1;
        v |= u32::from(b & 0x7F) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

/// Encodes strictly increasing doc ids as deltas (the first id as is) in LEB128 varints.
pub fn encode_postings(ids: &[DocId]) -> Vec<u8> {
    let mut p = Posting::default();
    for &id in ids {
        p.push(id);
    }
    p.data
}

/// Decodes what [`encode_postings`] wrote.
pub fn decode_postings(bytes: &[u8]) -> Vec<DocId> {
    let mut out = Vec::new();
    let (mut pos, mut last) = (0, 0u32);
    while pos < bytes.len() {
        let delta = read_varint(bytes, &mut pos);
        last = if out.is_empty() { delta } else { last + delta };
        out.push(last);
    }
    out
}

#[derive(Debug, Default)]
pub(super) struct Posting {
    /// The largest id pushed so far (valid when `count > 0`).
    pub(super) last: DocId,
    pub(super) count: u32,
    pub(super) data: Vec<u8>,
}

impl Posting {
    pub(super) fn push(&mut self, id: DocId) {
        let delta = if self.count == 0 { id } else { id - self.last };
        write_varint(&mut self.data, delta);
        self.last = id;
        self.count += 1;
    }

    pub(super) fn decode(&self) -> Vec<DocId> {
        let mut out = Vec::with_capacity(self.count as usize);
        let (mut pos, mut last) = (0, 0u32);
        while pos < self.data.len() {
            let delta = read_varint(&self.data, &mut pos);
            last = if out.is_empty() { delta } else { last + delta };
            out.push(last);
        }
        out
    }

    /// The ids of `sorted` that this posting also holds.
    pub(super) fn intersect(&self, sorted: &[DocId]) -> Vec<DocId> {
        let mut out = Vec::with_capacity(sorted.len().min(self.count as usize));
        let (mut pos, mut last, mut first) = (0, 0u32, true);
        let mut i = 0;
        while pos < self.data.len() && i < sorted.len() {
            let delta = read_varint(&self.data, &mut pos);
            last = if first { delta } else { last + delta };
            first = false;
            while i < sorted.len() && sorted[i] < last {
                i += 1;
            }
            if i < sorted.len() && sorted[i] == last {
                out.push(last);
                i += 1;
            }
        }
        out
    }
}

/// Shrinks a posting whose spare capacity is large; returns its capacity before.
pub(super) fn trim_posting(p: &mut Posting) -> usize {
    let cap = p.data.capacity();
    if cap > p.data.len() + p.data.len() / 8 + 8 {
        p.data.shrink_to_fit();
    }
    cap
}

/// State of a posting before a batch first touched it (to roll the batch back).
pub(super) struct Undo {
    pub(super) trigram: u32,
    pub(super) len: usize,
    pub(super) last: DocId,
    pub(super) count: u32,
}

#[derive(Debug, Default)]
pub(super) struct Shard {
    pub(super) map: FxHashMap<u32, Posting>,
    /// Σ capacity of the postings' byte vectors.
    pub(super) heap: usize,
}

impl Shard {
    pub(super) fn bytes(&self) -> usize {
        self.heap + self.map.capacity() * (std::mem::size_of::<(u32, Posting)>() + MAP_CONTROL_BYTES)
    }

    /// Appends the given documents (ids ascending, all above every id already stored) and logs
    /// the first touch of every posting so the append can be undone.
    pub(super) fn append(&mut self, shard: usize, docs: &[(DocId, &[u32])], undo: &mut Vec<Undo>) {
        let first_id = match docs.first() {
            Some(d) => d.0,
            None => return,
        };
        for &(id, tris) in docs {
            let start = tris.partition_point(|&t| shard_of(t) < shard);
            let end = start + tris[start..].partition_point(|&t| shard_of(t) == shard);
            for &t in &tris[start..end] {
                let p = self.map.entry(t).or_default();
                if p.count == 0 || p.last < first_id {
                    undo.push(Undo {
                        trigram: t,
                        len: p.data.len(),
                        last: p.last,
                        count: p.count,
                    });
                }
                let cap = p.data.capacity();
                p.push(id);
                self.heap = self.heap + p.data.capacity() - cap;
            }
        }
    }

    /// Shrinks postings this batch grew when their spare capacity is large.
    pub(super) fn trim(&mut self, undo: &[Undo]) {
        for u in undo {
            if let Some(p) = self.map.get_mut(&u.trigram) {
                let old = trim_posting(p);
                self.heap = self.heap + p.data.capacity() - old;
            }
        }
    }

    /// Shrinks every posting with large spare capacity.
    pub(super) fn trim_all(&mut self) {
        let mut heap = 0;
        for p in self.map.values_mut() {
            trim_posting(p);
            heap += p.data.capacity();
        }
        self.heap = heap;
    }

    pub(super) fn rollback(&mut self, undo: &[Undo]) {
        let removed = undo.iter().any(|u| u.count == 0);
        for u in undo.iter().rev() {
            if u.count == 0 {
                if let Some(p) = self.map.remove(&u.trigram) {
                    self.heap -= p.data.capacity();
                }
            } else if let Some(p) = self.map.get_mut(&u.trigram) {
                let cap = p.data.capacity();
                p.data.truncate(u.len);
                p.data.shrink_to_fit();
                p.last = u.last;
                p.count = u.count;
                self.heap = self.heap + p.data.capacity() - cap;
            }
        }
        if removed {
            self.map.shrink_to_fit();
        }
    }
}
