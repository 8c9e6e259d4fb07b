//! Properties of the evaluation on a sample of varied positions.

mod common;

use common::{flip_colors, mirror, sample_positions, FENS};
use shuai_board::{Color, Position};
use shuai_eval::endgame::{self, SCALE_DEAD, SCALE_NORMAL};
use shuai_eval::{evaluate, evaluate_with, features, trace, Term, Weights, PARAM_COUNT};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn start_position_is_the_tempo_bonus() {
    let start = Position::startpos();
    assert_eq!(evaluate(&start), Weights::DEFAULT.tempo.mg);
    let t = trace(&start);
    assert_eq!(t.phase, shuai_eval::PHASE_MAX);
    for term in Term::ALL {
        if term != Term::Tempo {
            assert_eq!(t.net(term), shuai_eval::Score::ZERO, "{term:?}");
        }
    }
    // With Black to move it is Black's tempo.
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
    assert_eq!(evaluate(&black), Weights::DEFAULT.tempo.mg);
}

#[test]
fn colour_flip_gives_the_same_score() {
    for p in sample_positions(600) {
        let fen = p.to_fen();
        let flipped = pos(&flip_colors(&fen));
        assert_eq!(evaluate(&p), evaluate(&flipped), "{fen}");
        let (a, b) = (trace(&p), trace(&flipped));
        assert_eq!(a.red, -b.red, "{fen}");
        // Feature by feature too, so that terms whose default weight is 0
        // are checked as well: Red's count minus Black's changes sign.
        let negated: Vec<(u16, i16)> = features(&flipped)
            .coefficients
            .iter()
            .map(|&(i, c)| (i, -c))
            .collect();
        assert_eq!(features(&p).coefficients, negated, "{fen}");
        for term in Term::ALL {
            assert_eq!(
                a.term(term, Color::Red),
                b.term(term, Color::Black),
                "{term:?} {fen}"
            );
        }
    }
}

#[test]
fn left_right_mirror_gives_the_same_score() {
    for p in sample_positions(600) {
        let fen = p.to_fen();
        let mirrored = pos(&mirror(&fen));
        assert_eq!(trace(&p), trace(&mirrored), "{fen}");
        assert_eq!(
            features(&p).coefficients,
            features(&mirrored).coefficients,
            "{fen}"
        );
    }
}

#[test]
fn trace_agrees_with_evaluate() {
    for p in sample_positions(1000) {
        let t = trace(&p);
        assert_eq!(t.score, evaluate(&p), "{}", p.to_fen());
        let sum = Term::ALL
            .iter()
            .fold(shuai_eval::Score::ZERO, |acc, &term| acc + t.net(term));
        assert_eq!(sum, t.total);
    }
}

#[test]
fn features_reproduce_the_evaluation_for_any_weights() {
    // Default weights, and weights perturbed at random.
    let mut rng = common::Rng::new(7);
    let mut perturbed = Weights::DEFAULT.to_vec();
    for v in perturbed.iter_mut() {
        *v += rng.index(41) as i32 - 20;
    }
    let perturbed = Weights::from_vec(&perturbed).unwrap();
    for p in sample_positions(400) {
        let f = features(&p);
        for w in [&Weights::DEFAULT, &perturbed] {
            assert_eq!(f.evaluate(w), evaluate_with(&p, w), "{}", p.to_fen());
        }
        assert_eq!(
            f.linear(&Weights::DEFAULT),
            trace(&p).total,
            "{}",
            p.to_fen()
        );
    }
}

