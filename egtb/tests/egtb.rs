//! Proof tests of the generator on small endings: every position's value
//! is the best of its children's, table moves mate in exactly the stated
//! distance, known results hold, files round-trip and damage is refused.

use shuai_board::{Color, Piece, PieceKind, Position, Rng, Square};
use shuai_egtb::{file, generate_set, Material, Table, TableSet, Value};
use std::sync::OnceLock;

/// The value a position must have given its children's values: the
/// definition of the tables, computed forward, independently of the
/// retrograde generator. Rule results are checked separately.
fn expected_from_children(pos: &mut Position, set: &TableSet) -> Value {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Value::Loss(0);
    }
    let mut best_win: Option<u16> = None;
    let mut all_lose = true;
    let mut longest = 0;
    for &m in moves.as_slice() {
        pos.make_move(m);
        let child = set.probe(pos).expect("child covered");
        pos.unmake_move();
        match child {
            Value::Loss(n) => best_win = Some(best_win.map_or(n + 1, |b| b.min(n + 1))),
            Value::Win(n) => longest = longest.max(n + 1),
            _ => all_lose = false,
        }
    }
    match best_win {
        Some(n) => Value::Win(n),
        None if all_lose => Value::Loss(longest),
        None => Value::Draw,
    }
}

/// Checks every position of `table` against its children; returns the
/// number of positions checked.
fn check_table(table: &Table, set: &TableSet) -> usize {
    let layout = table.layout();
    let mut checked = 0;
    for i in 0..layout.size() {
        let Some(mut pos) = layout.position(i) else {
            assert_eq!(table.value_at(i), None, "index {i} is no position");
            continue;
        };
        let stored = table.value_at(i).expect("a position has a value");
        assert_eq!(set.probe(&pos), Some(stored));
        match stored {
            Value::WinByRule(_) | Value::LossByRule(_) => {}
            v => assert_eq!(
                v,
                expected_from_children(&mut pos, set),
                "{} {}",
                table.material(),
                pos.to_fen()
            ),
        }
        checked += 1;
    }
    checked
}

/// Stage-1 endings small enough for a test, with everything they need.
fn small_set() -> &'static TableSet {
    static SET: OnceLock<TableSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut set = TableSet::new();
        for name in ["KRK", "KHK", "KCK", "KPK", "KCAK", "KPKA", "KRKA", "KHKE"] {
            let m = Material::parse(name).unwrap();
            for sub in m.closure() {
                if !set.contains(&sub) {
                    let one = generate_set(sub, &mut |_, _| {}).unwrap();
                    set.insert(one.get(&sub).unwrap().clone());
                }
            }
        }
        set
    })
}

fn table(name: &str) -> &'static Table {
    small_set()
        .get(&Material::parse(name).unwrap())
        .expect("generated")
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn every_value_is_the_best_of_its_children() {
    let set = small_set();
    for name in [
        "KK", "KRK", "KHK", "KCK", "KPK", "KCAK", "KPKA", "KRKA", "KHKE", "KAK",
    ] {
        let t = table(name);
        let n = check_table(t, set);
        assert_eq!(n as u64, t.census().positions, "{name}");
    }
}

#[test]
fn position_counts() {
    // Kings alone: 81 pairs, 27 of them facing on an open file; the other
    // 54 with either side to move, folded by the mirror (pairs on file e
    // are their own mirror image) to 54.
    assert_eq!(table("KK").census().positions, 54);
    assert_eq!(table("KK").census().draws, 54);
}

/// Plays table moves from `pos` until mate; returns the plies played.
fn play_out(set: &TableSet, mut pos: Position, limit: usize) -> usize {
    let mut plies = 0;
    while plies < limit {
        if !pos.has_legal_move() {
            return plies;
        }
        let (m, _) = set.best_move(&pos).expect("covered");
        pos.make_move(m);
        plies += 1;
    }
    plies
}

