//! The sidecar: the user data gortex keeps across sessions and processes — memories and notes with
//! their code anchors, agent feedback, the token-savings ledger — in one SQLite database under the
//! gortex home.
//!
//! Why SQLite through `rusqlite` (bundled) in the core rather than a Node binding: the addon is
//! already the one native artifact every install builds or downloads, so SQLite compiled into it
//! adds no install script, no prebuilt download and no second ABI to keep in step with Node; and
//! the same store is reachable from Rust tests. WAL mode lets the daemon, embedded MCP servers and
//! CLI processes read while one writes; `synchronous=NORMAL` keeps every committed transaction
//! across a killed process (only an OS crash or power loss can roll back the last commits).
//!
//! The schema is versioned by `PRAGMA user_version`: [`MIGRATIONS`] are applied in order, each in
//! its own immediate transaction, so an interrupted upgrade leaves the previous version whole.
//! Nothing is ever dropped to upgrade; a database written by a newer gortex is refused, untouched.

mod feedback;
mod memory;
mod savings;

pub use feedback::{FeedbackInput, FeedbackReport, FeedbackToolRow, SymbolTally};
pub use memory::{
    Anchor, AnchorInput, AnchorUpdate, Memory, MemoryHit, MemoryInput, MemoryListQuery, MemoryPatch, MemoryQuery,
    MEMORY_KINDS,
};
pub use savings::{SavingsEntry, SavingsReport, SavingsRow};

use rusqlite::{Connection, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// A store failure, with what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database was written by a newer gortex; it is left untouched.
    #[error("{path} has schema version {found}, newer than this gortex knows ({known}); upgrade gortex to use it (the file is left untouched)")]
    TooNew { path: String, found: i64, known: i64 },
    /// An argument the caller can fix.
    #[error("invalid_argument: {0}")]
    Invalid(String),
    /// A row that does not exist.
    #[error("not_found: {0}")]
    NotFound(String),
    /// SQLite itself (I/O, a damaged file, a lock held too long).
    #[error("{context}: {source}")]
    Sqlite { context: String, source: rusqlite::Error },
    /// The folder or file could not be created.
    #[error("{0}")]
    Io(String),
}

pub type StoreResult<T> = Result<T, StoreError>;

/// Attaches what was being done to a SQLite error.
pub(crate) trait Context<T> {
    fn ctx(self, what: &str) -> StoreResult<T>;
}

impl<T> Context<T> for rusqlite::Result<T> {
    fn ctx(self, what: &str) -> StoreResult<T> {
        self.map_err(|source| StoreError::Sqlite {
            context: what.to_string(),
            source,
        })
    }
}

