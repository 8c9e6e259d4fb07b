//! Probes FENs against endings generated in memory (a development aid).
use shuai_board::Position;
use shuai_egtb::{generate_set, line_with, Material};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(name) = args.next() else {
        eprintln!("usage: probe_fen ENDING FEN...");
        return;
    };
    let Ok(m) = Material::parse(&name) else {
        eprintln!("bad ending {name}");
        return;
    };
    let set = generate_set(m, &mut |_, _| {}).expect("generation");
    for fen in args {
        match Position::from_fen(&fen) {
            Ok(pos) => {
                let line: Vec<String> = line_with(&pos, 100, |p| set.probe(p))
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                println!("{fen}: {:?} {}", set.probe(&pos), line.join(" "));
            }
            Err(e) => println!("{fen}: {e}"),
        }
    }
}
