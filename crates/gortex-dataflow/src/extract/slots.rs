//! The slot-based fact builder shared by the ECMAScript and Python extractors: expression reads
//! are gathered into numbered slots while the tree is walked, calls are recorded with the byte
//! offset of their opening parenthesis, and [`finish_flow`] numbers the calls in that order and
//! turns slots into the [`Value`] lists of the facts.

use crate::facts::{Assign, Call, FnFlow, Return, Value};
use rustc_hash::FxHashSet;

pub(crate) struct PendingCall {
    pub(crate) callee: String,
    pub(crate) receiver: usize,
    pub(crate) args: Vec<usize>,
    pub(crate) line: u32,
    /// Byte offset of the opening parenthesis: calls are numbered in this order.
    pub(crate) order: usize,
}

pub(crate) struct FlowParts {
    pub(crate) slots: Vec<Vec<Value>>,
    pub(crate) assigns: Vec<(String, usize, u32)>,
    pub(crate) calls: Vec<PendingCall>,
    pub(crate) returns: Vec<(usize, u32)>,
}

/// Numbers calls by their opening parenthesis and materialises slots (first occurrence kept).
pub(crate) fn finish_flow(parts: FlowParts, name: String, line: u32, end_line: u32, params: Vec<String>) -> FnFlow {
    let FlowParts {
        slots,
        assigns,
        calls,
        returns,
    } = parts;
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
