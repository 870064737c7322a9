//! What the search benches share: the positions they time.

use prunelab::position::Position;

/// The plans' positions, read from the shared data beside the repository.
pub const SEEDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/suites/seeds.epd");

/// seeds.epd's positions with their ids.
pub fn seed_positions() -> Vec<(String, Position)> {
    let text = std::fs::read_to_string(SEEDS).unwrap_or_else(|err| panic!("cannot read {SEEDS}: {err}"));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fen: Vec<&str> = line.split_whitespace().take(4).collect();
            let id = line.split('"').nth(1).unwrap_or("?").to_string();
            (id, Position::from_fen(&fen.join(" ")).expect("seeds.epd holds valid positions"))
        })
        .collect()
}
