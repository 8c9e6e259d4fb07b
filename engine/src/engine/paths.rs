//! The file lists of the options that name files (`Book File`, `EGTB
//! Path`): `;`-separated names, a relative one looked for beside the
//! executable as well.

use std::path::PathBuf;

/// The names of a `Book File` or `EGTB Path` value: `;`-separated,
/// blanks ignored.
pub(super) fn file_names(spec: &str) -> impl Iterator<Item = &str> {
    spec.split(';').map(str::trim).filter(|f| !f.is_empty())
}

/// A relative name that is not found from the working directory is
/// looked for beside the engine's executable (as ElephantEye does: GUIs
/// start engines from anywhere).
pub(super) fn locate(name: &str) -> PathBuf {
    let path = PathBuf::from(name);
    if path.is_absolute() || path.exists() {
        return path;
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&path)))
        .filter(|p| p.exists())
        .unwrap_or(path)
}
