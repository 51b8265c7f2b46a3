//! C/C++ `#include`: the header found, the sources that implement it, and the files a C/C++
//! file sees through its includes.

use super::nearest;
use crate::config::{dir_of, join_path};
use crate::resolve::tables::{basename, Tables};
use crate::resolve::Entity;
use rustc_hash::FxHashSet;

/// At most this many files are made visible to one C/C++ file through its includes.
const MAX_C_VISIBLE: usize = 512;

/// Header file extensions: an include of one also sees the sources that implement it.
const C_HEADER_EXTS: [&str; 6] = ["h", "hpp", "hh", "hxx", "h++", "inl"];
/// Source file extensions probed for a header's implementation.
const C_SOURCE_EXTS: [&str; 5] = ["c", "cc", "cpp", "cxx", "c++"];

impl Tables<'_> {
    /// `#include "a/b.h"` (`<a/b.h>` when written with angle brackets): the includer's directory
    /// (quoted form only), then `compile_commands.json` include paths, then the repository root,
    /// then the one file whose path ends in `/a/b.h` (nearest to the includer when several do).
    /// The header comes with the sources that implement it. Not found → external.
    pub(super) fn resolve_include(&self, fi: u32, spec: &str) -> Entity {
        let (system, spec) = match spec.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
            Some(inner) => (true, inner.trim()),
            None => (false, spec.trim()),
        };
        let from = &self.files[fi as usize].path;
        let mut probes: Vec<String> = Vec::new();
        if !system {
            probes.extend(join_path(dir_of(from), spec));
        }
        for dir in &self.config.c_include_dirs {
            probes.extend(join_path(dir, spec));
        }
        probes.extend(join_path("", spec));
        let found = probes
            .iter()
            .find_map(|p| self.path_lookup(p))
            .or_else(|| self.unique_suffix(from, spec));
        match found {
            Some(header) => {
                let mut files = vec![header];
                files.extend(self.c_implementations(header));
                Entity::Files(files)
            }
            None => Entity::External(spec.to_string()),
        }
    }

    /// The sources implementing a header: same stem, same directory first, else the nearest one.
    fn c_implementations(&self, header: u32) -> Option<u32> {
        let path: &str = &self.files[header as usize].path;
        let name = basename(path);
        let (stem, ext) = name.rsplit_once('.')?;
        if !C_HEADER_EXTS.contains(&ext) {
            return None;
        }
        let mut candidates: Vec<u32> = Vec::new();
        for src_ext in C_SOURCE_EXTS {
            candidates.extend(self.include_named(&format!("{stem}.{src_ext}")));
        }
        nearest(path, &candidates, |f| &self.files[f as usize].path)
    }

    /// Breadth-first over includes: direct headers (and their sources) first, then what those
    /// headers include. Sources are visible but their own includes are not.
    pub(in crate::resolve) fn c_include_closure(&self, fi: u32) -> Vec<u32> {
        let mut seen: FxHashSet<u32> = FxHashSet::default();
        seen.insert(fi);
        let mut out = Vec::new();
        let mut queue = std::collections::VecDeque::from([fi]);
        while let Some(f) = queue.pop_front() {
            for target in self.import_targets[f as usize].iter().flatten() {
                let Entity::Files(files) = target else { continue };
                for (i, &g) in files.iter().enumerate() {
                    if out.len() >= MAX_C_VISIBLE {
                        return out;
                    }
                    if seen.insert(g) {
                        out.push(g);
                        if i == 0 {
                            queue.push_back(g);
                        }
                    }
                }
            }
        }
        out
    }
}
