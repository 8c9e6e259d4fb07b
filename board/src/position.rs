//! The position: placement, side to move, counters, hash key and history.

use crate::attacks;
use crate::{zobrist, Bitboard, Color, Move, Piece, PieceKind, Square, SQUARES};

/// What `make_move` must remember so that `unmake_move` can restore the
/// position exactly.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    key: u64,
    halfmove_clock: u16,
    reversible_plies: u16,
}

/// A Xiangqi position with its move history.
///
/// The history (an undo stack) makes `unmake_move` exact and lets search and
/// referees see earlier hash keys for repetition detection.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; SQUARES],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
    side: Color,
    halfmove_clock: u16,
    fullmove_number: u16,
    key: u64,
    /// Plies of history since the last capture or null move (positions
    /// further back cannot repeat the current one).
    reversible_plies: u16,
    history: Vec<Undo>,
}

impl Position {
    /// An empty board with Red to move; the FEN parser fills it.
    pub(crate) fn empty() -> Position {
        Position::empty_with_history_capacity(256)
    }

    pub(crate) fn empty_with_history_capacity(capacity: usize) -> Position {
        Position {
            board: [None; SQUARES],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            side: Color::Red,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            reversible_plies: 0,
            history: Vec::with_capacity(capacity),
        }
    }

    /// An empty board with no room reserved for history (see
    /// [`Position::from_pieces`]).
    pub(crate) fn empty_without_history() -> Position {
        Position::empty_with_history_capacity(0)
    }

    /// Empties the board and the history (keeping the history's memory):
    /// an empty board with Red to move and counters at zero.
    pub(crate) fn clear(&mut self) {
        for sq in self.occupied() {
            self.board[sq.index()] = None;
        }
        self.by_color = [Bitboard::EMPTY; 2];
        self.by_kind = [Bitboard::EMPTY; 7];
        self.side = Color::Red;
        self.halfmove_clock = 0;
        self.fullmove_number = 1;
        self.key = 0;
        self.reversible_plies = 0;
        self.history.clear();
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(crate::START_FEN).expect("the start FEN is valid")
    }

