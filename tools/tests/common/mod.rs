//! Helpers shared by the `shuai-tools` command-line tests.

use std::process::{Command, Output};

/// Runs `shuai-tools` with `args` and returns what it printed and its status.
pub fn tools(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shuai-tools"))
        .args(args)
        .output()
        .expect("shuai-tools runs")
}

/// Runs `shuai-tools` with `args`, which must succeed; a failure shows the
/// arguments and what the tool said on stderr.
#[allow(dead_code)] // not every test file that includes the module uses it
pub fn tools_ok(args: &[&str]) -> Output {
    let out = tools(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The `shuai` binary of the same profile, which `cargo test` at the
/// workspace root builds for the root package's tests. A test that needs
/// it fails without it, saying how to get it, rather than passing with
/// nothing checked.
#[allow(dead_code)] // not every test file that includes the module uses it
pub fn shuai_binary() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    // target/<profile>/deps/<test> → target/<profile>/shuai
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test runs from target/<profile>/deps");
    let p = dir.join(format!("shuai{}", std::env::consts::EXE_SUFFIX));
    assert!(
        p.exists(),
        "no shuai binary at {}: run `cargo test` at the workspace root, or \
         `cargo build --bin shuai` with the same profile first",
        p.display()
    );
    p
}
