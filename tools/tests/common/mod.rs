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