    /// Places `piece` on the empty point `sq`, updating the hash key.
    #[inline]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        let b = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color().index()] ^= b;
        self.by_kind[piece.kind().index()] ^= b;
        self.key ^= zobrist::piece_key(piece, sq);
    }

    /// Takes `piece` off `sq`, updating the hash key.
    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.board[sq.index()] = None;
        self.by_color[piece.color().index()] ^= b;
        self.by_kind[piece.kind().index()] ^= b;
        self.key ^= zobrist::piece_key(piece, sq);
    }

    pub(crate) fn set_side_to_move(&mut self, side: Color) {
        if self.side != side {
            self.key ^= zobrist::side_key();
            self.side = side;
        }
    }

    pub(crate) fn set_counters(&mut self, halfmove_clock: u16, fullmove_number: u16) {
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number.max(1);
    }

    // ----- queries -------------------------------------------------------

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies since the last capture (the natural-move-limit counter).
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and counting Black's moves.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// The Zobrist key of placement and side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key [`Position::key`] will have after `m` (a move of a piece of
    /// the side to move), without playing it: the search asks for the
    /// child's hash-table bucket while it still decides whether to play
    /// the move at all.
    ///
    /// # Panics
    /// Panics if no piece stands on `m`'s from point.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()].expect("key_after: no piece on the from point");
        let mut key = self.key
            ^ zobrist::piece_key(piece, from)
            ^ zobrist::piece_key(piece, to)
            ^ zobrist::side_key();
        if let Some(c) = self.board[to.index()] {
            key ^= zobrist::piece_key(c, to);
        }
        key
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The points holding `color`'s pieces.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The points holding pieces of `kind`, either side.
    #[inline]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The points holding `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Where `color`'s king stands.
    ///
    /// Every `Position` has both kings: the FEN parser rejects boards without
    /// them and no legal move captures a king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King)
            .first()
            .expect("both kings are always on the board")
    }

    /// Number of plies played since the position was set up.
    #[inline]
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    /// The moves played since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl DoubleEndedIterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The hash keys of earlier positions, oldest first (not including the
    /// current one).
    pub fn previous_keys(&self) -> impl DoubleEndedIterator<Item = u64> + ExactSizeIterator + '_ {
        self.history.iter().map(|u| u.key)
    }

    /// Distances in plies (4, 6, …, nearest first) back to earlier
    /// occurrences of the current position (same placement, same side to
    /// move). The search stops at the last capture or null move, across
    /// which no position can repeat.
    pub fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let reversible = usize::from(self.reversible_plies);
        let len = self.history.len();
        let key = self.key;
        (4..=reversible)
            .step_by(2)
            .filter(move |&d| self.history[len - d].key == key)
    }

    /// The piece captured by the last move played, if any.
    pub fn last_captured(&self) -> Option<Piece> {
        self.history.last().and_then(|u| u.captured)
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// Forgets the move history (keeps the position). Used when a game
    /// record is cut at an irreversible move.
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.reversible_plies = 0;
    }

    /// The key recomputed from scratch; equals [`Position::key`] unless the
    /// incremental updates have a bug.
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            zobrist::side_key()
        } else {
            0
        };
        for sq in self.occupied() {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::piece_key(p, sq);
            }
        }
        key
    }

    // ----- attacks -------------------------------------------------------

    /// `by`'s pieces (among `their_pieces`) that attack the king point `ks`
    /// given `occ`, including the enemy king along an open file (the
    /// flying-general rule). Advisors and elephants never leave their own
    /// half, and the kings can never meet by a step, so they are skipped.
    #[inline]
    fn king_attackers(
        &self,
        ks: Square,
        by: Color,
        occ: Bitboard,
        their_pieces: Bitboard,
    ) -> Bitboard {
        let rooks = self.by_kind[PieceKind::Rook.index()];
        let kings = self.by_kind[PieceKind::King.index()];
        let cannons = self.by_kind[PieceKind::Cannon.index()];
        let horses = self.by_kind[PieceKind::Horse.index()];
        let pawns = self.by_kind[PieceKind::Pawn.index()];
        // The rank and file are each read once for rooks, cannons and the
        // facing king, rather than once per attack function.
        let (rank_near, rank_beyond) = attacks::rank_lines(ks, occ);
        let (file_near, file_beyond) = attacks::file_screens(ks, occ);
        let lines = (rank_near & rooks) | (file_near & (rooks | kings));
        let jumps = (rank_beyond | file_beyond) & cannons;
        let horses = attacks::horse_attackers(ks, occ) & horses;
        let pawns = attacks::pawn_attackers(by, ks) & pawns;
        (lines | jumps | horses | pawns) & their_pieces
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        self.king_attackers(
            self.king_square(us),
            !us,
            self.occupied(),
            self.by_color[(!us).index()],
        )
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether `color`'s king is attacked (for `color` not to move, that
    /// makes the position illegal).
    pub fn king_attacked(&self, color: Color) -> bool {
        self.king_attackers(
            self.king_square(color),
            !color,
            self.occupied(),
            self.by_color[(!color).index()],
        )
        .any()
    }

    /// All pieces of `by` that attack `sq` given `occ`: every kind, king
    /// and advisor steps included (the flying-general line is not a capture
    /// of an ordinary point and is not included).
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let k = |kind: PieceKind| self.by_kind[kind.index()];
        let set = (attacks::rook(sq, occ) & k(PieceKind::Rook))
            | (attacks::cannon_captures(sq, occ) & k(PieceKind::Cannon))
            | (attacks::horse_attackers(sq, occ) & k(PieceKind::Horse))
            | (attacks::pawn_attackers(by, sq) & k(PieceKind::Pawn))
            | (attacks::king(sq) & k(PieceKind::King))
            | (attacks::advisor(sq) & k(PieceKind::Advisor))
            | (attacks::elephant(sq, occ) & k(PieceKind::Elephant));
        set & self.by_color[by.index()] & occ
    }

    /// Points attacked by the piece on `sq` (captures included, own pieces
    /// included), given the current occupancy; empty if `sq` is empty.
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        let Some(piece) = self.piece_at(sq) else {
            return Bitboard::EMPTY;
        };
        piece_attacks(piece, sq, self.occupied())
    }

    /// `color`'s pieces that may not simply leave their point: taking one
    /// off the board would expose `color`'s king to attack (a rook or king
    /// line, a cannon screen of either of its two blockers, a horse leg).
    pub fn pinned(&self, color: Color) -> Bitboard {
        let ks = self.king_square(color);
        let occ = self.occupied();
        let theirs = self.by_color[(!color).index()];
        let candidates = self.king_blocker_candidates(ks, occ) & self.by_color[color.index()];
        candidates
            .into_iter()
            .filter(|&sq| {
                self.king_attackers(ks, !color, occ.without(sq), theirs)
                    .any()
            })
            .collect()
    }

    /// Points whose vacating could expose the king on `ks`: the first and
    /// second occupied points on each line from the king (rook and cannon
    /// lines) and the four horse legs next to it.
    #[inline]
    pub(crate) fn king_blocker_candidates(&self, ks: Square, occ: Bitboard) -> Bitboard {
        (attacks::rook(ks, occ) & occ)
            | attacks::cannon_captures(ks, occ)
            | attacks::horse_attacker_legs(ks)
    }

    /// One pass over the lines and horse paths around the side to move's
    /// king: the checkers, and the exact points where a move needs a full
    /// legality test.
    pub fn king_shield(&self) -> KingShield {
        let us = self.side;
        let ks = self.king_square(us);
        let occ = self.occupied();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[(!us).index()];
        let their_rooks = self.by_kind[PieceKind::Rook.index()] & theirs;
        let their_cannons = self.by_kind[PieceKind::Cannon.index()] & theirs;
        let their_king = self.by_kind[PieceKind::King.index()] & theirs;
        let mut shield = KingShield::default();
        // Where a move of a piece other than the king must land to answer a
        // check (onto the checker or between it and the king), and the
        // cannon screen of ours that may answer it by stepping away.
        let mut answers = Bitboard::EMPTY;
        let mut screen = Bitboard::EMPTY;
        for dir in attacks::DIRECTIONS {
            let ray = attacks::ray(dir, ks);
            let line = ray & occ;
            if line.is_empty() {
                continue;
            }
            // A rook, or the enemy king on the file, attacks along the line.
            let liners = if attacks::is_vertical(dir) {
                their_rooks | their_king
            } else {
                their_rooks
            };
            let b1 = attacks::nearest_on_ray(dir, line);
            let after1 = attacks::ray(dir, b1) & occ;
            if their_cannons.has(b1) {
                // A piece dropped in front of this cannon becomes its screen.
                shield.risky_to |= ray & !attacks::ray(dir, b1).with(b1);
            }
            if liners.has(b1) {
                shield.checkers |= Bitboard::from_square(b1);
                answers |= ray & !attacks::ray(dir, b1);
            }
            if after1.is_empty() {
                continue;
            }
            let b2 = attacks::nearest_on_ray(dir, after1);
            if their_cannons.has(b2) {
                shield.checkers |= Bitboard::from_square(b2);
                answers |= ray & !attacks::ray(dir, b2);
                screen |= Bitboard::from_square(b1) & ours;
            }
            if ours.has(b1) && liners.has(b2) {
                shield.risky_from |= Bitboard::from_square(b1);
            }
            let after2 = attacks::ray(dir, b2) & occ;
            if after2.is_empty() {
                continue;
            }
            let b3 = attacks::nearest_on_ray(dir, after2);
            if their_cannons.has(b3) {
                // Either of the two pieces in front may be the one to leave.
                shield.risky_from |= (Bitboard::from_square(b1) | Bitboard::from_square(b2)) & ours;
            }
        }
        let their_horses = self.by_kind[PieceKind::Horse.index()] & theirs;
        for (leg, sources) in attacks::horse_attack_paths(ks) {
            let horses = sources & their_horses;
            if horses.any() {
                if (occ & leg).is_empty() {
                    shield.checkers |= horses;
                    answers |= horses | leg;
                } else {
                    shield.risky_from |= ours & leg;
                }
            }
        }
        let pawns =
            attacks::pawn_attackers(!us, ks) & self.by_kind[PieceKind::Pawn.index()] & theirs;
        shield.checkers |= pawns;
        answers |= pawns;
        shield.risky_from |= Bitboard::from_square(ks);
        if shield.checkers.any() {
            shield.risky_from = Bitboard::FULL;
            // Two checkers can sometimes be answered by one interposition
            // (a rook that is also a cannon's screen), so only a single
            // check narrows the targets.
            if !shield.checkers.more_than_one() {
                shield.no_answer = !answers;
                shield.free_from = screen.with(ks);
            }
        }
        shield
    }

    /// Whether `m`, assumed pseudo-legal, leaves the mover's king safe.
    #[inline]
    pub(crate) fn king_safe_after(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let to_bb = Bitboard::from_square(to);
        let moving_king = self.by_kind[PieceKind::King.index()].has(from);
        let ks = if moving_king {
            to
        } else {
            self.king_square(us)
        };
        let occ = self.occupied().without(from) | to_bb;
        let theirs = self.by_color[(!us).index()] & !to_bb;
        self.king_attackers(ks, !us, occ, theirs).is_empty()
    }

    /// Whether `m` gives check to the opponent (assumes `m` is legal).
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        // Most moves are nowhere near the enemy king: a table says so
        // before the lines are read (the slow part stays out of line).
        let ks = self.king_square(!self.side);
        attacks::may_give_check(ks, m.from(), m.to()) && self.gives_check_near(m, ks)
    }

    /// [`Position::gives_check`] for a move that lands or leaves near the
    /// enemy king on `ks`.
    #[inline(never)]
    fn gives_check_near(&self, m: Move, ks: Square) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let us = self.side;
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        let occ = (self.occupied() ^ from_bb) | to_bb;
        let file = attacks::file_through(ks);
        let rank = attacks::rank_through(ks);
        // A direct check by the moved piece. Rooks, cannons and the king
        // need `to` on one of the king's lines, which is cheaper to test
        // than their attack sets.
        let direct = match piece.kind() {
            // Most horse moves do not even reach the king: the legs are
            // only read for those that do.
            PieceKind::Horse => attacks::horse_reach(to).has(ks) && attacks::horse(to, occ).has(ks),
            PieceKind::Pawn => attacks::pawn(us, to).has(ks),
            PieceKind::Rook => (to_bb & (file | rank)).any() && attacks::rook(to, occ).has(ks),
            PieceKind::Cannon => {
                (to_bb & (file | rank)).any() && attacks::cannon_captures(to, occ).has(ks)
            }
            PieceKind::King => (to_bb & file).any() && attacks::file_line(to, occ).has(ks),
            PieceKind::Advisor | PieceKind::Elephant => false,
        };
        if direct {
            return true;
        }
        // A discovered check by a piece that stays: only a line holding
        // `from` or `to` (a vacated line or a new cannon screen) or a horse
        // leg vacated by `from` can have changed, so only those are read.
        let ours = self.by_color[us.index()] ^ from_bb;
        let moved = from_bb | to_bb;
        let mut found = Bitboard::EMPTY;
        if (moved & rank).any() {
            let (near, beyond) = attacks::rank_lines(ks, occ);
            found |= (near & self.by_kind[PieceKind::Rook.index()])
                | (beyond & self.by_kind[PieceKind::Cannon.index()]);
        }
        if (moved & file).any() {
            let (near, beyond) = attacks::file_screens(ks, occ);
            let liners =
                self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::King.index()];
            found |= (near & liners) | (beyond & self.by_kind[PieceKind::Cannon.index()]);
        }
        if (from_bb & attacks::horse_attacker_legs(ks)).any() {
            found |= attacks::horse_attackers(ks, occ) & self.by_kind[PieceKind::Horse.index()];
        }
        (found & ours).any()
    }

    // ----- making moves --------------------------------------------------

    /// Plays `m`, which must be legal (or at least pseudo-legal: a move of a
    /// piece of the side to move that its rules allow).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()].expect("make_move: no piece on the from point");
        let captured = self.board[to.index()];
        self.history.push(Undo {
            mv: m,
            captured,
            key: self.key,
            halfmove_clock: self.halfmove_clock,
            reversible_plies: self.reversible_plies,
        });
        if let Some(c) = captured {
            self.remove(c, to);
            self.halfmove_clock = 0;
            self.reversible_plies = 0;
        } else {
            self.halfmove_clock = self.halfmove_clock.saturating_add(1);
            self.reversible_plies = self.reversible_plies.saturating_add(1);
        }
        // Move the piece with one XOR per board.
        let change = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.by_color[piece.color().index()] ^= change;
        self.by_kind[piece.kind().index()] ^= change;
        self.key ^=
            zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to) ^ zobrist::side_key();
        if self.side == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = !self.side;
    }

    /// Takes back the last move played by [`Position::make_move`].
    ///
    /// # Panics
    /// Panics if no move has been played (or the last was a null move).
    #[inline]
    pub fn unmake_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_move: no move to take back");
        let (from, to) = (undo.mv.from(), undo.mv.to());
        self.side = !self.side;
        if self.side == Color::Black {
            self.fullmove_number -= 1;
        }
        let piece = self.board[to.index()].expect("unmake_move: the moved piece is missing");
        let change = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.board[to.index()] = None;
        self.board[from.index()] = Some(piece);
        self.by_color[piece.color().index()] ^= change;
        self.by_kind[piece.kind().index()] ^= change;
        if let Some(c) = undo.captured {
            let b = Bitboard::from_square(to);
            self.board[to.index()] = Some(c);
            self.by_color[c.color().index()] ^= b;
            self.by_kind[c.kind().index()] ^= b;
        }
        self.key = undo.key;
        self.halfmove_clock = undo.halfmove_clock;
        self.reversible_plies = undo.reversible_plies;
    }

    /// Passes the move to the opponent (null-move search). The side to move
    /// must not be in check.
    pub fn make_null_move(&mut self) {
        self.history.push(Undo {
            mv: Move::NULL,
            captured: None,
            key: self.key,
            halfmove_clock: self.halfmove_clock,
            reversible_plies: self.reversible_plies,
        });
        self.key ^= zobrist::side_key();
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        self.reversible_plies = 0;
        self.side = !self.side;
    }

    /// Takes back a null move.
    pub fn unmake_null_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_null_move: nothing to take back");
        debug_assert!(undo.mv.is_null());
        self.side = !self.side;
        self.key = undo.key;
        self.halfmove_clock = undo.halfmove_clock;
        self.reversible_plies = undo.reversible_plies;
    }

    /// Whether `m` is legal here. Safe for any move, e.g. one read from a
    /// transposition table or typed by a user.
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.king_safe_after(m)
    }

    /// Whether `m` moves a piece of the side to move by that piece's rules
    /// (legality of the resulting king position aside).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if m.is_null() {
            return false;
        }
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color() != self.side || self.by_color[self.side.index()].has(to) {
            return false;
        }
        let occ = self.occupied();
        let targets = match piece.kind() {
            PieceKind::Cannon => {
                if self.board[to.index()].is_some() {
                    attacks::cannon_captures(from, occ)
                } else {
                    attacks::rook(from, occ) & !occ
                }
            }
            _ => piece_attacks(piece, from, occ),
        };
        targets.has(to)
    }
}

