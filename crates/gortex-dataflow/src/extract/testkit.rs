//! Builders for expected facts in the extractors' tests.

use crate::facts::{Assign, Call, Return, Value};

/// `Value::Var(s)`.
pub(crate) fn v(s: &str) -> Value {
    Value::Var(s.to_string())
}

/// `Value::Call(i)`.
pub(crate) fn c(i: u32) -> Value {
    Value::Call(i)
}

/// An assignment.
pub(crate) fn assign(target: &str, sources: Vec<Value>, line: u32) -> Assign {
    Assign {
        target: target.to_string(),
        sources,
        line,
    }
}

/// Short for [`assign`].
pub(crate) fn a(target: &str, sources: Vec<Value>, line: u32) -> Assign {
    assign(target, sources, line)
}

/// A call site.
pub(crate) fn call(callee: &str, receiver: Vec<Value>, args: Vec<Vec<Value>>, line: u32) -> Call {
    Call {
        callee: callee.to_string(),
        receiver,
        args,
        line,
    }
}

/// A return.
pub(crate) fn ret(sources: Vec<Value>, line: u32) -> Return {
    Return { sources, line }
}

/// Owned strings.
pub(crate) fn strs(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|x| x.to_string()).collect()
}
