//! Prints the census of endings generated in memory (a quick look while
//! developing; `shuai-tools egtb gen` is the real command).
use shuai_egtb::{generate_set, Material};
use std::time::Instant;

fn main() {
    for name in std::env::args().skip(1) {
        let Ok(m) = Material::parse(&name) else {
            eprintln!("bad name {name}");
            continue;
        };
        let t = Instant::now();
        let set = generate_set(m, &mut |_, _| {}).expect("generation");
        for sub in m.closure() {
            let table = set.get(&sub).expect("generated");
            println!("{sub}: {:?}", table.census());
        }
        println!("{name}: {:.2}s", t.elapsed().as_secs_f64());
        let table = set.get(&m.canonical().0).expect("generated");
        // One position of each kind of rule result, to look at.
        for want in [
            shuai_egtb::Value::LossByRule(0),
            shuai_egtb::Value::WinByRule(1),
        ] {
            if let Some(i) = (0..table.len()).find(|&i| table.value_at(i) == Some(want)) {
                let pos = table.layout().position(i).expect("a position");
                println!("{name}: {want:?} {}", pos.to_fen());
            }
        }
        let step = (table.len() / 200_000).max(1);
        let v = shuai_egtb::verify::verify(table, &set, (0..table.len()).step_by(step));
        println!(
            "{name}: {} checked, {} with rule results skipped, {} wrong {:?}",
            v.checked, v.rule, v.wrong_count, v.wrong
        );
    }
}
