//! Reading a FEN for people and GUIs: composed positions are accepted with
//! one warning line, everything else that cannot be played is refused.

use shuai_board::{FenError, Position};

/// Reads `text` leniently ([`Position::from_fen_lenient`]): a composed
/// position that no game can reach (a pawn behind its starting rank, an
/// advisor or elephant off its points, more pieces of a kind than a set
/// has) comes back with one warning line naming each such point; a FEN
/// that cannot be played or judged is an error.
pub fn read_fen(text: &str) -> Result<(Position, Option<String>), FenError> {
    let (pos, warnings) = Position::from_fen_lenient(text)?;
    let warning = (!warnings.is_empty()).then(|| {
        let points: Vec<String> = warnings.iter().map(ToString::to_string).collect();
        format!(
            "composed position accepted, though no game can reach it: {}",
            points.join("; ")
        )
    });
    Ok((pos, warning))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_warning_line_for_a_composition() {
        let (_, warning) = read_fen("4k4/9/9/9/9/9/9/P8/9/3KA4 w").unwrap();
        assert_eq!(
            warning.as_deref(),
            Some(
                "composed position accepted, though no game can reach it: pawn on a2 is behind \
                 its starting rank; piece 'A' on e0 stands on a point it can never reach"
            )
        );
        assert_eq!(read_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").unwrap().1, None);
        assert!(read_fen("4k4/9/9/9/9/9/9/9/9/K8 w").is_err());
    }
}
