//! What one file may cost: a time budget over parsing and extraction, and limits on the shape of
//! its syntax tree and of its declarations. A file past any of them is not extracted
//! ([`ExtractError::is_over_limit`]); the index records it as skipped with the reason.
//!
//! Why shape limits and not only time: cost that grows faster than the file is decided by its
//! shape, and a shape check is deterministic (the same file is skipped on a busy machine and an
//! idle one, so a clean index and an incremental one agree) and cheap (one cursor walk, before any
//! query runs). Measured on short files (`examples/extract_cost.rs`, `bench_index cold`):
//! - **Tree depth.** Per-node work that looks at ancestors is O(depth) (tree-sitter's
//!   `Node::parent`, a query cursor's walk over hidden ancestors); a tree nested 30,000 deep makes
//!   such work quadratic. [`MAX_TREE_DEPTH`] is far above code people write (the deepest trees in
//!   real code are long `else if` chains and `a + b + …` concatenations, a few hundred levels).
//! - **Runs of unnamed tokens.** A query cursor, on every node, scans the later siblings for a
//!   named one (`ts_tree_cursor_current_status`): a run of r unnamed tokens costs r²/2. Real code
//!   alternates names and punctuation; 300,000 unclosed `(` form one run (45 billion steps, hours).
//!   [`MAX_QUERY_SCAN`] bounds the sum over runs.
//! - **Declaration depth.** A symbol's id spells its owners (`f0.f1.….f9999`), and the resolver
//!   looks a bare call up through every enclosing scope: n nested functions cost O(n²) bytes and
//!   steps downstream (10,000 nested functions in 337 KB: 36 s and 3.2 GB to index).
//!   [`MAX_SYMBOL_DEPTH`] keeps both linear in the file.
//! - **Time.** The parse and every query run under one deadline (tree-sitter's progress callbacks
//!   cancel them): the backstop for costs no shape check foresees, above all tree-sitter's own
//!   error recovery, which some grammars make quadratic on broken input (66 KB of unclosed Python
//!   `def`s read as Bash: 7 s; the same at Haskell: 8 s; 12 KB of `/*` read as Zig: 13 s). The
//!   deadline grows with the file ([`time_budget`]), so small files cannot each spend the whole
//!   per-file budget. Only this limit depends on the machine's speed, so it is generous.

use crate::ExtractError;
use gortex_core::SymbolFact;
use std::cell::Cell;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};
use tree_sitter::{Node, Query, QueryCursor, QueryCursorOptions, QueryCursorState, QueryMatches, Tree};

/// Deepest syntax tree a file may have to be extracted (levels of named and unnamed nodes).
pub const MAX_TREE_DEPTH: usize = 4_096;

/// Most sibling-scan steps a query pass may take: the sum over runs of r consecutive unnamed
/// sibling tokens of r(r+1)/2: a run of 6,300 tokens (a few tenths of a second per query pass).
/// Real files stay far below: about one step per token, 900,000 for TypeScript's 9 MB
/// `typescript.js`, whose longest run is 3.
pub const MAX_QUERY_SCAN: u64 = 20_000_000;

/// Time every file gets, whatever its size ([`time_budget`]).
pub const BASE_TIME: Duration = Duration::from_secs(2);

/// Time a file gets per MiB on top of [`BASE_TIME`]: several times what dense code takes on a
/// loaded machine (1 to 3 s per MiB).
pub const TIME_PER_MIB: Duration = Duration::from_secs(8);

/// The time a file of `len` bytes may take to parse and extract: [`BASE_TIME`] plus
/// [`TIME_PER_MIB`] per MiB, at most `cap` (the caller's per-file budget).
pub fn time_budget(len: usize, cap: Duration) -> Duration {
    let scaled = TIME_PER_MIB.mul_f64(len as f64 / (1024.0 * 1024.0));
    (BASE_TIME + scaled).min(cap)
}

/// Deepest nesting of declarations inside declarations (functions in functions, classes in
/// functions…) a file may have to be extracted.
pub const MAX_SYMBOL_DEPTH: usize = 64;

/// What a syntax tree's shape says about its extraction cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TreeShape {
    /// Levels below the root (a lone root is 0), counted up to the first level past the limit.
    pub depth: usize,
    /// Longest run of unnamed sibling tokens seen.
    pub longest_run: usize,
    /// Sibling-scan steps a query pass takes (see [`MAX_QUERY_SCAN`]), counted up to the limit.
    pub scan: u64,
}