/// What the move generator needs to know about the king of the side to
/// move: computed once per position by [`Position::king_shield`], it also
/// answers whether the side is in check, so a search can reuse it for
/// [`Position::generate_with_shield`].
#[derive(Clone, Copy, Debug, Default)]
pub struct KingShield {
    /// Enemy pieces giving check.
    checkers: Bitboard,
    /// Points whose piece's moves need a full legality test: the king, our
    /// pieces whose leaving opens a line or a horse leg onto the king, and
    /// every point when in check.
    risky_from: Bitboard,
    /// Empty points where a piece would become the screen of an enemy
    /// cannon aimed at the king.
    risky_to: Bitboard,
    /// Under a single check: the points where no move of a piece outside
    /// `free_from` can answer it (neither the checker nor a point between
    /// it and the king, nor a horse checker's leg). Empty otherwise, so a
    /// default shield restricts nothing.
    no_answer: Bitboard,
    /// Under a single check: the king and the cannon checker's screen if it
    /// is ours, whose moves answer the check wherever they go.
    free_from: Bitboard,
}

impl KingShield {
    /// The enemy pieces giving check.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// The points a piece on `from` may move to without certainly leaving
    /// its king in check: every point unless a single check restricts them.
    #[inline]
    pub(crate) fn answer_targets(&self, from: Square) -> Bitboard {
        if self.free_from.has(from) {
            Bitboard::FULL
        } else {
            !self.no_answer
        }
    }

