//! The coverage reports `analyze kind=coverage|coverage_summary` read: the ones named by
//! `reports`, or whichever of the usual places exist. Each is parsed once per (size, mtime) and
//! kept; a report named explicitly that is missing, outside the repository or unreadable is an
//! `invalid_argument`; finding none at all is `unavailable`, with how to produce one.

use crate::RepoIndex;
use gortex_analysis::measured::{parse_report, LoadedReport, Report};
use gortex_core::QueryError;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// Where test runners write their reports by default, looked for in this order.
pub const DEFAULT_REPORTS: &[&str] = &[
    "coverage/lcov.info",
    "lcov.info",
    "coverage.lcov",
    "coverage/cobertura-coverage.xml",
    "coverage.xml",
    "cobertura.xml",
    "target/site/jacoco/jacoco.xml",
    "build/reports/jacoco/test/jacocoTestReport.xml",
    "coverage.out",
    "cover.out",
    "coverage.json",
];

/// Reports larger than this are refused (a report is read whole).
const MAX_REPORT_BYTES: u64 = 512 * 1024 * 1024;

/// A parsed report with the size and mtime it was parsed at.
type Parsed = (u64, Option<SystemTime>, Arc<Report>);

/// Parsed reports by absolute path.
#[derive(Default)]
pub(crate) struct ReportCache(Mutex<HashMap<PathBuf, Parsed>>);

impl ReportCache {
    /// Forgets every parsed report.
    pub(crate) fn clear(&self) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    fn load(&self, path: &Path) -> Result<(Arc<Report>, Option<SystemTime>), String> {
        let meta = std::fs::metadata(path).map_err(|e| format!("cannot read it: {e}"))?;
        if meta.len() > MAX_REPORT_BYTES {
            return Err(format!(
                "it is {} bytes; reports over {MAX_REPORT_BYTES} are not read",
                meta.len()
            ));
        }
        let modified = meta.modified().ok();
        let mut cache = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((len, at, report)) = cache.get(path) {
            if *len == meta.len() && *at == modified {
                return Ok((report.clone(), modified));
            }
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read it: {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let report = Arc::new(parse_report(&text)?);
        cache.insert(path.to_path_buf(), (meta.len(), modified, report.clone()));
        Ok((report, modified))
    }
}

impl std::fmt::Debug for ReportCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReportCache").finish_non_exhaustive()
    }
}

impl RepoIndex {
    /// The coverage reports to join: `given` (repository-relative), or those found in [`DEFAULT_REPORTS`].
    pub(crate) fn coverage_reports(&self, given: Option<&[String]>) -> Result<Vec<LoadedReport>, QueryError> {
        let root = self.root.canonicalize().unwrap_or_else(|_| self.root.clone());
        let root_text = root.to_string_lossy().replace('\\', "/");
        let loaded = |rel: &str, report: Arc<Report>, written: Option<SystemTime>| LoadedReport {
            path: rel.to_string(),
            report,
            root: root_text.clone(),
            written_ns: written
                .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos() as u64),
        };
        let cache = &self.analysis.coverage_reports;
        if let Some(given) = given.filter(|g| !g.is_empty()) {
            let mut out = Vec::new();
            for rel in given {
                let abs = root.join(rel);
                let real = abs.canonicalize().map_err(|e| {
                    QueryError::invalid(format!("reports: {rel:?} cannot be read ({e}); name a coverage report inside the repository, relative to its root"))
                })?;
                if !real.starts_with(&root) {
                    return Err(QueryError::invalid(format!(
                        "reports: {rel:?} is outside the repository; name a report under {}",
                        root.display()
                    )));
                }
                let (report, written) = cache.load(&real).map_err(|e| {
                    QueryError::invalid(format!("reports: {rel:?} is not readable as a coverage report: {e}"))
                })?;
                out.push(loaded(rel, report, written));
            }
            return Ok(out);
        }
        let mut out = Vec::new();
        for rel in DEFAULT_REPORTS {
            let abs = root.join(rel);
            if !abs.is_file() {
                continue;
            }
            // A default-named file that is not a report (another tool's coverage.json) is passed over.
            if let Ok((report, written)) = cache.load(&abs) {
                out.push(loaded(rel, report, written));
            }
        }
        if out.is_empty() {
            return Err(QueryError::unavailable(format!(
                "no coverage report found (looked for {}); write one with your test runner — `npx jest --coverage` (lcov), `go test -coverprofile=coverage.out ./...`, `pytest --cov --cov-report=xml` or `coverage json`, Maven/Gradle JaCoCo — or pass reports: [\"path/to/report\"]",
                DEFAULT_REPORTS.join(", ")
            )));
        }
        Ok(out)
    }

    /// Runs a measured-coverage analysis over the reports, with each file's indexed mtime for staleness.
    pub(crate) fn with_coverage<T>(
        &self,
        given: Option<&[String]>,
        run: impl FnOnce(&[LoadedReport], gortex_analysis::measured::IndexedMtime) -> Result<T, QueryError>,
    ) -> Result<T, QueryError> {
        let reports = self.coverage_reports(given)?;
        let mtimes: std::collections::HashMap<&str, u64> = self.files.iter().map(|f| (&*f.path, f.mtime_ns)).collect();
        run(&reports, &|p: &str| mtimes.get(p).copied())
    }
}