#[test]
fn weights_round_trip_through_the_flat_vector() {
    let v = Weights::DEFAULT.to_vec();
    assert_eq!(v.len(), PARAM_COUNT);
    assert_eq!(Weights::names().len(), PARAM_COUNT);
    assert_eq!(Weights::from_vec(&v).unwrap(), Weights::DEFAULT);
    assert!(Weights::from_vec(&v[1..]).is_err());
    // Every parameter moves the vector in its own place.
    let mut changed = v.clone();
    changed[2 * 3 + 1] += 5; // material.horse.eg
    let w = Weights::from_vec(&changed).unwrap();
    assert_eq!(w.material[3].eg, Weights::DEFAULT.material[3].eg + 5);
    // Names are unique and readable.
    let names = Weights::names();
    let unique: std::collections::HashSet<_> = names.iter().collect();
    assert_eq!(unique.len(), names.len());
    assert_eq!(names[6], "material.horse.mg");
    assert!(names.contains(&"pst.rook.d6.eg".to_string()));
    assert!(names.contains(&"missing_advisor.rook.mg".to_string()));
    assert!(names.contains(&"tempo.eg".to_string()));
    // Groups tile the layout.
    let mut next = 0;
    for g in Weights::GROUPS {
        assert_eq!(g.first, next, "{}", g.name);
        next += g.len;
    }
    assert_eq!(2 * next, PARAM_COUNT);
}