    /// The points of `targets` where a move from `from` needs a full
    /// legality test.
    #[inline]
    pub(crate) fn risky_targets(&self, from: Square, targets: Bitboard) -> Bitboard {
        if self.risky_from.has(from) {
            targets
        } else {
            targets & self.risky_to
        }
    }

    /// Whether the move `m` needs the full legality test (it moves the
    /// king, a piece that may be shielding it, or lands where it may
    /// become an enemy cannon's screen; or the side is in check).
    #[inline]
    pub(crate) fn needs_test(&self, m: Move) -> bool {
        self.risky_from.has(m.from()) || self.risky_to.has(m.to())
    }
}

/// Points `piece` on `sq` attacks given `occ` (captures for cannons).
#[inline]
pub(crate) fn piece_attacks(piece: Piece, sq: Square, occ: Bitboard) -> Bitboard {
    match piece.kind() {
        PieceKind::King => attacks::king(sq),
        PieceKind::Advisor => attacks::advisor(sq),
        PieceKind::Elephant => attacks::elephant(sq, occ),
        PieceKind::Horse => attacks::horse(sq, occ),
        PieceKind::Rook => attacks::rook(sq, occ),
        PieceKind::Cannon => attacks::cannon_captures(sq, occ),
        PieceKind::Pawn => attacks::pawn(piece.color(), sq),
    }
}

impl PartialEq for Position {
    /// Positions are equal when placement, side to move and counters are;
    /// the move history is not compared.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
            && self.key == other.key
    }
}

impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl std::fmt::Display for Position {
    /// A plain-text board, rank 9 at the top, with ICCS labels.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in crate::Rank::ALL.iter().rev() {
            write!(f, "{} ", rank.to_char())?;
            for file in crate::File::ALL {
                let c = self
                    .piece_at(Square::new(file, *rank))
                    .map_or('.', Piece::fen_char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")
    }
}
