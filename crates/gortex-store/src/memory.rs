//! Memories and notes: text an agent or a user wants back in a later session, with anchors — the
//! symbols and files it is about. An anchor keeps the id it was first given (`original`) and the
//! one it points at now (`target`): when code moves, the caller re-points it (`moved`) or, when
//! nothing carries it on, marks it `missing`. Rows are never dropped for a missing anchor.

use crate::{now_ms, Context, Sidecar, StoreError, StoreResult};
use rusqlite::{params, params_from_iter, Row};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The kinds of memory: free memories, decisions and invariants (what must stay true), risk
/// acknowledgements (a risk accepted on purpose, with why), and notes (a session's jottings).
pub const MEMORY_KINDS: &[&str] = &["memory", "decision", "invariant", "risk_ack", "note"];

/// Anchor statuses.
const ANCHOR_STATUSES: &[&str] = &["ok", "moved", "missing"];

/// A new memory.
#[derive(Debug, Clone, Deserialize)]
pub struct MemoryInput {
    pub kind: String,
    /// Repository name it belongs to (`""`: every repository).
    pub repo: String,
    #[serde(default)]
    pub title: Option<String>,
    pub body: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub session: Option<String>,
    #[serde(default)]
    pub anchors: Vec<AnchorInput>,
}

/// What a memory is about: a graph symbol or file id.
#[derive(Debug, Clone, Deserialize)]
pub struct AnchorInput {
    /// `symbol` or `file`.
    pub kind: String,
    pub target: String,
    /// The symbol's name (what a rename search looks for).
    #[serde(default)]
    pub name: Option<String>,
    /// A fingerprint of the symbol's body with its own name left out (what follows a rename).
    #[serde(default)]
    pub fingerprint: Option<String>,
}

/// A stored anchor.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Anchor {
    pub ord: i64,
    pub kind: String,
    /// What it points at now.
    pub target: String,
    /// What it was first anchored to.
    pub original: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// `ok`, `moved` (re-pointed after the code moved) or `missing` (nothing carries it on).
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked_at: Option<i64>,
}

/// A stored memory with its anchors.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Memory {
    pub id: i64,
    pub kind: String,
    pub repo: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub body: String,
    pub tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accessed_at: Option<i64>,
    pub access_count: i64,
    pub anchors: Vec<Anchor>,
}

/// Changes to a memory; absent fields stay. `anchors` replaces them all.
#[derive(Debug, Clone, Deserialize)]
pub struct MemoryPatch {
    pub id: i64,
    #[serde(default)]
    pub kind: Option<String>,
    /// `""` clears the title.
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub tags: Option<Vec<String>>,
    #[serde(default)]
    pub anchors: Option<Vec<AnchorInput>>,
}

/// An anchor re-pointed or re-checked.
#[derive(Debug, Clone, Deserialize)]
pub struct AnchorUpdate {
    pub memory_id: i64,
    pub ord: i64,
    pub target: String,
    pub status: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub fingerprint: Option<String>,
}

/// Candidates for a recall: memories whose text matches `text`, or anchored to one of `targets`
/// or inside one of `files`; with neither, the most recently updated.
#[derive(Debug, Clone, Deserialize)]
pub struct MemoryQuery {
    pub repo: String,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub kinds: Vec<String>,
    #[serde(default)]
    pub targets: Vec<String>,
    #[serde(default)]
    pub files: Vec<String>,
    /// Also memories of other repositories.
    #[serde(default)]
    pub all_repos: bool,
    pub limit: usize,
}

/// A candidate and how well its text matched (BM25, higher is better; absent without a text match).
#[derive(Debug, Clone, Serialize)]
pub struct MemoryHit {
    pub memory: Memory,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_score: Option<f64>,
}

/// A listing: newest first.
#[derive(Debug, Clone, Deserialize)]
pub struct MemoryListQuery {
    /// Only this repository's (and global) memories; absent: every repository's.
    #[serde(default)]
    pub repo: Option<String>,
    #[serde(default)]
    pub kinds: Vec<String>,
    #[serde(default)]
    pub session: Option<String>,
    pub limit: usize,
    #[serde(default)]
    pub offset: usize,
}

fn check_kind(kind: &str) -> StoreResult<()> {
    if MEMORY_KINDS.contains(&kind) {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "kind `{kind}` is not one of {}",
            MEMORY_KINDS.join(", ")
        )))
    }
}