#[test]
fn a_rook_up_is_winning() {
    // Remove one of Black's rooks, either, with either side to move.
    for fen in [
        "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    ] {
        let red = pos(&format!("{fen} w"));
        let black = pos(&format!("{fen} b"));
        assert!(evaluate(&red) > 700, "{}", evaluate(&red));
        assert!(evaluate(&black) < -700, "{}", evaluate(&black));
    }
    // Other pieces: a horse or cannon is worth clearly more than a pawn,
    // less than a rook.
    let horse_up = evaluate(&pos(
        "r1bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    ));
    let pawn_up = evaluate(&pos(
        "rnbakabnr/9/1c5c1/p3p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    ));
    assert!(horse_up > 300 && horse_up < 700, "{horse_up}");
    assert!(pawn_up > 50 && pawn_up < 200, "{pawn_up}");
}

#[test]
fn crossed_pawns_are_worth_about_two() {
    let w = Weights::DEFAULT;
    let home = pos("3k5/9/9/9/9/9/4P4/9/9/4K4 w");
    let crossed = pos("3k5/9/9/4P4/9/9/9/9/9/4K4 w");
    let d = trace(&crossed).total.eg - trace(&home).total.eg;
    assert!(d > 50, "crossing adds {d}");
    assert!(
        w.material[6].eg + w.pst[6][shuai_eval::pst_index(Color::Red, "e6".parse().unwrap())].eg
            > 180
    );
}

#[test]
fn strong_side_without_attackers_is_a_dead_draw() {
    // Red has advisors and elephants, Black a bare king: Red is "ahead" but
    // nothing of Red's can cross the river.
    let p = pos("4k4/9/9/9/9/9/9/4B4/4A4/2BAK4 w");
    let t = trace(&p);
    assert!(t.blended > 0);
    assert_eq!(t.scale, SCALE_DEAD);
    assert_eq!(evaluate(&p), 0);
}

#[test]
fn insufficient_material_is_scaled_toward_zero() {
    // A lone horse or cannon against all four defenders: nearly dead.
    for piece in ["N", "C"] {
        let p = pos(&format!("2bakab2/9/9/9/9/9/9/9/9/3K1{piece}3 w"));
        // Whichever side the material count favours, neither can win.
        assert!(endgame::scale_factor(&p, Color::Red) <= 8, "{}", p.to_fen());
        assert!(
            endgame::scale_factor(&p, Color::Black) <= 8,
            "{}",
            p.to_fen()
        );
        assert!(evaluate(&p).abs() < 60, "{} {}", p.to_fen(), evaluate(&p));
        // With Red's own advisors and elephants on, Red is clearly ahead in
        // material, and still scaled down.
        let p = pos(&format!("2bakab2/9/9/9/9/9/9/9/4A4/2B1KAB{piece}1 w"));
        let t = trace(&p);
        assert!(t.blended > 200, "{} {}", p.to_fen(), t.blended);
        assert!(t.scale <= 8, "{} scale {}", p.to_fen(), t.scale);
        assert!(t.score < 50, "{} {}", p.to_fen(), t.score);
    }
    // A lone rook against them: drawish, still clearly better than nothing.
    let rook = pos("2bakab2/9/9/9/9/9/9/9/9/3K1R3 w");
    let t = trace(&rook);
    assert!(t.scale < SCALE_NORMAL && t.scale > 8);
    // Two horses against the same defence: play on.
    let horses = pos("2bakab2/9/9/9/9/9/9/9/9/3KN1N2 w");
    assert_eq!(trace(&horses).scale, SCALE_NORMAL);
    // A horse against a bare king: winning, not scaled.
    let bare = pos("3k5/9/9/9/9/9/9/9/9/4KN3 w");
    assert_eq!(trace(&bare).scale, SCALE_NORMAL);
    assert!(evaluate(&bare) > 300);
    // A pawn on the last rank cannot win even against a bare king.
    let old = pos("P2k5/9/9/9/9/9/9/9/9/4K4 w");
    assert!(endgame::scale_factor(&old, Color::Red) < 10);
}

#[test]
fn central_cannon_terms() {
    // Red cannon on the e-file with nothing between it and Black's king:
    // the empty-headed cannon.
    let open = pos("2bakab2/9/9/9/9/9/9/4C4/9/3AKAB2 w");
    assert!(trace(&open).term(Term::CannonKingFile, Color::Red).mg >= 50);
    // The classical central cannon behind two pawns.
    let classical = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b");
    let t = trace(&classical);
    assert!(t.term(Term::CannonKingFile, Color::Red).mg > 0);
    assert_eq!(t.term(Term::CannonKingFile, Color::Black).mg, 0);
}

#[test]
fn king_danger_counts_the_attack_units_on_the_palace() {
    // Red: rook d5 (reaches d7-d9: 3 units), horse f5 (reaches e7: 2),
    // pawn e6 (steps to e7: 1) = 6 units. Black attacks nothing: 0.
    let p = pos("4k4/9/9/4P4/3R1N3/9/9/9/9/4K4 w");
    let first = Weights::GROUPS
        .iter()
        .find(|g| g.name == "king_danger")
        .unwrap()
        .first;
    let coefficient = |units: usize| {
        let f = features(&p);
        f.coefficients
            .iter()
            .find(|&&(i, _)| i as usize == first + units)
            .map_or(0, |&(_, c)| c)
    };
    assert_eq!(coefficient(6), 1);
    assert_eq!(coefficient(0), -1);
    assert_eq!((1..16).filter(|&u| coefficient(u) != 0).count(), 1);
    // With weights in the table the trace shows them for Red only.
    let mut w = Weights::DEFAULT;
    w.king_danger = [shuai_eval::Score::ZERO; shuai_eval::KING_DANGER];
    w.king_danger[6] = shuai_eval::s(90, 30);
    let t = shuai_eval::trace_with(&p, &w);
    assert_eq!(t.term(Term::KingDanger, Color::Red), shuai_eval::s(90, 30));
    assert_eq!(
        t.term(Term::KingDanger, Color::Black),
        shuai_eval::Score::ZERO
    );
}

#[test]
fn display_prints_every_term() {
    let text = trace(&pos(FENS[1])).to_string();
    for term in Term::ALL {
        assert!(text.contains(term.label()), "{text}");
    }
    assert!(text.contains("Phase"));
    assert!(text.contains("Final (Red to move)"));
}

#[test]
fn the_hand_set_table_reads_back_and_differs_from_the_tuned_weights() {
    let hand_set = Weights::from_table(include_str!("../tables/hand-set.txt")).unwrap();
    assert_ne!(hand_set, Weights::DEFAULT);
    // The hand-set values had the rook at 950/1020 and no king-danger table.
    assert_eq!(
        hand_set.material[shuai_board::PieceKind::Rook.index()],
        shuai_eval::s(950, 1020)
    );
    assert!(hand_set
        .king_danger
        .iter()
        .all(|&x| x == shuai_eval::Score::ZERO));
    // Both evaluate the start position as the tempo bonus alone.
    let start = Position::startpos();
    assert_eq!(evaluate_with(&start, &hand_set), hand_set.tempo.mg);
}

/// The coefficient (Red's count minus Black's) of the score named `name`
/// (as in [`Weights::score_name`]) in `p`'s features.
fn coefficient(p: &Position, name: &str) -> i16 {
    let index = (0..shuai_eval::SCORE_COUNT)
        .find(|&i| Weights::score_name(i).as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no score named {name}"));
    features(p)
        .coefficients
        .iter()
        .find(|&&(i, _)| i as usize == index)
        .map_or(0, |&(_, c)| c)
}

#[test]
fn threats_and_protection_read_both_sides_attacks() {
    // Red's horse e3 attacks Black's rook d5, which nothing defends: a rook
    // hanging and attacked by a lesser piece. The rook attacks Red's advisor
    // d0, which the king defends: not hanging, but protected.
    let p = pos("4k4/9/9/9/3r5/9/4H4/9/9/3AK4 w");
    assert_eq!(coefficient(&p, "hanging.rook"), 1);
    assert_eq!(coefficient(&p, "threat_by_lesser.rook"), 1);
    assert_eq!(coefficient(&p, "hanging.advisor"), 0);
    assert_eq!(coefficient(&p, "protected.advisor"), 1);
    assert_eq!(coefficient(&p, "protected.horse"), 0);
    // The same seen from Black after a colour flip.
    let flipped = pos(&flip_colors("4k4/9/9/9/3r5/9/4H4/9/9/3AK4 w"));
    assert_eq!(coefficient(&flipped, "hanging.rook"), -1);
    assert_eq!(coefficient(&flipped, "protected.advisor"), -1);
    // A black pawn defending d5 (from d6, before crossing it steps to d5)
    // takes the rook off the hanging list; the lesser attacker still counts.
    let defended = pos("4k4/9/9/3p5/3r5/9/4H4/9/9/3AK4 w");
    assert_eq!(coefficient(&defended, "hanging.rook"), 0);
    assert_eq!(coefficient(&defended, "threat_by_lesser.rook"), 1);
    assert_eq!(coefficient(&defended, "protected.rook"), -1);
}

#[test]
fn rooks_pin_one_piece_and_cannons_two() {
    // Red's rook e4 pins the horse e7 to the king e9; Red's cannon a9 pins
    // both the elephant c9 and the advisor d9 (either moving gives check).
    let p = pos("C1bak4/9/4n4/9/9/4R4/9/9/9/3K5 w");
    assert_eq!(coefficient(&p, "pinned.horse"), 1);
    assert_eq!(coefficient(&p, "pinned.elephant"), 1);
    assert_eq!(coefficient(&p, "pinned.advisor"), 1);
    // With a second piece on the file the rook pins nothing.
    let blocked = pos("C1bak4/9/4n4/9/4p4/4R4/9/9/9/3K5 w");
    assert_eq!(coefficient(&blocked, "pinned.horse"), 0);
    assert_eq!(coefficient(&blocked, "pinned.advisor"), 1);
    // A piece of the rook's own side in between is not pinned.
    let own = pos("C1bak4/9/4N4/9/9/4R4/9/9/9/3K5 w");
    assert_eq!(coefficient(&own, "pinned.horse"), 0);
    // Black's rook and cannon pin the same way.
    let black = pos(&flip_colors("C1bak4/9/4n4/9/9/4R4/9/9/9/3K5 w"));
    assert_eq!(coefficient(&black, "pinned.horse"), -1);
    assert_eq!(coefficient(&black, "pinned.elephant"), -1);
}

#[test]
fn pawns_threaten_horses_and_cannons_and_cannons_defend_over_a_screen() {
    // Red's crossed pawn c6 attacks the horse c7 (forward) and the cannon d6
    // (sideways); neither is defended. The rooks g0 and g4 attack each
    // other: each is hanging, neither is attacked by a lesser piece. Red's
    // cannon a3 defends the pawn e3 over the horse b3.
    let p = pos("4k4/9/2n6/2Pc5/9/6r2/CH2P4/9/9/3K2R2 w");
    assert_eq!(coefficient(&p, "threat_by_lesser.horse"), 1);
    assert_eq!(coefficient(&p, "threat_by_lesser.cannon"), 1);
    assert_eq!(coefficient(&p, "threat_by_lesser.rook"), 0);
    assert_eq!(coefficient(&p, "hanging.horse"), 1);
    assert_eq!(coefficient(&p, "hanging.cannon"), 1);
    assert_eq!(coefficient(&p, "hanging.rook"), 0);
    assert_eq!(coefficient(&p, "protected.pawn"), 1);
    assert_eq!(coefficient(&p, "protected.horse"), 0);
}