/// Measures `tree` in one cursor walk, stopping as soon as a limit is passed.
pub fn tree_shape(tree: &Tree) -> TreeShape {
    let mut shape = TreeShape::default();
    let mut cursor = tree.walk();
    // The run of unnamed siblings open at each level of the walk.
    let mut runs: Vec<usize> = vec![0];
    fn close_run(run: &mut usize, shape: &mut TreeShape) {
        let r = *run as u64;
        shape.scan = shape.scan.saturating_add(r * (r + 1) / 2);
        shape.longest_run = shape.longest_run.max(*run);
        *run = 0;
    }
    loop {
        let node = cursor.node();
        let level = runs.last_mut().expect("one run per open level");
        if node.is_named() {
            close_run(level, &mut shape);
        } else {
            *level += 1;
        }
        if shape.scan > MAX_QUERY_SCAN {
            return shape;
        }
        if cursor.goto_first_child() {
            runs.push(0);
            shape.depth = shape.depth.max(runs.len() - 1);
            if shape.depth > MAX_TREE_DEPTH {
                return shape;
            }
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            let mut run = runs.pop().expect("one run per open level");
            close_run(&mut run, &mut shape);
            if !cursor.goto_parent() {
                return shape;
            }
        }
    }
}

/// Refuses a tree whose shape would make extraction super-linear.
pub fn check_shape(tree: &Tree) -> Result<(), ExtractError> {
    let shape = tree_shape(tree);
    if shape.depth > MAX_TREE_DEPTH {
        return Err(ExtractError::TooDeep { limit: MAX_TREE_DEPTH });
    }
    if shape.scan > MAX_QUERY_SCAN {
        return Err(ExtractError::TooComplex {
            longest_run: shape.longest_run,
            limit: MAX_QUERY_SCAN,
        });
    }
    Ok(())
}

/// Refuses facts whose declarations nest deeper than [`MAX_SYMBOL_DEPTH`]. Parents precede their
/// children (any other parent is ignored, as the graph does), so one pass finds every depth.
pub fn check_symbol_depth(symbols: &[SymbolFact]) -> Result<(), ExtractError> {
    let mut depths = vec![0usize; symbols.len()];
    for (i, s) in symbols.iter().enumerate() {
        let depth = s
            .parent
            .map(|p| p as usize)
            .filter(|&p| p < i)
            .map_or(0, |p| depths[p] + 1);
        if depth > MAX_SYMBOL_DEPTH {
            return Err(ExtractError::SymbolsTooDeep {
                depth,
                limit: MAX_SYMBOL_DEPTH,
            });
        }
        depths[i] = depth;
    }
    Ok(())
}

thread_local! {
    // The deadline of the file this thread is extracting, and whether a query hit it.
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static EXPIRED: Cell<bool> = const { Cell::new(false) };
}

/// The current file's deadline on this thread, for as long as the guard lives.
pub(crate) struct DeadlineGuard {
    previous: Option<Instant>,
    previous_expired: bool,
}

impl DeadlineGuard {
    /// Starts the budget: queries run through [`matches`] stop once `budget` has passed.
    pub(crate) fn start(budget: Duration) -> DeadlineGuard {
        let deadline = Instant::now().checked_add(budget);
        DeadlineGuard {
            previous: DEADLINE.with(|d| d.replace(deadline)),
            previous_expired: EXPIRED.with(|e| e.replace(false)),
        }
    }

    /// Whether a query was stopped by the deadline.
    pub(crate) fn expired(&self) -> bool {
        EXPIRED.with(Cell::get)
    }

    /// The instant the budget ends (`None`: a budget too large to represent).
    pub(crate) fn deadline(&self) -> Option<Instant> {
        DEADLINE.with(Cell::get)
    }
}

impl Drop for DeadlineGuard {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(self.previous));
        EXPIRED.with(|e| e.set(self.previous_expired));
    }
}

/// Called by tree-sitter every hundred query steps: stops the query once the deadline passed.
fn query_progress(_: &QueryCursorState) -> ControlFlow<()> {
    match DEADLINE.with(Cell::get) {
        Some(deadline) if Instant::now() > deadline => {
            EXPIRED.with(|e| e.set(true));
            ControlFlow::Break(())
        }
        _ => ControlFlow::Continue(()),
    }
}