fn check_anchor(a: &AnchorInput) -> StoreResult<()> {
    if a.kind != "symbol" && a.kind != "file" {
        return Err(StoreError::Invalid(format!(
            "anchor kind `{}` is not symbol or file",
            a.kind
        )));
    }
    if a.target.trim().is_empty() {
        return Err(StoreError::Invalid("an anchor needs a target id".into()));
    }
    Ok(())
}

/// Tags stored space-joined (searchable by FTS), each trimmed, lower-cased, deduplicated.
fn join_tags(tags: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    for t in tags {
        let t = t.trim().to_lowercase().replace(char::is_whitespace, "-");
        if !t.is_empty() && !out.contains(&t) {
            out.push(t);
        }
    }
    out.join(" ")
}

/// The words of `text` as an FTS5 query: each a quoted prefix term, any of them matching.
fn fts_query(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .take(32)
        .map(|w| format!("\"{}\"*", w.to_lowercase()))
        .collect();
    (!words.is_empty()).then(|| words.join(" OR "))
}

const MEMORY_COLUMNS: &str =
    "id, kind, repo, title, body, tags, session, created_at, updated_at, accessed_at, access_count";

fn memory_row(r: &Row<'_>) -> rusqlite::Result<Memory> {
    let tags: String = r.get(5)?;
    Ok(Memory {
        id: r.get(0)?,
        kind: r.get(1)?,
        repo: r.get(2)?,
        title: r.get(3)?,
        body: r.get(4)?,
        tags: tags.split_whitespace().map(str::to_string).collect(),
        session: r.get(6)?,
        created_at: r.get(7)?,
        updated_at: r.get(8)?,
        accessed_at: r.get(9)?,
        access_count: r.get(10)?,
        anchors: Vec::new(),
    })
}

fn insert_anchors(tx: &rusqlite::Transaction<'_>, id: i64, anchors: &[AnchorInput]) -> StoreResult<()> {
    let now = now_ms();
    let mut stmt = tx
        .prepare_cached("INSERT INTO anchors(memory_id, ord, kind, target, original, name, fingerprint, status, checked_at) VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, 'ok', ?7)")
        .ctx("anchors")?;
    for (ord, a) in anchors.iter().enumerate() {
        stmt.execute(params![id, ord as i64, a.kind, a.target, a.name, a.fingerprint, now])
            .ctx("anchors")?;
    }
    Ok(())
}

impl Sidecar {
    /// Stores a memory; returns it as stored.
    pub fn memory_add(&self, input: &MemoryInput) -> StoreResult<Memory> {
        check_kind(&input.kind)?;
        if input.body.trim().is_empty() {
            return Err(StoreError::Invalid("a memory needs text (body)".into()));
        }
        input.anchors.iter().try_for_each(check_anchor)?;
        let id = self.write("store memory", |tx| {
            let now = now_ms();
            tx.execute(
                "INSERT INTO memories(kind, repo, title, body, tags, session, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
                params![input.kind, input.repo, input.title.as_deref().filter(|t| !t.trim().is_empty()), input.body, join_tags(&input.tags), input.session, now],
            )
            .ctx("store memory")?;
            let id = tx.last_insert_rowid();
            insert_anchors(tx, id, &input.anchors)?;
            Ok(id)
        })?;
        self.memory_get(&[id])?
            .pop()
            .ok_or_else(|| StoreError::NotFound(format!("memory {id}")))
    }