/// The schema, one step per version (`user_version` = how many are applied). Append only: a
/// released step is never edited, so every database reaches the same shape by the same path.
pub const MIGRATIONS: &[&str] = &[
    // 1: memories and notes, their anchors, full-text search over them.
    r#"
    CREATE TABLE memories (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      repo TEXT NOT NULL,
      title TEXT,
      body TEXT NOT NULL,
      tags TEXT NOT NULL DEFAULT '',
      session TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      accessed_at INTEGER,
      access_count INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX memories_by_repo ON memories(repo, kind, updated_at);
    CREATE TABLE anchors (
      memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
      ord INTEGER NOT NULL,
      kind TEXT NOT NULL,
      target TEXT NOT NULL,
      original TEXT NOT NULL,
      name TEXT,
      fingerprint TEXT,
      status TEXT NOT NULL DEFAULT 'ok',
      checked_at INTEGER,
      PRIMARY KEY (memory_id, ord)
    );
    CREATE INDEX anchors_by_target ON anchors(target);
    CREATE VIRTUAL TABLE memories_fts USING fts5(
      title, body, tags, content='memories', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
      INSERT INTO memories_fts(rowid, title, body, tags) VALUES (new.id, new.title, new.body, new.tags);
    END;
    CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
      INSERT INTO memories_fts(memories_fts, rowid, title, body, tags) VALUES ('delete', old.id, old.title, old.body, old.tags);
    END;
    CREATE TRIGGER memories_au AFTER UPDATE OF title, body, tags ON memories BEGIN
      INSERT INTO memories_fts(memories_fts, rowid, title, body, tags) VALUES ('delete', old.id, old.title, old.body, old.tags);
      INSERT INTO memories_fts(rowid, title, body, tags) VALUES (new.id, new.title, new.body, new.tags);
    END;
    "#,
    // 2: agent feedback (one row per rated symbol, or per answer when no symbol is named) and the
    // token-savings ledger (one row per day, repository and tool, so it stays small forever).
    r#"
    CREATE TABLE feedback (
      id INTEGER PRIMARY KEY,
      repo TEXT NOT NULL,
      symbol_id TEXT,
      tool TEXT NOT NULL,
      rating TEXT NOT NULL,
      note TEXT,
      session TEXT,
      at INTEGER NOT NULL
    );
    CREATE INDEX feedback_by_symbol ON feedback(repo, symbol_id);
    CREATE TABLE savings (
      day TEXT NOT NULL,
      repo TEXT NOT NULL,
      tool TEXT NOT NULL,
      calls INTEGER NOT NULL,
      returned_tokens INTEGER NOT NULL,
      baseline_tokens INTEGER NOT NULL,
      PRIMARY KEY (day, repo, tool)
    );
    "#,
];

/// How long a writer waits for another process's transaction before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// One open sidecar database. Methods take `&self`; a mutex serialises this process's use of the
/// connection (SQLite serialises processes).
pub struct Sidecar {
    conn: Mutex<Connection>,
    path: PathBuf,
}

impl Sidecar {
    /// Opens (creating folder and file if needed) and brings the schema up to date.
    pub fn open(path: &Path) -> StoreResult<Sidecar> {
        Self::open_at_version(path, MIGRATIONS.len())
    }

    /// Opens and applies migrations only up to `version` (tests build older databases with it).
    pub fn open_at_version(path: &Path, version: usize) -> StoreResult<Sidecar> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| StoreError::Io(format!("cannot create {}: {e}", dir.display())))?;
        }
        let shown = path.display().to_string();
        let conn = Connection::open(path).ctx(&format!("cannot open {shown}"))?;
        conn.busy_timeout(BUSY_TIMEOUT).ctx("busy_timeout")?;
        enable_wal(&conn).ctx(&format!("cannot switch {shown} to WAL"))?;
        conn.pragma_update(None, "synchronous", "NORMAL").ctx("synchronous")?;
        conn.pragma_update(None, "foreign_keys", "ON").ctx("foreign_keys")?;
        let mut store = Sidecar {
            conn: Mutex::new(conn),
            path: path.to_path_buf(),
        };
        store.migrate(version.min(MIGRATIONS.len()))?;
        Ok(store)
    }

    /// Where the database lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version on disk.
    pub fn schema_version(&self) -> StoreResult<i64> {
        let conn = self.lock();
        conn.query_row("PRAGMA user_version", [], |r| r.get(0))
            .ctx("user_version")
    }

    /// `PRAGMA integrity_check`'s verdict (`"ok"` when the file is sound).
    pub fn integrity_check(&self) -> StoreResult<String> {
        let conn = self.lock();
        let rows: Vec<String> = conn
            .prepare("PRAGMA integrity_check")
            .and_then(|mut s| s.query_map([], |r| r.get::<_, String>(0))?.collect())
            .ctx("integrity_check")?;
        Ok(rows.join("; "))
    }

    /// Sets the schema version directly (tests simulate a file from a newer gortex with it).
    #[doc(hidden)]
    pub fn debug_set_user_version(&self, version: i64) -> StoreResult<()> {
        self.lock()
            .pragma_update(None, "user_version", version)
            .ctx("user_version")
    }

    fn migrate(&mut self, target: usize) -> StoreResult<()> {
        let conn = self.conn.get_mut().unwrap_or_else(|p| p.into_inner());
        loop {
            // Each step re-reads the version inside its own write transaction: two processes opening
            // an old file at once apply each step exactly once.
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .ctx("cannot start a migration")?;
            let current: i64 = tx
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .ctx("user_version")?;
            if current > MIGRATIONS.len() as i64 {
                return Err(StoreError::TooNew {
                    path: self.path.display().to_string(),
                    found: current,
                    known: MIGRATIONS.len() as i64,
                });
            }
            if current as usize >= target {
                return Ok(());
            }
            tx.execute_batch(MIGRATIONS[current as usize])
                .ctx(&format!("migration to schema version {}", current + 1))?;
            tx.pragma_update(None, "user_version", current + 1)
                .ctx("user_version")?;
            tx.commit().ctx("migration commit")?;
        }
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves the connection usable (SQLite rolled back).
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` in one immediate write transaction: all of it lands or none of it.
    pub(crate) fn write<T>(
        &self,
        what: &str,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> StoreResult<T>,
    ) -> StoreResult<T> {
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .ctx(what)?;
        let out = f(&tx)?;
        tx.commit().ctx(what)?;
        Ok(out)
    }
}

/// Puts the database in WAL mode (a no-op once it is: the mode is stored in the file). Switching
/// takes a lock SQLite does not wait for through the busy handler, so processes opening a new
/// file together (a daemon, an MCP server and a CLI on a fresh home) retry here until the timeout.
fn enable_wal(conn: &Connection) -> rusqlite::Result<()> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    let mut pause = Duration::from_millis(5);
    loop {
        let mode: rusqlite::Result<String> = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0));
        if mode.as_deref().is_ok_and(|m| m.eq_ignore_ascii_case("wal")) {
            return Ok(());
        }
        match conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0)) {
            Ok(m) if m.eq_ignore_ascii_case("wal") => return Ok(()),
            Err(e) if is_busy(&e) && std::time::Instant::now() < deadline => {}
            Ok(_) if std::time::Instant::now() < deadline => {}
            Ok(m) => {
                return Err(rusqlite::Error::InvalidParameterName(format!(
                    "journal_mode stayed {m}"
                )))
            }
            Err(e) => return Err(e),
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(100));
    }
}

/// SQLite's "someone else holds the lock" errors.
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
}

/// Milliseconds since the epoch.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
