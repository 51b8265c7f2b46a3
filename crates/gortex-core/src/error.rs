//! The error every query answers with: a stable machine code plus a message that says what was
//! wrong and how to fix it.

use serde::Serialize;

/// A failed query. `code` is stable (`invalid_argument`, `not_found`, `ambiguous`, `unavailable`,
/// `internal`); `message` names the offending input and the fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QueryError {
    pub code: &'static str,
    pub message: String,
}

impl QueryError {
    /// Bad or missing argument: `QueryError::invalid("limit must be between 1 and 1000, got 0")`.
    pub fn invalid(message: impl Into<String>) -> QueryError {
        QueryError {
            code: "invalid_argument",
            message: message.into(),
        }
    }

    /// An id, path or name that does not exist in the graph.
    pub fn not_found(message: impl Into<String>) -> QueryError {
        QueryError {
            code: "not_found",
            message: message.into(),
        }
    }

    /// A name that matches several symbols where exactly one is needed.
    pub fn ambiguous(message: impl Into<String>) -> QueryError {
        QueryError {
            code: "ambiguous",
            message: message.into(),
        }
    }

    /// The data needed is not available (e.g. a file vanished from disk).
    pub fn unavailable(message: impl Into<String>) -> QueryError {
        QueryError {
            code: "unavailable",
            message: message.into(),
        }
    }
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for QueryError {}
