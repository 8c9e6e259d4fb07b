//! The `shuai` binary: see the `shuai-engine` crate.

fn main() -> std::process::ExitCode {
    shuai_engine::cli::main()
}