/// `cursor.matches(query, node, source)` under the current file's deadline: once it passes, the
/// iteration ends early and the file is refused as over budget (see `extract_file`). Every
/// extractor runs its queries through this.
pub fn matches<'query, 'tree, 'source>(
    cursor: &'query mut QueryCursor,
    query: &'query Query,
    node: Node<'tree>,
    source: &'source [u8],
) -> QueryMatches<'query, 'tree, &'source [u8], &'source [u8]> {
    // A function item is zero-sized: leaking its box allocates nothing and gives the `'static`
    // borrow the options need to outlive this call.
    let progress: &'static mut _ = Box::leak(Box::new(query_progress));
    cursor.matches_with_options(
        query,
        node,
        source,
        QueryCursorOptions::new().progress_callback(progress),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use gortex_core::{Language, NodeKind, Span};
    use streaming_iterator::StreamingIterator;

    #[test]
    fn the_time_budget_grows_with_the_file_up_to_the_cap() {
        let cap = Duration::from_secs(20);
        assert_eq!(time_budget(0, cap), BASE_TIME);
        assert_eq!(time_budget(1024 * 1024, cap), BASE_TIME + TIME_PER_MIB);
        assert_eq!(time_budget(4 * 1024 * 1024, cap), cap);
        assert_eq!(time_budget(10, Duration::ZERO), Duration::ZERO);
    }

    #[test]
    fn a_zero_sized_callback_leaks_nothing() {
        assert_eq!(std::mem::size_of_val(&query_progress), 0);
    }

    fn typescript(source: &str) -> (Tree, tree_sitter::Language) {
        let grammar = crate::extractor_for(Language::TypeScript)
            .expect("typescript")
            .grammar();
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&grammar).expect("grammar");
        (parser.parse(source, None).expect("tree"), grammar)
    }

    #[test]
    fn queries_stop_at_the_deadline_and_say_so() {
        let source = "f(a);\n".repeat(5_000);
        let (tree, grammar) = typescript(&source);
        let query = Query::new(&grammar, "(identifier) @id").expect("query");
        let count = |budget: Duration| {
            let guard = DeadlineGuard::start(budget);
            let mut cursor = QueryCursor::new();
            let mut found = 0;
            let mut it = matches(&mut cursor, &query, tree.root_node(), source.as_bytes());
            while it.next().is_some() {
                found += 1;
            }
            (found, guard.expired())
        };
        assert_eq!(count(Duration::from_secs(60)), (10_000, false));
        let (found, expired) = count(Duration::ZERO);
        assert!(expired && found < 10_000, "{found} matches, expired: {expired}");
        // The guard restores the state it found: no deadline outside an extraction.
        assert_eq!(DEADLINE.with(Cell::get), None);
        assert!(!EXPIRED.with(Cell::get));
    }

    #[test]
    fn shape_counts_depth_and_runs_of_unnamed_tokens() {
        let (tree, _) = typescript("const x = [[[1]]];\n");
        let shape = tree_shape(&tree);
        assert!(shape.depth >= 6 && shape.depth < 20, "{shape:?}");
        assert!(shape.longest_run <= 3, "{shape:?}");
        let (tree, _) = typescript(&"(".repeat(1_000));
        let shape = tree_shape(&tree);
        assert_eq!(shape.longest_run, 1_000, "{shape:?}");
        assert_eq!(shape.scan, 1_000 * 1_001 / 2, "{shape:?}");
        assert!(check_shape(&tree).is_ok());
        let (tree, _) = typescript(&"(".repeat(10_000));
        assert!(matches!(check_shape(&tree), Err(ExtractError::TooComplex { .. })));
        let (tree, _) = typescript(&format!("x = {}1{};", "[".repeat(5_000), "]".repeat(5_000)));
        assert!(matches!(
            check_shape(&tree),
            Err(ExtractError::TooDeep { limit: MAX_TREE_DEPTH })
        ));
    }

    #[test]
    fn declaration_depth_follows_parents_that_precede_their_children() {
        let chain = |n: usize| {
            (0..n)
                .map(|i| {
                    let mut s = SymbolFact::new(format!("f{i}"), NodeKind::Function, Span::default());
                    s.parent = i.checked_sub(1).map(|p| p as u32);
                    s
                })
                .collect::<Vec<_>>()
        };
        assert!(check_symbol_depth(&chain(MAX_SYMBOL_DEPTH + 1)).is_ok());
        assert!(matches!(
            check_symbol_depth(&chain(MAX_SYMBOL_DEPTH + 2)),
            Err(ExtractError::SymbolsTooDeep { depth, .. }) if depth == MAX_SYMBOL_DEPTH + 1
        ));
        // A parent that does not precede its child is no parent (as in the graph).
        let mut looped = chain(3);
        looped[0].parent = Some(2);
        assert!(check_symbol_depth(&looped).is_ok());
    }
}
