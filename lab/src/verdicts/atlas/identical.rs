//! Before a phase is played: are its two searches the same? A phase whose
//! variant searches exactly as its parent at the atlas's nodes (a switch
//! that acts only beyond them, an option the search never reads) would play
//! a thousand games of pairs split 1-1, the same game twice. So each side
//! searches `go nodes N` from every opening the match would start from, in
//! the match's order; if everything both print is the same, the atlas
//! records the pair as identical, with 0 games, instead of playing it.
//!
//! "Everything" is each `info` line's depth, seldepth, nodes, score and
//! principal variation, every `info string`, and the best and ponder moves:
//! all the engines print but the time and the speed, which differ from one
//! run of the same search to the next.

use std::time::Duration;

use anyhow::{Context, Result};
use games::engine::{Launch, SearchOutput};
use games::matches::book::Book;
use games::matches::game::Player;

/// How long one search of the check may take: `go nodes N` at the atlas's
/// node counts takes well under a second.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(120);

/// What the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sameness {
    /// Both searched alike from every one of this many openings.
    Identical { openings: u64 },
    /// They differ, first from the opening of this book line.
    Differs { line: u32 },
}

/// What a search printed, less the time and the speed.
fn printed(output: &SearchOutput) -> impl PartialEq + std::fmt::Debug {
    let infos: Vec<_> =
        output.infos.iter().map(|info| (info.depth, info.seldepth, info.nodes, info.score, info.pv.clone())).collect();
    (infos, output.strings.clone(), output.bestmove.clone(), output.ponder.clone())
}

/// Searches `go nodes nodes` with both sides (name and binary) from the
/// first `openings` openings of `book` in the order `seed` fixes (a match's
/// pairs, one opening each), each search after `ucinewgame`, and stops at
/// the first difference.
pub fn compare(
    sides: [(&str, &Launch); 2],
    book: Book,
    seed: u64,
    openings: u64,
    (nodes, hash_mb): (u64, u32),
) -> Result<Sameness> {
    let mut players = sides.map(|(name, launch)| Player::new(name, launch, hash_mb));
    let mut sequence = book.sequence(seed);
    let go = format!("go nodes {nodes}");
    for _ in 0..openings {
        let (opening, _) = sequence.next_opening()?;
        let position = opening.position_command();
        let mut outputs = Vec::new();
        for player in &mut players {
            let name = player.name.clone();
            let engine = player.start().with_context(|| format!("cannot start engine {name}"))?;
            engine.new_game()?;
            let output = engine
                .go(&position, &go, SEARCH_TIMEOUT)
                .with_context(|| format!("{name} from book line {}", opening.line))?;
            outputs.push(printed(&output));
        }
        if outputs[0] != outputs[1] {
            return Ok(Sameness::Differs { line: opening.line });
        }
    }
    Ok(Sameness::Identical { openings })
}
