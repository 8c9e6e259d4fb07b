//! Proof tests of the generator on small endings: every position's value
//! is the best of its children's, table moves mate in exactly the stated
//! distance, known results hold, files round-trip and damage is refused.

use shuai_board::rules::{judge_repetition_with, Reason, RuleBook, RuleOptions};
use shuai_board::{Color, Piece, PieceKind, Position, Rng, Square};
use shuai_egtb::{file, generate_set, verify, Material, Table, TableSet, Value};
use std::sync::OnceLock;

/// Checks every position of `table` against its children; returns the
/// number of positions checked.
fn check_table(table: &Table, set: &TableSet) -> u64 {
    let v = verify::verify(table, set, 0..table.len());
    assert_eq!(v.wrong_count, 0, "{}: {:?}", table.material(), v.wrong);
    v.checked + v.rule
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
        assert_eq!(n, t.census().positions, "{name}");
    }
}

#[test]
fn endings_too_large_or_missing_sub_tables_are_refused() {
    // 45 king pairs x C(90, 2) rook pairs x 210 x 210 defenders x 2 sides:
    // 15.9 billion entries, beyond the generator's 32-bit work lists.
    let big = Material::parse("KRRAAEEKAAEE").unwrap();
    let refusal = |m: Material| match shuai_egtb::generate(m, &TableSet::default(), &mut |_| {}) {
        Ok(_) => panic!("{m} generated without its sub-tables"),
        Err(e) => e,
    };
    assert_eq!(
        refusal(big),
        shuai_egtb::GenError::TooLarge(big, 15_895_845_000)
    );
    let krka = Material::parse("KRKA").unwrap();
    assert!(matches!(
        refusal(krka),
        shuai_egtb::GenError::MissingSubTable(_)
    ));
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

/// FNV-1a of `bytes`: a fingerprint pinning a file's exact bytes.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The same table always gives the same bytes: written twice, written
/// again after being read back, and converted from the old run-length
/// file. The bytes of `KPKA` are pinned (a change to the format or the
/// coder must change the version, not the bytes under the same one).
#[test]
fn block_files_are_byte_stable_and_old_files_still_read() {
    let t = table("KPKA");
    let bytes = file::encode(t);
    assert_eq!(&bytes[8..10], &file::FORMAT_VERSION.to_le_bytes());
    assert_eq!(file::FORMAT_VERSION, 3);
    assert_eq!(file::encode(t), bytes);
    let back = file::decode(&bytes, None, "test").unwrap();
    assert_eq!(file::encode(&back), bytes);
    let old = file::encode_run_length(t);
    assert_eq!(&old[8..10], &file::RUN_LENGTH_VERSION.to_le_bytes());
    let from_old = file::decode(&old, None, "old").unwrap();
    for i in 0..t.len() {
        assert_eq!(from_old.value_at(i), t.value_at(i));
        assert_eq!(back.value_at(i), t.value_at(i));
    }
    assert_eq!(file::encode(&from_old), bytes);
    assert!(
        bytes.len() * 3 < old.len(),
        "{} against {}",
        bytes.len(),
        old.len()
    );
    assert_eq!((bytes.len(), fnv(&bytes)), (PINNED_KPKA.0, PINNED_KPKA.1));
    // Version 2 (the first block files) is still read, to the same values,
    // and converts to the same version-3 bytes.
    let v2 = file::encode_block_version(t, file::BLOCK_V2_VERSION);
    assert_eq!(&v2[8..10], &2u16.to_le_bytes());
    assert_eq!((v2.len(), fnv(&v2)), (PINNED_KPKA_V2.0, PINNED_KPKA_V2.1));
    let from_v2 = file::decode(&v2, None, "v2").unwrap();
    for i in 0..t.len() {
        assert_eq!(from_v2.value_at(i), t.value_at(i));
    }
    assert_eq!(file::encode(&from_v2), bytes);
}

/// The size and fingerprint of `KPKA.egtb` in format version 3.
const PINNED_KPKA: (usize, u64) = (948, 17_557_188_096_631_763_223);
/// The size and fingerprint of `KPKA.egtb` in format version 2, as the
/// first block files were written.
const PINNED_KPKA_V2: (usize, u64) = (951, 9_534_376_732_632_103_096);

/// A block file cut short, or with bytes added, is refused when opened
/// for probing, before any block is read.
#[test]
fn a_cut_block_file_is_refused_when_opened() {
    let dir = std::env::temp_dir().join(format!("shuai-egtb-cut-{}", std::process::id()));
    let path = file::save(table("KPKA"), &dir).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let m = Material::parse("KPKA").unwrap();
    for (len, why) in [
        (bytes.len() - 1, "cut short"),
        (40, "cut short"),
        (5, "cut short"),
    ] {
        std::fs::write(&path, &bytes[..len]).unwrap();
        let e = file::BlockFile::open(&dir, m).err().unwrap().to_string();
        assert!(e.contains(why), "{len}: {e}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    std::fs::write(&path, &longer).unwrap();
    let e = file::BlockFile::open(&dir, m).err().unwrap().to_string();
    assert!(e.contains("unexpected bytes"), "{e}");
    std::fs::write(&path, &bytes).unwrap();
    let f = file::BlockFile::open(&dir, m).unwrap();
    assert_eq!(f.blocks(), 24_750usize.div_ceil(file::BLOCK_ENTRIES));
    assert!(f.read_block(f.blocks()).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// CRC-32 (IEEE), bit by bit, for the headers made by hand below.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

/// A table file's bytes with the header of `name` claiming `entries`
/// indices, its checksum right, and `payload` after it.
fn header_for(name: &str, entries: u64, payload: &[u8]) -> Vec<u8> {
    let mut out = b"SHUAIEGT".to_vec();
    out.extend_from_slice(&1u16.to_le_bytes());
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&entries.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Found while writing the table-file fuzz target (issue 50, `fuzz/`): a
/// header naming an ending with more indices than a usize holds (all 32
/// pieces) overflowed the index size (a panic in a debug build, a wrong
/// size in a release build); one naming a real but huge ending, with a
/// run of that many values, asked for 32 GB. Both are refused with a
/// message, before any allocation.
#[test]
fn a_file_naming_an_ending_too_large_is_refused() {
    let refused = |b: &[u8]| file::decode(b, None, "test").err().map(|e| e.to_string());
    // A run of 2^40 copies of one value: a few bytes of payload.
    let bomb = [0x81, 0x80, 0x80, 0x80, 0x80, 0x40, 0];
    let all = "KRRHHEEAACCPPPPPKRRHHEEAACCPPPPP";
    for entries in [0, u64::MAX] {
        let why = refused(&header_for(all, entries, &bomb)).unwrap();
        assert!(why.contains("too many indices"), "{why}");
    }
    // 15.9 billion indices: a usize holds it, no table this program makes
    // is that large.
    let why = refused(&header_for("KRRAAEEKAAEE", 15_895_845_000, &bomb)).unwrap();
    assert!(why.contains("15895845000 indices"), "{why}");
}

#[test]
fn tablebase_reads_a_directory() {
    let dir = std::env::temp_dir().join(format!("shuai-egtb-test-{}", std::process::id()));
    let set = small_set();
    for name in ["KK", "KPK"] {
        file::save(table(name), &dir).unwrap();
    }
    // A stray file that is not a table is not listed.
    std::fs::write(dir.join("notes.txt"), b"x").unwrap();
    let tb = shuai_egtb::Tablebase::open(&dir);
    assert_eq!((tb.len(), tb.max_pieces()), (2, 3));
    assert!(tb.covers(&Material::parse("KKP").unwrap()));
    assert!(shuai_egtb::Tablebase::open_dirs(&[dir.join("nowhere")]).is_err());
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

/// Rook against horse: the first small ending where the perpetual-check
/// rule decides positions (the horse's side can only check for ever).
fn krkh() -> &'static TableSet {
    static SET: OnceLock<TableSet> = OnceLock::new();
    SET.get_or_init(|| generate_set(Material::parse("KRKH").unwrap(), &mut |_, _| {}).unwrap())
}

/// The children of `pos`: (move, gives check, value for the child's side).
fn children(set: &TableSet, pos: &mut Position) -> Vec<(shuai_board::Move, bool, Value)> {
    let mut out = Vec::new();
    for &m in pos.legal_moves().as_slice() {
        pos.make_move(m);
        out.push((m, pos.in_check(), set.probe(pos).unwrap()));
        pos.unmake_move();
    }
    out
}

#[test]
fn perpetual_check_results_are_consistent() {
    let set = krkh();
    let t = set.get(&Material::parse("KRKH").unwrap()).unwrap();
    let census = t.census();
    assert!(census.rule_wins > 0 && census.rule_losses > 0, "{census:?}");
    let wins = |v: Value| matches!(v, Value::Win(_) | Value::WinByRule(_));
    let (mut trapped, mut checked) = (0, 0);
    for i in 0..t.len() {
        let Some(mut pos) = t.layout().position(i) else {
            continue;
        };
        let v = t.value_at(i).unwrap();
        let kids = children(set, &mut pos);
        match v {
            // Trapped: every move loses, and the only moves that do not
            // lose to a mate are checks.
            Value::LossByRule(0) => {
                trapped += 1;
                assert!(kids.iter().all(|&(_, _, c)| wins(c)));
                assert!(kids.iter().all(
                    |&(_, check, c)| check || matches!(c, Value::Win(_) | Value::WinByRule(_))
                ));
                assert!(kids.iter().any(|&(_, check, _)| check));
            }
            Value::LossByRule(n) => {
                assert!(kids.iter().all(|&(_, _, c)| wins(c)));
                let worst = kids
                    .iter()
                    .filter_map(|&(_, _, c)| match c {
                        Value::WinByRule(k) => Some(k),
                        _ => None,
                    })
                    .max();
                assert_eq!(worst.map(|k| k + 1), Some(n));
            }
            // One move from the trap (the playout test below checks that
            // the winner then stays in it without checking).
            Value::WinByRule(1) => {
                assert!(kids.iter().any(|&(_, _, c)| c == Value::LossByRule(0)));
            }
            Value::WinByRule(n) => {
                let best = kids
                    .iter()
                    .filter_map(|&(_, _, c)| match c {
                        Value::LossByRule(k) => Some(k + 1),
                        _ => None,
                    })
                    .min();
                assert_eq!(best, Some(n));
            }
            // No draw has a move to a position its opponent loses by rule.
            Value::Draw => assert!(kids
                .iter()
                .all(|&(_, _, c)| !matches!(c, Value::Loss(_) | Value::LossByRule(_)))),
            _ => {}
        }
        checked += 1;
    }
    assert!(trapped > 0);
    assert_eq!(checked as u64, census.positions);
    // Everything else is the best of its children.
    let v = verify::verify(t, set, 0..t.len());
    assert_eq!(v.wrong_count, 0, "{:?}", v.wrong);
    assert_eq!(v.checked + v.rule, census.positions);
}

#[test]
fn perpetual_check_wins_end_in_mate_or_a_checking_cycle() {
    // From every position won by the rule: the winner plays table moves,
    // the loser random moves, mostly checks. The game must end in mate, or repeat a
    // position in a cycle where the loser checked on every move and the
    // winner never did: a loss for the loser in both rule books, as the
    // board crate's referee judges it.
    let set = krkh();
    let t = set.get(&Material::parse("KRKH").unwrap()).unwrap();
    let mut rng = Rng::new(7);
    let (mut mates, mut cycles) = (0, 0);
    for i in 0..t.len() {
        let Some(Value::WinByRule(_)) = t.value_at(i) else {
            continue;
        };
        let mut pos = t.layout().position(i).unwrap();
        let winner = pos.side_to_move();
        // (key, did the move into it give check, who moved)
        let mut seen: Vec<(u64, bool, Color)> = vec![(pos.key(), false, !winner)];
        loop {
            if !pos.has_legal_move() {
                assert_ne!(pos.side_to_move(), winner);
                mates += 1;
                break;
            }
            let mover = pos.side_to_move();
            let m = if mover == winner {
                set.best_move(&pos).unwrap().0
            } else {
                // Mostly checks (the loser's only way to hold on), now and
                // then any move.
                let mut moves = pos.legal_moves();
                let all = moves.clone();
                moves.retain(|m| pos.gives_check(m));
                let pick = if moves.is_empty() || rng.next_u64() % 4 == 0 {
                    &all
                } else {
                    &moves
                };
                pick.as_slice()[(rng.next_u64() % pick.len() as u64) as usize]
            };
            pos.make_move(m);
            let check = pos.in_check();
            if let Some(start) = seen.iter().position(|&(k, _, _)| k == pos.key()) {
                let cycle = &seen[start + 1..];
                let last = (pos.key(), check, mover);
                let all = cycle.iter().chain(std::iter::once(&last));
                let (mut loser_always, mut winner_ever) = (true, false);
                for &(_, c, who) in all {
                    if who == winner {
                        winner_ever |= c;
                    } else {
                        loser_always &= c;
                    }
                }
                assert!(loser_always && !winner_ever, "{}", pos.to_fen());
                // The project's referee, under both books, on the game
                // played: perpetual check by the loser.
                for book in RuleBook::ALL {
                    let opts = RuleOptions {
                        occurrences: 2,
                        book,
                        ..RuleOptions::default()
                    };
                    let verdict = judge_repetition_with(&pos, &opts).expect("a repetition");
                    assert_eq!(
                        verdict.reason,
                        Reason::PerpetualCheck { loser: !winner },
                        "{book:?}: {}",
                        verdict.explanation
                    );
                }
                cycles += 1;
                break;
            }
            seen.push((pos.key(), check, mover));
            assert!(seen.len() < 400, "no end from index {i}");
        }
    }
    eprintln!("{mates} mates, {cycles} perpetual-check cycles");
    assert!(mates + cycles > 100, "{mates} mates, {cycles} cycles");
    assert!(cycles > 0);
}

/// The long check of written tables (`EGTB_DIR=/path cargo test --release
/// -p shuai-egtb -- --ignored`): in every file of the directory, sampled
/// positions equal the best of their children, and table moves from
/// sampled won or lost positions (20 per table) mate in exactly the
/// stated distance.
#[test]
#[ignore]
fn written_tables_are_consistent() {
    let Some(dir) = std::env::var_os("EGTB_DIR") else {
        panic!("set EGTB_DIR to a directory of written tables to check them");
    };
    let dir = std::path::PathBuf::from(dir);
    let tb = shuai_egtb::Tablebase::open(&dir);
    let mut rng = Rng::new(30);
    let (mut tables, mut positions, mut playouts) = (0, 0u64, 0u64);
    for m in shuai_egtb::stage1()
        .into_iter()
        .flat_map(|m| m.closure())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let Some(t) = tb.table(m) else {
            continue;
        };
        let mut set = TableSet::new();
        set.insert(t.clone());
        for c in m.captures() {
            set.insert(tb.table(c).expect("a table's captures are written first"));
        }
        let step = (t.len() / 20_000).max(1);
        let v = verify::verify(&t, &set, (0..t.len()).step_by(step));
        assert_eq!(v.wrong_count, 0, "{m}: {:?}", v.wrong);
        positions += v.checked;
        let (mut tries, mut here) = (0, 0);
        while tries < 2000 && here < 20 {
            tries += 1;
            let i = (rng.next_u64() % t.len() as u64) as usize;
            let (Some(p), Some(Value::Win(n) | Value::Loss(n))) =
                (t.layout().position(i), t.value_at(i))
            else {
                continue;
            };
            assert_eq!(
                play_out_tb(&tb, p.clone(), 500),
                n as usize,
                "{m} {}",
                p.to_fen()
            );
            playouts += 1;
            here += 1;
        }
        tables += 1;
    }
    assert!(tb.take_errors().is_empty());
    assert!(tables > 0, "no stage-1 table in {}", dir.display());
    eprintln!("{tables} tables, {positions} positions checked, {playouts} playouts");
}

/// [`play_out`] against a directory of files.
fn play_out_tb(tb: &shuai_egtb::Tablebase, mut pos: Position, limit: usize) -> usize {
    let mut plies = 0;
    while plies < limit && pos.has_legal_move() {
        let (m, _) = tb.best_move(&pos).expect("covered");
        pos.make_move(m);
        plies += 1;
    }
    plies
}

/// Every value of `t`, folded into one number (FNV-1a over the values'
/// kinds and plies).
fn values_digest(t: &Table) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for i in 0..t.len() {
        let word = match t.value_at(i) {
            None => 0,
            Some(Value::Draw) => 1,
            Some(Value::Win(n)) => 0x1_0000 | u64::from(n),
            Some(Value::Loss(n)) => 0x2_0000 | u64::from(n),
            Some(Value::WinByRule(n)) => 0x3_0000 | u64::from(n),
            Some(Value::LossByRule(n)) => 0x4_0000 | u64::from(n),
        };
        for b in word.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

#[test]
fn the_rule_results_of_two_endings_are_pinned() {
    // The perpetual-check rule's results on an ending with a trap of its
    // own (KRKH) and on one whose approach also starts from the rule
    // results a capture leads to (KRAKH captures into KRKH), pinned to
    // the position so that a faster way of finding them (the rule's
    // passes are most of a large ending's generation time) must find
    // exactly the same. Counts as in egtb/TABLES.md.
    let set = generate_set(Material::parse("KRAKH").unwrap(), &mut |_, _| {}).unwrap();
    let mut got = Vec::new();
    for name in ["KRKH", "KRAKH"] {
        let t = set.get(&Material::parse(name).unwrap()).unwrap();
        let c = t.census();
        got.push((name, c.rule_wins, c.rule_losses, values_digest(t)));
    }
    assert_eq!(
        got,
        vec![
            ("KRKH", 312, 1285, 71150820433623922),
            ("KRAKH", 1704, 6804, 15788201695009172918)
        ]
    );
}
