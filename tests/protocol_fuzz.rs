//! Fuzz-style robustness: 100,000 random and mutated command
//! lines (seeded, so failures reproduce) are fed to the binary in both
//! protocols; it must stay alive, answer `isready` at the end, and exit on
//! `quit`.
//!
//! The generator avoids three things that are legitimate but only slow:
//! `quit` (it would end the run early), UCCI `batch` (a long finite search
//! would hold every later line, `isready` included), `go perft` (it runs
//! to completion on the input thread's time), and large hash sizes or
//! thread counts (every numeric run is cut to two digits; lines naming
//! hash or threads get single digits).

#[path = "protocol_harness/mod.rs"]
mod harness;

use harness::*;
use std::time::{Duration, Instant};

use shuai_board::Rng;

const SEEDS: &[&str] = &[
    "uci",
    "ucci",
    "ucicyclone",
    "isready",
    "ucinewgame",
    "uccinewgame",
    "position startpos",
    "position startpos moves h2e2 h9g7 h0g2 i9h9",
    "position startpos moves h2e2 h7e7 b0c2 b9c7 a0b0 a9b9",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2",
    "position fen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r moves",
    "position fen 3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 w",
    "position fen 3k5/9/3R1R3/9/9/9/9/9/9/4K4 b",
    "position fen 4k4/9/9/9/4p4/9/9/9/9/3K5 w - - 0 1",
    "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2",
    "startpos moves b2e2 b9c7",
    "banmoves h2e2 b2e2",
    "go depth 3",
    "go depth infinite",
    "go infinite",
    "go nodes 500",
    "go movetime 5",
    "go time 50 increment 0",
    "go time 60 opptime 60 oppincrement 1 increment 1 movestogo 5",
    "go draw time 40 increment 1",
    "go ponder time 50 increment 1",
    "go wtime 40 btime 40 winc 1 binc 1",
    "go ponder wtime 30 btime 30",
    "go mate 2",
    "go searchmoves h2e2 b2e2 depth 2",
    "go",
    "stop",
    "ponderhit",
    "ponderhit draw",
    "probe startpos moves h2e2",
    "probe fen 3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 w",
    "d",
    "debug on",
    "debug off",
    "setoption usemillisec true",
    "setoption usemillisec false",
    "setoption debug on",
    "setoption debug off",
    "setoption ponder true",
    "setoption usebook off",
    "setoption bookfiles a.dat;b.dat",
    "setoption hashsize 2",
    "setoption threads 2",
    "setoption multipv 3",
    "setoption moveoverhead 5",
    "setoption naturalmovelimit 60",
    "setoption idle medium",
    "setoption pruning none",
    "setoption knowledge small",
    "setoption randomness huge",
    "setoption style risky",
    "setoption promotion true",
    "setoption resign false",
    "setoption newgame",
    "setoption name Hash value 2",
    "setoption name Threads value 1",
    "setoption name MultiPV value 2",
    "setoption name Clear Hash",
    "setoption name UCI_Variant value xiangqi",
    "setoption name Move Overhead value 3",
    "setoption name Skill Level value 3",
];

const WORDS: &[&str] = &[
    "go",
    "position",
    "setoption",
    "name",
    "value",
    "fen",
    "startpos",
    "moves",
    "depth",
    "infinite",
    "ponder",
    "draw",
    "time",
    "opptime",
    "increment",
    "oppincrement",
    "movestogo",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movetime",
    "nodes",
    "mate",
    "searchmoves",
    "stop",
    "ponderhit",
    "probe",
    "banmoves",
    "isready",
    "uci",
    "ucci",
    "d",
    "h2e2",
    "h9g7",
    "b0c2",
    "e9e8",
    "a0a9",
    "z9z9",
    "10",
    "-1",
    "0",
    "1",
    "3",
    "true",
    "off",
    "xiangqi",
    "w",
    "b",
    "r",
    "-",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "9/9/9",
    "K",
    "\t",
    "é",
    "炮二平五",
    "",
];

