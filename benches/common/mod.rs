//! What the search benches share: the positions they time.

use std::path::Path;

use prunelab::data;
use prunelab::position::Position;

/// seeds.epd's positions with their ids, from the data folder
/// (`$PRUNELAB_DATA`, else the repository's `data/`).
pub fn seed_positions() -> Vec<(String, Position)> {
    let text = data::folder(Path::new(env!("CARGO_MANIFEST_DIR")))
        .and_then(|folder| data::read(&folder, data::SEEDS))
        .unwrap_or_else(|error| panic!("{error:#}"));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fen: Vec<&str> = line.split_whitespace().take(4).collect();
            let id = line.split('"').nth(1).unwrap_or("?").to_string();
            (id, Position::from_fen(&fen.join(" ")).expect("seeds.epd holds valid positions"))
        })
        .collect()
}
