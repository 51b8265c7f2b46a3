//! The slot-based walk shared by the ECMAScript and Python extractors: expression reads are
//! gathered into numbered slots while a task stack (no recursion) walks the function, calls are
//! recorded with the byte offset of their opening parenthesis, and [`Walk::finish`] numbers the
//! calls in that order and turns slots into the [`Value`] lists of the facts. Each extractor's
//! builder derefs to a [`Walk`] and supplies the per-language `visit`.

use crate::facts::{Assign, Call, FnFlow, Return, Value};
use rustc_hash::FxHashSet;
use tree_sitter::Node;

/// The slot whose reads are discarded.
pub(crate) const DROP: usize = 0;

/// Nested functions are flattened into the reported function down to this many levels; deeper
/// ones are left out of it (they still get their own flow when the graph has a node for them).
/// Flattening every level would make the output quadratic on pathologically nested files, since
/// each nested named function's facts also appear in all of its ancestors.
pub(crate) const MAX_FLATTEN: u32 = 32;

/// One step of the walk.
pub(crate) enum Task<'t> {
    /// Evaluate the node: what it reads goes into the slot; its assignments, calls and returns are
    /// recorded. The depth counts the nested functions around the node inside the reported one.
    Eval(Node<'t>, usize, u32),
    /// Append what the first slot read to the second (scheduled to run after the first is filled).
    Copy(usize, usize),
}

pub(crate) struct PendingCall {
    pub(crate) callee: String,
    pub(crate) receiver: usize,
    pub(crate) args: Vec<usize>,
    pub(crate) line: u32,
    /// Byte offset of the opening parenthesis: calls are numbered in this order.
    pub(crate) order: usize,
}

/// The state of one function's walk.
pub(crate) struct Walk<'t> {
    pub(crate) slots: Vec<Vec<Value>>,
    pub(crate) assigns: Vec<(String, usize, u32)>,
    pub(crate) calls: Vec<PendingCall>,
    pub(crate) returns: Vec<(usize, u32)>,
    pub(crate) stack: Vec<Task<'t>>,
    /// Nesting depth of the task being visited (see [`MAX_FLATTEN`]).
    pub(crate) depth: u32,
}

impl<'t> Walk<'t> {
    /// An empty walk (slot 0 is [`DROP`]).
    pub(crate) fn new() -> Walk<'t> {
        Walk {
            slots: vec![Vec::new()],
            assigns: Vec::new(),
            calls: Vec::new(),
            returns: Vec::new(),
            stack: Vec::new(),
            depth: 0,
        }
    }

    /// A fresh slot.
    pub(crate) fn slot(&mut self) -> usize {
        self.slots.push(Vec::new());
        self.slots.len() - 1
    }

    /// Records that `slot` reads `value` (nothing for [`DROP`]).
    pub(crate) fn put(&mut self, slot: usize, value: Value) {
        if slot != DROP {
            self.slots[slot].push(value);
        }
    }

    /// A task evaluating `node` into `slot` at the current depth.
    pub(crate) fn task(&self, node: Node<'t>, slot: usize) -> Task<'t> {
        Task::Eval(node, slot, self.depth)
    }

    /// Schedules `node` to be evaluated into `slot`.
    pub(crate) fn eval(&mut self, node: Node<'t>, slot: usize) {
        self.stack.push(self.task(node, slot));
    }

    /// The next node to visit and its slot (copy tasks on the way are applied, and the depth is
    /// set to the node's); `None` when the walk is done.
    pub(crate) fn next(&mut self) -> Option<(Node<'t>, usize)> {
        while let Some(task) = self.stack.pop() {
            match task {
                Task::Eval(node, slot, depth) => {
                    self.depth = depth;
                    return Some((node, slot));
                }
                Task::Copy(from, to) => {
                    if to != DROP && from != to {
                        let values = self.slots[from].clone();
                        self.slots[to].extend(values);
                    }
                }
            }
        }
        None
    }

    /// Numbers calls by their opening parenthesis and materialises slots (first occurrence kept).
    pub(crate) fn finish(self, name: String, line: u32, end_line: u32, params: Vec<String>) -> FnFlow {
        let Walk {
            slots,
            assigns,
            calls,
            returns,
            ..
        } = self;
        let mut order: Vec<usize> = (0..calls.len()).collect();
        order.sort_by_key(|&i| calls[i].order);
        let mut remap = vec![0u32; calls.len()];
        for (new, &old) in order.iter().enumerate() {
            remap[old] = new as u32;
        }
        let values = |slot: usize| -> Vec<Value> {
            let mut seen: FxHashSet<&Value> = FxHashSet::default();
            let mut out = Vec::new();
            for v in &slots[slot] {
                if seen.insert(v) {
                    out.push(match v {
                        Value::Call(i) => Value::Call(remap[*i as usize]),
                        v => v.clone(),
                    });
                }
            }
            out
        };
        let mut pending: Vec<Option<PendingCall>> = calls.into_iter().map(Some).collect();
        let calls = order
            .iter()
            .filter_map(|&i| pending[i].take())
            .map(|c| Call {
                callee: c.callee,
                receiver: values(c.receiver),
                args: c.args.iter().map(|&s| values(s)).collect(),
                line: c.line,
            })
            .collect();
        FnFlow {
            name,
            line,
            end_line,
            params,
            assigns: assigns
                .into_iter()
                .map(|(target, s, line)| Assign {
                    target,
                    sources: values(s),
                    line,
                })
                .collect(),
            calls,
            returns: returns
                .into_iter()
                .map(|(s, line)| Return {
                    sources: values(s),
                    line,
                })
                .collect(),
        }
    }
}