#[test]
fn table_moves_mate_in_exactly_the_stated_distance() {
    let set = small_set();
    let mut rng = Rng::new(0x5EED);
    let mut played = 0;
    for name in ["KRK", "KHK", "KPK", "KCAK", "KPKA", "KRKA", "KHKE"] {
        let t = table(name);
        let mut tries = 0;
        while tries < 300 {
            let i = (rng.next_u64() % t.len() as u64) as usize;
            let Some(p) = t.layout().position(i) else {
                continue;
            };
            tries += 1;
            let (Some(Value::Win(n)) | Some(Value::Loss(n))) = t.value_at(i) else {
                continue;
            };
            assert_eq!(play_out(set, p.clone(), 400), n as usize, "{}", p.to_fen());
            played += 1;
        }
    }
    assert!(played > 500, "{played}");
}

#[test]
fn known_results() {
    let krk = table("KRK");
    // Rook and king against the bare king: Red to move always mates, and
    // with Black to move the only draws are those where the king takes
    // the unprotected rook. Mates are quick: the flying-general rule lets
    // Red's king hold a file.
    for i in 0..krk.len() {
        let Some(mut p) = krk.layout().position(i) else {
            continue;
        };
        let v = krk.value_at(i).unwrap();
        if p.side_to_move() == Color::Red {
            assert!(matches!(v, Value::Win(_)), "{} {v:?}", p.to_fen());
        } else {
            let rook = p.pieces(Color::Red, PieceKind::Rook).first().unwrap();
            let takes = p.legal_moves().as_slice().iter().any(|m| m.to() == rook);
            let _ = &mut p;
            assert_eq!(v == Value::Draw, takes, "{}", p.to_fen());
        }
    }
    assert_eq!(krk.census().longest, 4);
    // A lone cannon never checks (it needs a screen, and the kings never
    // share a line), so KCK is a draw throughout.
    let kck = table("KCK").census();
    assert_eq!(kck.draws, kck.positions);
    // Cannon and advisor: the advisor is the screen; Red to move wins
    // from most positions.
    let kcak = table("KCAK").census();
    assert!(kcak.wins > kcak.positions * 4 / 10, "{kcak:?}");
    // A pawn on e8 with Black's king on d9: no escape (e9 and d8 are
    // covered by the pawn), so e7-e8 mates at once.
    let set = small_set();
    assert_eq!(
        set.probe(&pos("3k5/9/4P4/9/9/9/9/9/9/5K3 w")),
        Some(Value::Win(1))
    );
    let (m, _) = set.best_move(&pos("3k5/9/4P4/9/9/9/9/9/9/5K3 w")).unwrap();
    assert_eq!(m.to_string(), "e7e8");
    // Black to move the same material: the pawn on the last rank cannot
    // stop the king from sitting beside it for ever.
    assert_eq!(
        set.probe(&pos("4P4/3k5/9/9/9/9/9/9/9/4K4 w")),
        Some(Value::Draw)
    );
    // The colours swapped: Black's pawn, looked up in the KPK table.
    assert_eq!(
        set.probe(&pos("5k3/9/9/9/9/9/9/4p4/9/3K5 b")),
        Some(Value::Win(1))
    );
}

/// Legal positions of an ending counted by brute force over every
/// placement, folded by the mirror: (all + self-symmetric) / 2.
fn brute_force_count(red: &[PieceKind], black: &[PieceKind]) -> u64 {
    let pieces: Vec<Piece> = red
        .iter()
        .map(|&k| Piece::new(Color::Red, k))
        .chain(black.iter().map(|&k| Piece::new(Color::Black, k)))
        .collect();
    // Each piece over the points the board says it may stand on.
    let points: Vec<Vec<usize>> = pieces
        .iter()
        .map(|&p| {
            shuai_board::legal_points(p)
                .into_iter()
                .map(|s| s.index())
                .collect()
        })
        .collect();
    let mut digits = vec![0usize; pieces.len()];
    let (mut all, mut symmetric) = (0u64, 0u64);
    'outer: loop {
        let placed: Vec<(Piece, Square)> = pieces
            .iter()
            .zip(digits.iter().zip(&points))
            .map(|(&p, (&d, pts))| (p, Square::from_index(pts[d]).unwrap()))
            .collect();
        // Pawns stand only where the index puts them; the rest is the
        // board's legality (points, overlaps, the side not to move safe).
        let pawn_ok = placed.iter().all(|&(p, sq)| {
            p.kind() != PieceKind::Pawn || !sq.on_own_side(p.color()) || sq.file().index() % 2 == 0
        });
        for side in Color::ALL {
            if pawn_ok && Position::from_pieces(&placed, side).is_ok() {
                all += 1;
                let mirrored: Vec<(Piece, Square)> =
                    placed.iter().map(|&(p, s)| (p, s.mirror())).collect();
                let a = Position::from_pieces(&mirrored, side).unwrap();
                let b = Position::from_pieces(&placed, side).unwrap();
                if a.key() == b.key() {
                    symmetric += 1;
                }
            }
        }
        for (d, pts) in digits.iter_mut().zip(&points) {
            *d += 1;
            if *d < pts.len() {
                continue 'outer;
            }
            *d = 0;
        }
        break;
    }
    (all + symmetric) / 2
}