fn mutate(rng: &mut Rng, line: &str) -> Vec<u8> {
    let mut bytes = line.as_bytes().to_vec();
    for _ in 0..=rng.index(4) {
        match rng.index(9) {
            0 if !bytes.is_empty() => {
                let i = rng.index(bytes.len());
                bytes.remove(i);
            }
            1 => {
                let i = rng.index(bytes.len() + 1);
                let b = *rng.pick(b"0123456789 abcdefghiKRNBACPkrnbacp/-\t\r");
                bytes.insert(i, b);
            }
            2 if !bytes.is_empty() => {
                let i = rng.index(bytes.len());
                bytes[i] = rng.next_u64() as u8;
            }
            3 => bytes.truncate(rng.index(bytes.len() + 1)),
            4 => bytes.make_ascii_uppercase(),
            5 => {
                let w = rng.pick(WORDS).as_bytes();
                let i = rng.index(bytes.len() + 1);
                let mut with = bytes[..i].to_vec();
                with.push(b' ');
                with.extend_from_slice(w);
                with.push(b' ');
                with.extend_from_slice(&bytes[i..]);
                bytes = with;
            }
            6 => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let mut words: Vec<&str> = text.split(' ').collect();
                let (a, b) = (rng.index(words.len()), rng.index(words.len()));
                words.swap(a, b);
                bytes = words.join(" ").into_bytes();
            }
            7 => bytes.extend_from_slice(b"\r"),
            _ => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                bytes = text.replace(' ', "  \t").into_bytes();
            }
        }
    }
    bytes
}

fn random_words(rng: &mut Rng) -> Vec<u8> {
    let n = rng.index(12);
    let words: Vec<&str> = (0..n).map(|_| *rng.pick(WORDS)).collect();
    words.join(" ").into_bytes()
}

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    (0..rng.index(60))
        .map(|_| rng.next_u64() as u8)
        .filter(|&b| b != b'\n')
        .collect()
}

/// Makes a generated line safe to run quickly (see the module comment);
/// `None` drops it.
fn tame(bytes: Vec<u8>) -> Option<Vec<u8>> {
    let lower = String::from_utf8_lossy(&bytes).to_lowercase();
    let first = lower.split_whitespace().next().unwrap_or("");
    if first == "quit" || lower.contains("batch") || lower.contains("perft") {
        return None;
    }
    let small = lower.contains("hash") || lower.contains("thread");
    let mut out = Vec::with_capacity(bytes.len());
    let mut run = 0;
    for b in bytes {
        if b.is_ascii_digit() {
            run += 1;
            if run > 2 || (small && run > 1) {
                continue;
            }
        } else {
            run = 0;
        }
        out.push(b);
    }
    Some(out)
}

fn generate(seed: u64, count: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let mut lines = Vec::with_capacity(count);
    while lines.len() < count {
        let raw = match rng.index(10) {
            0..=4 => {
                let seed = rng_pick_seed(&mut rng);
                mutate(&mut rng, seed)
            }
            5..=6 => rng_pick_seed(&mut rng).as_bytes().to_vec(),
            7..=8 => random_words(&mut rng),
            _ => random_bytes(&mut rng),
        };
        let Some(line) = tame(raw) else { continue };
        // Searches dominate the run time (each runs until it notices the
        // next command): keep one `go` in six.
        let is_go = String::from_utf8_lossy(&line)
            .split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("go"));
        if is_go && rng.index(6) != 0 {
            continue;
        }
        lines.push(line);
    }
    // One very long move list (a 1600-ply game, as ElephantEye's buffer
    // allows) and one very long garbage line.
    let mut long = b"position startpos moves".to_vec();
    for _ in 0..400 {
        long.extend_from_slice(b" b0c2 b9c7 c2b0 c7b9");
    }
    lines.push(long);
    lines.push(vec![b'x'; 100_000]);
    lines
}

fn rng_pick_seed(rng: &mut Rng) -> &'static str {
    SEEDS[rng.index(SEEDS.len())]
}

fn run(seed: u64, count: usize, handshake: &str) {
    let lines = generate(seed, count);
    let mut e = Engine::start();
    e.send(handshake);
    e.send("setoption name Hash value 1");
    // Write from a thread of our own while the harness drains the output.
    let mut payload = Vec::new();
    for l in &lines {
        payload.extend_from_slice(l);
        payload.push(b'\n');
    }
    if let Ok(path) = std::env::var("SHUAI_FUZZ_DUMP") {
        std::fs::write(format!("{path}.{handshake}"), &payload).unwrap();
    }
    let t = Instant::now();
    e.send_raw(&payload);
    // The engine is alive and gets through every line: a marker line
    // (reported as an unknown command once any search ended) and isready.
    e.send("stop");
    e.send("fuzz-end-marker");
    e.until(Duration::from_secs(300), |l| {
        l.ends_with("unknown command: fuzz-end-marker")
    });
    e.send("isready");
    e.until(Duration::from_secs(30), |l| l == "readyok");
    assert!(e.alive());
    e.send("stop");
    e.send("isready");
    e.until(Duration::from_secs(30), |l| l == "readyok");
    e.send("quit");
    let (status, _) = e.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "{status:?}");
    eprintln!("{count} lines in {:?}", t.elapsed());
}

#[test]
fn fuzzed_ucci_session_survives() {
    run(0x5EED_0001, 50_000, "ucci");
}

#[test]
fn fuzzed_uci_session_survives() {
    run(0x5EED_0002, 50_000, "uci");
}