    /// The memories with these ids that exist, in the order asked.
    pub fn memory_get(&self, ids: &[i64]) -> StoreResult<Vec<Memory>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let conn = self.lock();
        let marks = vec!["?"; ids.len()].join(",");
        let mut found: HashMap<i64, Memory> = conn
            .prepare(&format!("SELECT {MEMORY_COLUMNS} FROM memories WHERE id IN ({marks})"))
            .and_then(|mut s| {
                s.query_map(params_from_iter(ids.iter()), memory_row)?
                    .map(|m| m.map(|m| (m.id, m)))
                    .collect()
            })
            .ctx("read memories")?;
        attach_anchors(&conn, &mut found)?;
        Ok(ids.iter().filter_map(|id| found.remove(id)).collect())
    }

    /// Applies a patch; returns the memory after it.
    pub fn memory_update(&self, patch: &MemoryPatch) -> StoreResult<Memory> {
        if let Some(kind) = &patch.kind {
            check_kind(kind)?;
        }
        if patch.body.as_deref().is_some_and(|b| b.trim().is_empty()) {
            return Err(StoreError::Invalid(
                "body cannot be empty (forget the memory instead)".into(),
            ));
        }
        if let Some(anchors) = &patch.anchors {
            anchors.iter().try_for_each(check_anchor)?;
        }
        self.write("edit memory", |tx| {
            let exists: i64 = tx
                .query_row("SELECT count(*) FROM memories WHERE id = ?1", [patch.id], |r| r.get(0))
                .ctx("edit memory")?;
            if exists == 0 {
                return Err(StoreError::NotFound(format!("no memory with id {}", patch.id)));
            }
            let now = now_ms();
            if let Some(kind) = &patch.kind {
                tx.execute(
                    "UPDATE memories SET kind = ?2, updated_at = ?3 WHERE id = ?1",
                    params![patch.id, kind, now],
                )
                .ctx("edit memory")?;
            }
            if let Some(title) = &patch.title {
                let title = Some(title.as_str()).filter(|t| !t.trim().is_empty());
                tx.execute(
                    "UPDATE memories SET title = ?2, updated_at = ?3 WHERE id = ?1",
                    params![patch.id, title, now],
                )
                .ctx("edit memory")?;
            }
            if let Some(body) = &patch.body {
                tx.execute(
                    "UPDATE memories SET body = ?2, updated_at = ?3 WHERE id = ?1",
                    params![patch.id, body, now],
                )
                .ctx("edit memory")?;
            }
            if let Some(tags) = &patch.tags {
                tx.execute(
                    "UPDATE memories SET tags = ?2, updated_at = ?3 WHERE id = ?1",
                    params![patch.id, join_tags(tags), now],
                )
                .ctx("edit memory")?;
            }
            if let Some(anchors) = &patch.anchors {
                tx.execute("DELETE FROM anchors WHERE memory_id = ?1", [patch.id])
                    .ctx("edit memory")?;
                insert_anchors(tx, patch.id, anchors)?;
                tx.execute(
                    "UPDATE memories SET updated_at = ?2 WHERE id = ?1",
                    params![patch.id, now],
                )
                .ctx("edit memory")?;
            }
            Ok(())
        })?;
        self.memory_get(&[patch.id])?
            .pop()
            .ok_or_else(|| StoreError::NotFound(format!("memory {}", patch.id)))
    }

    /// Deletes memories (and their anchors); returns the ids that existed.
    pub fn memory_delete(&self, ids: &[i64]) -> StoreResult<Vec<i64>> {
        self.write("forget memory", |tx| {
            let mut gone = Vec::new();
            for id in ids {
                if tx
                    .execute("DELETE FROM memories WHERE id = ?1", [id])
                    .ctx("forget memory")?
                    > 0
                {
                    gone.push(*id);
                }
            }
            Ok(gone)
        })
    }

    /// Recall candidates (see [`MemoryQuery`]), at most `limit` per source, text matches first.
    pub fn memory_search(&self, q: &MemoryQuery) -> StoreResult<Vec<MemoryHit>> {
        q.kinds.iter().try_for_each(|k| check_kind(k))?;
        let conn = self.lock();
        let limit = q.limit.clamp(1, 5000) as i64;
        let mut scores: HashMap<i64, Option<f64>> = HashMap::new();
        let mut order: Vec<i64> = Vec::new();
        let mut note = |id: i64, score: Option<f64>, order: &mut Vec<i64>| {
            let slot = scores.entry(id).or_insert_with(|| {
                order.push(id);
                None
            });
            if score.is_some() {
                *slot = score;
            }
        };
        let scope = if q.all_repos {
            "1"
        } else {
            "(m.repo = ?1 OR m.repo = '')"
        };
        let kinds = if q.kinds.is_empty() {
            String::new()
        } else {
            format!(
                " AND m.kind IN ({})",
                q.kinds.iter().map(|k| format!("'{k}'")).collect::<Vec<_>>().join(",")
            )
        };
        if let Some(fts) = q.text.as_deref().and_then(fts_query) {
            let sql = format!(
                "SELECT m.id, bm25(memories_fts, 3.0, 1.0, 2.0) FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid \
                 WHERE memories_fts MATCH ?2 AND {scope}{kinds} ORDER BY bm25(memories_fts, 3.0, 1.0, 2.0) LIMIT ?3"
            );
            let rows: Vec<(i64, f64)> = conn
                .prepare(&sql)
                .and_then(|mut s| {
                    s.query_map(params![q.repo, fts, limit], |r| Ok((r.get(0)?, r.get(1)?)))?
                        .collect()
                })
                .ctx("search memories")?;
            // bm25() is lower-is-better and negative; flip it so higher is better.
            rows.into_iter().for_each(|(id, s)| note(id, Some(-s), &mut order));
        }
        if !q.targets.is_empty() || !q.files.is_empty() {
            // The ids travel as two JSON arrays (any number of them: a long OR chain would pass
            // SQLite's expression-depth limit); a file matches itself and the symbols inside it.
            let sql = format!(
                "SELECT DISTINCT m.id FROM anchors a JOIN memories m ON m.id = a.memory_id WHERE {scope}{kinds} AND ( \
                 a.target IN (SELECT value FROM json_each(?2)) \
                 OR EXISTS (SELECT 1 FROM json_each(?3) f WHERE a.target = f.value OR substr(a.target, 1, length(f.value) + 2) = f.value || '::') \
                 ) ORDER BY m.updated_at DESC LIMIT {limit}"
            );
            let targets = serde_json::to_string(&q.targets).unwrap_or_else(|_| "[]".into());
            let files = serde_json::to_string(&q.files).unwrap_or_else(|_| "[]".into());
            let ids: Vec<i64> = conn
                .prepare(&sql)
                .and_then(|mut s| s.query_map(params![q.repo, targets, files], |r| r.get(0))?.collect())
                .ctx("search anchors")?;
            ids.into_iter().for_each(|id| note(id, None, &mut order));
        }
        if q.text.as_deref().and_then(fts_query).is_none() && q.targets.is_empty() && q.files.is_empty() {
            let sql = format!("SELECT m.id FROM memories m WHERE {scope}{kinds} ORDER BY m.updated_at DESC LIMIT ?2");
            let ids: Vec<i64> = conn
                .prepare(&sql)
                .and_then(|mut s| s.query_map(params![q.repo, limit], |r| r.get(0))?.collect())
                .ctx("recent memories")?;
            ids.into_iter().for_each(|id| note(id, None, &mut order));
        }
        drop(conn);
        let memories = self.memory_get(&order)?;
        Ok(memories
            .into_iter()
            .map(|m| MemoryHit {
                text_score: scores.get(&m.id).copied().flatten(),
                memory: m,
            })
            .collect())
    }

    /// A page of memories, newest first, and how many match in all.
    pub fn memory_list(&self, q: &MemoryListQuery) -> StoreResult<(Vec<Memory>, i64)> {
        q.kinds.iter().try_for_each(|k| check_kind(k))?;
        let mut clauses: Vec<String> = Vec::new();
        let mut args: Vec<String> = Vec::new();
        if let Some(repo) = &q.repo {
            args.push(repo.clone());
            clauses.push(format!("(repo = ?{} OR repo = '')", args.len()));
        }
        if !q.kinds.is_empty() {
            let marks: Vec<String> = q
                .kinds
                .iter()
                .map(|k| {
                    args.push(k.clone());
                    format!("?{}", args.len())
                })
                .collect();
            clauses.push(format!("kind IN ({})", marks.join(",")));
        }
        if let Some(session) = &q.session {
            args.push(session.clone());
            clauses.push(format!("session = ?{}", args.len()));
        }
        let filter = if clauses.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", clauses.join(" AND "))
        };
        let conn = self.lock();
        let total: i64 = conn
            .query_row(
                &format!("SELECT count(*) FROM memories{filter}"),
                params_from_iter(args.iter()),
                |r| r.get(0),
            )
            .ctx("count memories")?;
        let ids: Vec<i64> = conn
            .prepare(&format!(
                "SELECT id FROM memories{filter} ORDER BY updated_at DESC, id DESC LIMIT {} OFFSET {}",
                q.limit.clamp(1, 10_000),
                q.offset
            ))
            .and_then(|mut s| s.query_map(params_from_iter(args.iter()), |r| r.get(0))?.collect())
            .ctx("list memories")?;
        drop(conn);
        Ok((self.memory_get(&ids)?, total))
    }

    /// Re-points or re-checks anchors; returns how many rows changed.
    pub fn anchors_update(&self, updates: &[AnchorUpdate]) -> StoreResult<usize> {
        for u in updates {
            if !ANCHOR_STATUSES.contains(&u.status.as_str()) {
                return Err(StoreError::Invalid(format!(
                    "anchor status `{}` is not one of {}",
                    u.status,
                    ANCHOR_STATUSES.join(", ")
                )));
            }
        }
        self.write("update anchors", |tx| {
            let now = now_ms();
            let mut n = 0;
            for u in updates {
                n += tx
                    .execute(
                        "UPDATE anchors SET target = ?3, status = ?4, name = coalesce(?5, name), fingerprint = coalesce(?6, fingerprint), checked_at = ?7 WHERE memory_id = ?1 AND ord = ?2",
                        params![u.memory_id, u.ord, u.target, u.status, u.name, u.fingerprint, now],
                    )
                    .ctx("update anchors")?;
            }
            Ok(n)
        })
    }

    /// Re-points every anchor of `repo`'s memories at `from` — the id itself, or anything inside it
    /// (`from::…`, so a moved file carries its symbols' anchors) — to `to`; returns how many moved.
    /// `name`, when given, becomes the anchors' new name (a rename).
    pub fn anchors_retarget(&self, repo: &str, from: &str, to: &str, name: Option<&str>) -> StoreResult<usize> {
        self.write("retarget anchors", |tx| {
            let now = now_ms();
            let exact = tx
                .execute(
                    "UPDATE anchors SET target = ?3, status = 'moved', name = coalesce(?4, name), checked_at = ?5 \
                     WHERE target = ?2 AND memory_id IN (SELECT id FROM memories WHERE repo = ?1 OR repo = '')",
                    params![repo, from, to, name, now],
                )
                .ctx("retarget anchors")?;
            let inner = tx
                .execute(
                    "UPDATE anchors SET target = ?3 || substr(target, length(?2) + 1), status = 'moved', checked_at = ?4 \
                     WHERE substr(target, 1, length(?2) + 2) = ?2 || '::' AND memory_id IN (SELECT id FROM memories WHERE repo = ?1 OR repo = '')",
                    params![repo, from, to, now],
                )
                .ctx("retarget anchors")?;
            Ok(exact + inner)
        })
    }

    /// Notes that memories were shown to an agent.
    pub fn memory_mark_accessed(&self, ids: &[i64]) -> StoreResult<()> {
        self.write("mark accessed", |tx| {
            let now = now_ms();
            for id in ids {
                tx.execute(
                    "UPDATE memories SET accessed_at = ?2, access_count = access_count + 1 WHERE id = ?1",
                    params![id, now],
                )
                .ctx("mark accessed")?;
            }
            Ok(())
        })
    }
}

