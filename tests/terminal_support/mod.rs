//! Runs the `shuai` binary for the terminal tests: arguments, piped
//! standard input, a deadline, and golden files.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest any single run may take before the test fails.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// What a run left behind.
pub struct Run {
    /// Exit code (-1 if killed by a signal).
    pub code: i32,
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
}

impl Run {
    /// Fails the test with the whole transcript if `cond` is false.
    pub fn check(&self, cond: bool, what: &str) {
        assert!(
            cond,
            "{what}\n--- exit code {}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.out, self.err
        );
    }
}

/// Runs `shuai args…` with `input` on standard input (then closed).
pub fn shuai(args: &[&str], input: &str) -> Run {
    shuai_bytes(args, input.as_bytes())
}

/// [`shuai`] with raw bytes on standard input.
pub fn shuai_bytes(args: &[&str], input: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shuai"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the shuai binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stdout.read_to_end(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stderr.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("shuai {args:?} did not finish within {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    writer.join().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        out: String::from_utf8(out.join().unwrap()).expect("UTF-8 output"),
        err: String::from_utf8(err.join().unwrap()).expect("UTF-8 errors"),
    }
}

/// Compares `actual` with the golden file `tests/golden/<name>` exactly.
/// With `UPDATE_GOLDEN=1` in the environment the file is written instead.
pub fn golden(name: &str, actual: &str) {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "golden", name]
        .iter()
        .collect();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if expected != actual {
        panic!(
            "{} differs (UPDATE_GOLDEN=1 rewrites it)\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        );
    }
}
