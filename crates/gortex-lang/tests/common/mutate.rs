//! Mutations of source bytes for the fuzz-style property tests (`gortex-lang`'s extractors,
//! `gortex-index`'s resolver): the shapes that broke or slowed extractors before, chosen at random.

#![allow(dead_code)]

use proptest::prelude::*;

/// Openers that nest: brackets, and each engine's block and declaration forms.
pub const NESTING: &[&str] = &[
    "(",
    "[",
    "{",
    "<a>",
    "f(",
    "function f(a) {\n",
    "def f(a):\n ",
    "def f\n",
    "class A {\n",
    "if (x) {\n",
    "fn f() {\n",
    "func f() {\n",
    "begin\n",
    "do\n",
    "# ",
    "/*",
    "\"",
    "`${",
];

/// One change to the bytes; positions are fractions of the current length.
#[derive(Debug, Clone)]
pub enum Mutation {
    Truncate(f64),
    FlipByte(f64, u8),
    InsertNesting(f64, usize, usize),
    InsertBytes(f64, Vec<u8>),
    RepeatSlice(f64, usize, usize),
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0.0..1.0f64;
    prop_oneof![
        at.clone().prop_map(Mutation::Truncate),
        (at.clone(), 1..=255u8).prop_map(|(a, m)| Mutation::FlipByte(a, m)),
        (at.clone(), 0..NESTING.len(), 1..5_000usize).prop_map(|(a, i, n)| Mutation::InsertNesting(a, i, n)),
        (
            at.clone(),
            prop::collection::vec(
                prop_oneof![Just(0u8), Just(0xff), Just(0xc3), Just(0xe2), any::<u8>()],
                1..64
            )
        )
            .prop_map(|(a, b)| Mutation::InsertBytes(a, b)),
        (at, 1..400usize, 2..50usize).prop_map(|(a, len, times)| Mutation::RepeatSlice(a, len, times)),
    ]
}

pub fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let pos = |f: f64, len: usize| ((len as f64) * f) as usize;
    match m {
        Mutation::Truncate(f) => bytes.truncate(pos(*f, bytes.len())),
        Mutation::FlipByte(f, mask) => {
            if !bytes.is_empty() {
                let i = pos(*f, bytes.len()).min(bytes.len() - 1);
                bytes[i] ^= mask;
            }
        }
        Mutation::InsertNesting(f, i, n) => {
            let at = pos(*f, bytes.len());
            let nest = NESTING[*i].repeat(*n);
            bytes.splice(at..at, nest.into_bytes());
        }
        Mutation::InsertBytes(f, b) => {
            let at = pos(*f, bytes.len());
            bytes.splice(at..at, b.iter().copied());
        }
        Mutation::RepeatSlice(f, len, times) => {
            let at = pos(*f, bytes.len());
            let end = (at + len).min(bytes.len());
            let slice = bytes[at..end].repeat(*times);
            bytes.splice(end..end, slice);
        }
    }
}
