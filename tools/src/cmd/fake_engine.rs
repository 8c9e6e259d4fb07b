//! `shuai-tools fake-engine` (hidden): the scripted fake engine the tools'
//! tests play against.

use shuai_tools::fake::{self, FakeConfig, Mode};

/// The arguments of `fake-engine`: the fields of [`FakeConfig`].
#[derive(clap::Args)]
pub struct Args {
    #[arg(long, value_enum, default_value = "good")]
    mode: Mode,
    #[arg(long, default_value_t = 0)]
    after: u32,
    #[arg(long, default_value_t = 1000)]
    delay: u64,
    #[arg(long, default_value_t = 0)]
    score: i32,
    #[arg(long)]
    ranks1: bool,
    #[arg(long, default_value = "")]
    script: String,
    #[arg(long, default_value_t = 0)]
    think: u64,
}

/// Runs the fake engine on stdin and stdout until `quit`.
pub fn run(a: Args) -> Result<(), String> {
    fake::run(FakeConfig {
        mode: a.mode,
        after: a.after,
        delay_ms: a.delay,
        score: a.score,
        ranks1: a.ranks1,
        script: a.script.split_whitespace().map(str::to_string).collect(),
        think_ms: a.think,
    });
    Ok(())
}