#[test]
fn position_counts_match_brute_force() {
    use PieceKind::*;
    assert_eq!(
        table("KRK").census().positions,
        brute_force_count(&[King, Rook], &[King])
    );
    assert_eq!(
        table("KPK").census().positions,
        brute_force_count(&[King, Pawn], &[King])
    );
    assert_eq!(
        table("KCAK").census().positions,
        brute_force_count(&[King, Cannon, Advisor], &[King])
    );
    assert_eq!(
        table("KHKE").census().positions,
        brute_force_count(&[King, Horse], &[King, Elephant])
    );
}

#[test]
fn files_round_trip_and_damage_is_refused() {
    let t = table("KPKA");
    let bytes = file::encode(t);
    assert!(
        bytes.len() < t.len() * 2 / 4,
        "{} bytes for {}",
        bytes.len(),
        t.len()
    );
    let back = file::decode(&bytes, None, "test").unwrap();
    assert_eq!(back.material(), t.material());
    for i in 0..t.len() {
        assert_eq!(back.value_at(i), t.value_at(i));
    }
    let refused = |b: &[u8]| file::decode(b, None, "test").err().map(|e| e.to_string());
    // Every single flipped bit in the header and in the data is caught.
    for at in (0..bytes.len()).step_by(7) {
        let mut d = bytes.clone();
        d[at] ^= 0x10;
        assert!(refused(&d).is_some(), "byte {at}");
    }
    let mut d = bytes.clone();
    d[bytes.len() - 3] ^= 1;
    assert!(refused(&d).unwrap().contains("damaged"));
    assert!(refused(&bytes[..bytes.len() - 1])
        .unwrap()
        .contains("cut short"));
    assert!(refused(b"GIF89a").unwrap().contains("cut short") || refused(b"GIF89a!!!!").is_some());
    let mut d = bytes.clone();
    d[8] = 9;
    assert!(refused(&d).unwrap().contains("version"));
    // The right file under the wrong name.
    let other = Material::parse("KRK").unwrap();
    assert!(file::decode(&bytes, Some(other), "test").is_err());
}

#[test]
fn tablebase_reads_a_directory() {
    let dir = std::env::temp_dir().join(format!("shuai-egtb-test-{}", std::process::id()));
    let set = small_set();
    for name in ["KK", "KPK"] {
        file::save(table(name), &dir).unwrap();
    }
    let tb = shuai_egtb::Tablebase::open(&dir);
    let p = pos("3k5/9/4P4/9/9/9/9/9/9/5K3 w");
    assert_eq!(tb.probe(&p), set.probe(&p));
    assert_eq!(
        tb.best_move(&p).map(|(m, _)| m.to_string()),
        Some("e7e8".into())
    );
    assert_eq!(tb.line(&p, 10).len(), 1);
    // Not there: no answer, no message. Damaged: no answer, one message.
    assert_eq!(tb.probe(&pos("3k5/9/9/9/9/9/9/9/9/R3K4 w")), None);
    assert!(tb.take_errors().is_empty());
    let path = dir.join(file::file_name(&Material::parse("KRK").unwrap()));
    std::fs::write(&path, b"SHUAIEGT garbage").unwrap();
    let tb = shuai_egtb::Tablebase::open(&dir);
    assert_eq!(tb.probe(&pos("3k5/9/9/9/9/9/9/9/9/R3K4 w")), None);
    assert_eq!(tb.take_errors().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
