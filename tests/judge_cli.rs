//! End-to-end: `shuai judge` and `shuai eval` print what a person needs.

#[path = "protocol_harness/mod.rs"]
mod harness;

fn shuai(args: &[&str]) -> (i32, String, String) {
    harness::run_shuai(args)
}

#[test]
fn judge_perpetual_chase() {
    let (code, out, _) = shuai(&[
        "judge",
        "--fen",
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        "--moves",
        "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], "verdict: win");
    assert!(lines[1].starts_with("reason: "));
    assert!(
        lines[1].contains("perpetual chase") && lines[1].contains("Red loses"),
        "{}",
        lines[1]
    );
}

#[test]
fn judge_perpetual_check_mate_and_nothing() {
    let (_, out, _) = shuai(&[
        "judge",
        "--fen",
        "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
        "--moves",
        "d6e6 e4d4 e6d6 d4e4 d6e6 e4d4 e6d6 d4e4",
    ]);
    assert!(out.starts_with("verdict: win\n"), "{out}");
    // Black is mated by the rook on b9 with a8 covering the second rank.
    let (_, out, _) = shuai(&["judge", "--fen", "1R2k4/R8/9/9/9/9/9/9/9/3K5 b"]);
    assert!(out.starts_with("verdict: loss\n"), "{out}");
    assert!(out.to_lowercase().contains("checkmate"), "{out}");
    let (_, out, _) = shuai(&["judge", "--moves", "h2e2 h9g7"]);
    assert!(out.starts_with("verdict: none\n"), "{out}");
}

/// `--rules` picks the book: Red's advisor shuffle leaves a mate by checks
/// on every move (the perpetual mate threat of the board's rule-book
/// tests), Red's forbidden 长杀 under the Chinese rules and a draw under the
/// Asian ones, where a mate threat is no attack; a bad book name is
/// refused.
#[test]
fn judge_by_either_rule_book() {
    let game = [
        "--fen",
        "2b1k4/9/9/N6PR/9/9/9/9/4A4/5K3 w - - 0 1",
        "--moves",
        "e1d0 c9e7 d0e1 e7c9 e1d0 c9e7 d0e1 e7c9",
    ];
    let (_, chinese, _) = shuai(&[&["judge"][..], &game].concat());
    assert!(chinese.starts_with("verdict: loss\n"), "{chinese}");
    assert!(
        chinese.contains("reason: ") && chinese.contains("Chinese rules"),
        "{chinese}"
    );
    let (_, asian, _) = shuai(&[&["judge", "--rules", "asian"][..], &game].concat());
    assert!(asian.starts_with("verdict: draw\n"), "{asian}");
    assert!(asian.contains("Asian rules"), "{asian}");
    let (code, _, err) = shuai(&[&["judge", "--rules", "fide"][..], &game].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown rule book 'fide'"), "{err}");
}

/// A composed position no game can reach (a third red rook, a red pawn
/// behind its start rank) is judged, with one warning on stderr: two rooks
/// mate on rank 9 while the third stands by.
#[test]
fn judge_a_composed_position() {
    let (code, out, err) = shuai(&["judge", "--fen", "1R2k4/R8/9/9/9/9/9/P8/R8/3K5 b"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("verdict: loss\n"), "{out}");
    assert!(out.to_lowercase().contains("checkmate"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("shuai: composed position accepted, though no game can reach it: "),
        "{err}"
    );
    assert!(
        err.contains("pawn on a2 is behind its starting rank"),
        "{err}"
    );
    // A king outside its palace is still refused.
    let (code, _, err) = shuai(&["judge", "--fen", "4k4/9/9/9/9/9/9/9/9/K8 w"]);
    assert_eq!(code, 2);
    assert!(err.contains("outside its palace"), "{err}");
}

#[test]
fn judge_rejects_an_illegal_move_clearly() {
    let (code, out, err) = shuai(&["judge", "--moves", "h2e2 e9e7"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("'e9e7' is not a legal move"), "{err}");
}

#[test]
fn eval_prints_every_term_and_the_total() {
    let (code, out, _) = shuai(&["eval"]);
    assert_eq!(code, 0);
    for term in ["Material", "Mobility", "Tempo", "Total"] {
        assert!(out.contains(term), "{term} missing in\n{out}");
    }
    // The start position is symmetric: only the side to move's tempo bonus.
    let tempo = shuai_eval::Weights::DEFAULT.tempo.mg;
    assert!(tempo > 0);
    assert!(
        out.contains(&format!("Final (Red to move): +{tempo}\n")),
        "{out}"
    );
}

#[test]
fn eval_uses_a_weights_table_and_reports_a_bad_one() {
    let dir = std::env::temp_dir().join(format!("shuai-eval-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("w.txt");
    std::fs::write(&file, "# tempo only\ntempo.mg 77\n").unwrap();
    let path = file.to_str().unwrap();
    let (code, out, _) = shuai(&["eval", "--weights", path]);
    assert_eq!(code, 0);
    assert!(out.ends_with("Final (Red to move): +77\n"), "{out}");

    std::fs::write(&file, "tempo.mg seventy\n").unwrap();
    let (code, out, err) = shuai(&["eval", "--weights", path]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(
        err.trim_end(),
        format!("shuai eval: {path}: line 1: bad value \"seventy\" for tempo.mg")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn eval_prints_the_network_score_with_nnue_or_evalfile() {
    let dir = std::env::temp_dir().join(format!("shuai-eval-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("constant.nnue");
    harness::write_constant_network(&file, 300);
    let net = shuai_eval::nnue::Network::from_bytes(&std::fs::read(&file).unwrap()).unwrap();
    let path = file.to_str().unwrap();
    let (code, out, _) = shuai(&["eval", "--evalfile", path, "--moves", "h2e2"]);
    assert_eq!(code, 0);
    assert!(
        out.ends_with(&format!(
            "NNUE network {:016x} (1260->256)x2->SCReLU->1 from {path}: constant test network\n\
             NNUE (Red's view): -300\nNNUE (Black to move): +300\n",
            net.hash()
        )),
        "{out}"
    );
    assert!(out.contains("Final (Red's view)"), "{out}");

    let (code, out, _) = shuai(&["eval", "--nnue"]);
    assert_eq!(code, 0);
    let embedded = shuai_eval::nnue::default_network();
    assert!(
        out.contains(&format!(
            "NNUE network {:016x} {} from the embedded network: {}\n",
            embedded.hash(),
            embedded.architecture(),
            embedded.description()
        )),
        "{out}"
    );
    let score = embedded.evaluate(&shuai_board::Position::startpos());
    assert!(
        out.ends_with(&format!("NNUE (Red to move): {score:+}\n")),
        "{out}"
    );

    std::fs::write(&file, "garbage, not a network").unwrap();
    let (code, out, err) = shuai(&["eval", "--evalfile", path]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(
        err.trim_end(),
        format!("shuai eval: {path}: not a Shuai network file (no SHUAINNU magic)")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