fn attach_anchors(conn: &rusqlite::Connection, memories: &mut HashMap<i64, Memory>) -> StoreResult<()> {
    if memories.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = memories.keys().copied().collect();
    let marks = vec!["?"; ids.len()].join(",");
    let mut stmt = conn
        .prepare(&format!("SELECT memory_id, ord, kind, target, original, name, fingerprint, status, checked_at FROM anchors WHERE memory_id IN ({marks}) ORDER BY memory_id, ord"))
        .ctx("read anchors")?;
    let rows = stmt
        .query_map(params_from_iter(ids.iter()), |r| {
            Ok((
                r.get::<_, i64>(0)?,
                Anchor {
                    ord: r.get(1)?,
                    kind: r.get(2)?,
                    target: r.get(3)?,
                    original: r.get(4)?,
                    name: r.get(5)?,
                    fingerprint: r.get(6)?,
                    status: r.get(7)?,
                    checked_at: r.get(8)?,
                },
            ))
        })
        .ctx("read anchors")?;
    for row in rows {
        let (id, anchor) = row.ctx("read anchors")?;
        if let Some(m) = memories.get_mut(&id) {
            m.anchors.push(anchor);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::fts_query;

    #[test]
    fn fts_query_quotes_words_and_drops_operators() {
        assert_eq!(
            fts_query("auth AND \"token\" (refresh)").unwrap(),
            "\"auth\"* OR \"and\"* OR \"token\"* OR \"refresh\"*"
        );
        assert!(fts_query("  -- ** ").is_none());
    }
}
