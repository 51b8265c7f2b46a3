//! Heap bytes a value owns, for the per-structure memory breakdown (`RepoIndex::memory_report`).
//!
//! An estimate that follows the allocations: a container counts its capacity, a string its
//! capacity, an `Arc` its pointee once per holder (callers that share an `Arc` between several
//! structures count it where it is owned — e.g. a node id is counted with the node, not again as
//! the id map's key). Allocator overhead (size classes, headers) is not included; the benchmark
//! reports the allocator's live bytes beside the sum so the gap is visible.

use crate::facts::{BindingFact, BindingValue, FileFacts, ImportFact, Receiver, RefFact, SymbolFact};
use std::sync::Arc;

/// Heap bytes owned by a value (not counting `size_of::<Self>()` itself).
pub trait HeapSize {
    /// The bytes this value's own allocations hold.
    fn heap_bytes(&self) -> usize;
}

impl HeapSize for String {
    fn heap_bytes(&self) -> usize {
        self.capacity()
    }
}

impl HeapSize for Box<str> {
    fn heap_bytes(&self) -> usize {
        self.len()
    }
}

impl HeapSize for Arc<str> {
    /// The text plus the two reference counts.
    fn heap_bytes(&self) -> usize {
        self.len() + 16
    }
}

impl<T: HeapSize> HeapSize for Option<T> {
    fn heap_bytes(&self) -> usize {
        self.as_ref().map_or(0, HeapSize::heap_bytes)
    }
}

impl<T: HeapSize> HeapSize for Vec<T> {
    fn heap_bytes(&self) -> usize {
        self.capacity() * std::mem::size_of::<T>() + self.iter().map(HeapSize::heap_bytes).sum::<usize>()
    }
}

impl<T: HeapSize> HeapSize for Box<T> {
    fn heap_bytes(&self) -> usize {
        std::mem::size_of::<T>() + (**self).heap_bytes()
    }
}

/// Plain values that own nothing on the heap.
macro_rules! owns_nothing {
    ($($t:ty),*) => { $(impl HeapSize for $t { fn heap_bytes(&self) -> usize { 0 } })* };
}
owns_nothing!(u8, u16, u32, u64, usize, i32, i64, bool, crate::Span);

/// Bytes of a vector's buffer alone, for vectors of plain values.
pub fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

/// Bytes of a hash map's table: keys, values and one control byte per bucket (hashbrown's
/// layout; `capacity` is the usable size, buckets are the next power of two of 8/7 of it).
pub fn map_table_bytes<K, V>(capacity: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = (capacity * 8 / 7).next_power_of_two();
    buckets * (std::mem::size_of::<(K, V)>() + 1)
}

/// Heap bytes of files' facts, per kind of fact (each list's buffer and what its items own).
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct FactsMemory {
    /// The `FileFacts` records and their packages.
    pub files: usize,
    /// Declarations.
    pub symbols: usize,
    /// References (calls, uses, …) with their names and receivers.
    pub refs: usize,
    /// Local bindings (types of variables).
    pub bindings: usize,
    /// Import statements.
    pub imports: usize,
}

impl FactsMemory {
    /// Adds one file's facts (held behind an `Arc`: its counts and record included).
    pub fn add(&mut self, f: &FileFacts) {
        self.files += 16 + std::mem::size_of::<FileFacts>() + f.package.heap_bytes();
        self.symbols += f.symbols.heap_bytes();
        self.refs += f.refs.heap_bytes();
        self.bindings += f.bindings.heap_bytes();
        self.imports += f.imports.heap_bytes();
    }

    /// Every kind.
    pub fn total(&self) -> usize {
        self.files + self.symbols + self.refs + self.bindings + self.imports
    }
}

impl HeapSize for FileFacts {
    fn heap_bytes(&self) -> usize {
        self.package.heap_bytes()
            + self.symbols.heap_bytes()
            + self.imports.heap_bytes()
            + self.refs.heap_bytes()
            + self.bindings.heap_bytes()
    }
}

impl HeapSize for SymbolFact {
    fn heap_bytes(&self) -> usize {
        self.name.heap_bytes()
            + self.signature.heap_bytes()
            + self.doc.heap_bytes()
            + self.doc_text.heap_bytes()
            + self.type_name.heap_bytes()
            + self.return_type.heap_bytes()
            + self.decorators.heap_bytes()
    }
}

impl HeapSize for ImportFact {
    fn heap_bytes(&self) -> usize {
        self.module.heap_bytes() + self.name.heap_bytes() + self.local.heap_bytes()
    }
}

impl HeapSize for Receiver {
    fn heap_bytes(&self) -> usize {
        match self {
            Receiver::Name(s) | Receiver::SelfField(s) | Receiver::Call(s) => s.heap_bytes(),
            Receiver::Path(parts) => parts.heap_bytes(),
            Receiver::Chain(inner, s) => inner.heap_bytes() + s.heap_bytes(),
            Receiver::None | Receiver::SelfRef | Receiver::Super | Receiver::Expr => 0,
        }
    }
}

impl HeapSize for RefFact {
    fn heap_bytes(&self) -> usize {
        self.name.heap_bytes() + self.receiver.heap_bytes()
    }
}

impl HeapSize for BindingFact {
    fn heap_bytes(&self) -> usize {
        self.name.heap_bytes()
            + match &self.value {
                BindingValue::Type { name } => name.heap_bytes(),
                BindingValue::Call { receiver, name } => receiver.heap_bytes() + name.heap_bytes(),
                BindingValue::Callback { receiver, callee, .. } => receiver.heap_bytes() + callee.heap_bytes(),
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NodeKind, Span};

    #[test]
    fn facts_count_their_strings_and_buffers() {
        let mut facts = FileFacts::default();
        assert_eq!(facts.heap_bytes(), 0);
        facts
            .symbols
            .push(SymbolFact::new("name", NodeKind::Function, Span::default()));
        let one = facts.heap_bytes();
        assert!(one >= std::mem::size_of::<SymbolFact>() + 4, "{one}");
        facts.symbols[0].doc = Some("x".repeat(100));
        assert!(facts.heap_bytes() >= one + 100);
    }

    #[test]
    fn map_tables_grow_by_powers_of_two() {
        assert_eq!(map_table_bytes::<u32, u32>(0), 0);
        assert_eq!(map_table_bytes::<u32, u32>(7), 8 * 9);
        assert_eq!(map_table_bytes::<u32, u32>(100), 128 * 9);
    }
}
