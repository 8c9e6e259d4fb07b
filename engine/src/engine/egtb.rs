//! The endgame tables the engine probes: the directories of the `EGTB
//! Path` option (UCCI `egtbpaths`), opened when the option is set.

use super::paths::{file_names, locate};
use shuai_egtb::Tablebase;
use std::fmt;
use std::sync::Arc;

/// The endgame tables and the option value they were opened from.
#[derive(Clone, Default)]
pub struct EgtbFiles {
    /// The directories as the option gave them (`;`-separated, as UCCI's
    /// `egtbpaths`); empty: no tables.
    pub paths: String,
    /// The tables found there; `None` when no directory is set.
    pub tablebase: Option<Arc<Tablebase>>,
}

impl PartialEq for EgtbFiles {
    /// The same option value opened at the same time: reopening a path
    /// (to see files written since) gives another set.
    fn eq(&self, other: &EgtbFiles) -> bool {
        self.paths == other.paths
            && match (&self.tablebase, &other.tablebase) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl Eq for EgtbFiles {}

impl fmt::Debug for EgtbFiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EgtbFiles")
            .field("paths", &self.paths)
            .field("tables", &self.tablebase.as_ref().map(|t| t.len()))
            .finish()
    }
}

impl EgtbFiles {
    /// Lists the table files of `paths` (directories separated by `;`; a
    /// relative one not found from the working directory is looked for
    /// beside the executable, as book files are). An empty value or
    /// `<empty>` means no tables. Fails, saying why, when a directory
    /// cannot be read; a directory without tables is accepted (the caller
    /// says so, see [`EgtbFiles::summary`]).
    pub fn open(paths: &str) -> Result<EgtbFiles, String> {
        let paths = paths.trim();
        if paths.is_empty() || paths == "<empty>" {
            return Ok(EgtbFiles::default());
        }
        let dirs: Vec<_> = file_names(paths).map(locate).collect();
        let tablebase = Tablebase::open_dirs(&dirs)?;
        Ok(EgtbFiles {
            paths: paths.to_string(),
            tablebase: Some(Arc::new(tablebase)),
        })
    }

    /// One line on what was found: `281 endgame tables (up to 7 pieces)
    /// in DIR`, or that there are none.
    pub fn summary(&self) -> String {
        match &self.tablebase {
            None => "no endgame tables".to_string(),
            Some(tb) if tb.is_empty() => format!("no endgame tables in {}", self.paths),
            Some(tb) => format!(
                "{} endgame table{} (up to {} pieces) in {}",
                tb.len(),
                if tb.len() == 1 { "" } else { "s" },
                tb.max_pieces(),
                self.paths
            ),
        }
    }
}
