//! `Sidecar`: the user-data store (`gortex-store`) for TypeScript. One method, `call(op, args)`,
//! with JSON in and out, so the store's typed API is described once (in Rust) and crossed once
//! per operation. Errors are `"<code>: <message>"` (`invalid_argument`, `not_found`) or the
//! store's own sentence.

use gortex_store::{FeedbackInput, MemoryInput, MemoryListQuery, MemoryPatch, MemoryQuery, SavingsEntry, StoreError};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::path::Path;

/// An open sidecar database (created and migrated by the constructor).
#[napi]
pub struct Sidecar {
    inner: gortex_store::Sidecar,
}

fn store_error(e: StoreError) -> Error {
    crate::to_napi_error(e)
}

fn parse<T: DeserializeOwned>(op: &str, args: &Value) -> Result<T> {
    serde_json::from_value(args.clone()).map_err(|e| crate::to_napi_error(format!("invalid_argument: {op}: {e}")))
}

fn field<T: DeserializeOwned>(op: &str, args: &Value, name: &str) -> Result<T> {
    serde_json::from_value(args.get(name).cloned().unwrap_or(Value::Null))
        .map_err(|e| crate::to_napi_error(format!("invalid_argument: {op}.{name}: {e}")))
}

fn out(value: impl serde::Serialize) -> Result<String> {
    serde_json::to_string(&value).map_err(crate::to_napi_error)
}

#[napi]
impl Sidecar {
    /// Opens (creating and migrating) the database at `path`.
    #[napi(constructor)]
    pub fn new(path: String) -> Result<Self> {
        crate::guarded("Sidecar", || {
            gortex_store::Sidecar::open(Path::new(&path))
                .map(|inner| Sidecar { inner })
                .map_err(store_error)
        })
    }

    /// Runs one operation; `args` and the answer are JSON.
    #[napi]
    pub fn call(&self, op: String, args: String) -> Result<String> {
        crate::guarded("Sidecar.call", || {
            let args: Value = serde_json::from_str(&args)
                .map_err(|e| crate::to_napi_error(format!("invalid_argument: {op}: {e}")))?;
            let s = &self.inner;
            match op.as_str() {
                "memory_add" => out(s.memory_add(&parse::<MemoryInput>(&op, &args)?).map_err(store_error)?),
                "memory_get" => out(s
                    .memory_get(&field::<Vec<i64>>(&op, &args, "ids")?)
                    .map_err(store_error)?),
                "memory_update" => out(s
                    .memory_update(&parse::<MemoryPatch>(&op, &args)?)
                    .map_err(store_error)?),
                "memory_delete" => out(s
                    .memory_delete(&field::<Vec<i64>>(&op, &args, "ids")?)
                    .map_err(store_error)?),
                "memory_search" => out(s
                    .memory_search(&parse::<MemoryQuery>(&op, &args)?)
                    .map_err(store_error)?),
                "memory_list" => {
                    let (memories, total) = s
                        .memory_list(&parse::<MemoryListQuery>(&op, &args)?)
                        .map_err(store_error)?;
                    out(json!({ "memories": memories, "total": total }))
                }
                "anchors_update" => out(s
                    .anchors_update(&field::<Vec<gortex_store::AnchorUpdate>>(&op, &args, "updates")?)
                    .map_err(store_error)?),
                "anchors_retarget" => {
                    let (repo, from, to): (String, String, String) = (
                        field(&op, &args, "repo")?,
                        field(&op, &args, "from")?,
                        field(&op, &args, "to")?,
                    );
                    let name: Option<String> = field(&op, &args, "name")?;
                    out(s
                        .anchors_retarget(&repo, &from, &to, name.as_deref())
                        .map_err(store_error)?)
                }
                "memory_mark_accessed" => out(s
                    .memory_mark_accessed(&field::<Vec<i64>>(&op, &args, "ids")?)
                    .map_err(store_error)?),
                "feedback_add" => out(s
                    .feedback_add(&parse::<FeedbackInput>(&op, &args)?)
                    .map_err(store_error)?),
                "feedback_add_many" => out(s
                    .feedback_add_many(&field::<Vec<FeedbackInput>>(&op, &args, "inputs")?)
                    .map_err(store_error)?),
                "feedback_tallies" => out(s
                    .feedback_tallies(
                        &field::<String>(&op, &args, "repo")?,
                        &field::<Vec<String>>(&op, &args, "ids")?,
                    )
                    .map_err(store_error)?),
                "feedback_report" => {
                    let repo: Option<String> = field(&op, &args, "repo")?;
                    let since: Option<i64> = field(&op, &args, "since_ms")?;
                    let top: Option<usize> = field(&op, &args, "top_n")?;
                    out(s
                        .feedback_report(repo.as_deref(), since.unwrap_or(0), top.unwrap_or(10))
                        .map_err(store_error)?)
                }
                "feedback_count" => out(s
                    .feedback_count(&field::<String>(&op, &args, "repo")?)
                    .map_err(store_error)?),
                "savings_add" => out(s
                    .savings_add(&field::<Vec<SavingsEntry>>(&op, &args, "entries")?)
                    .map_err(store_error)?),
                "savings_report" => out(s
                    .savings_report(field::<Option<String>>(&op, &args, "since_day")?.as_deref())
                    .map_err(store_error)?),
                "savings_reset" => out(s.savings_reset().map_err(store_error)?),
                "schema_version" => out(s.schema_version().map_err(store_error)?),
                "integrity_check" => out(s.integrity_check().map_err(store_error)?),
                _ => Err(crate::to_napi_error(format!(
                    "invalid_argument: unknown sidecar operation `{op}`"
                ))),
            }
        })
    }

    /// Where the database lives.
    #[napi(getter)]
    pub fn path(&self) -> String {
        self.inner.path().display().to_string()
    }
}
