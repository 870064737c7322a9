//! `lab match A B`: the games crate's match runner between two
//! participants, each resolved here to the binary it runs (a variant's
//! build, `uci:PATH`, another engine's variant, or `--binary`); the match's
//! standing is the command's exit status.

use anyhow::Result;
use games::matches::{check_book, run_match, summary_markdown, MatchArgs};
use games::statistics::{SprtState, SprtStatus};

use crate::engines::participant;
use crate::lab::Lab;
use crate::verdicts::verdict::Standing;

/// `lab match A B`.
/// Plays the match; its standing is its exit status: an SPRT that accepted
/// H0 says the first engine gained nothing (docs/verdicts.md, "Exit status").
pub fn command(lab: &Lab, args: &MatchArgs) -> Result<Standing> {
    // A book that cannot be read is an error now, not after the builds.
    check_book(&lab.session(), args.book.as_deref())?;
    let binary_a = participant::engine_binary(lab, args, &args.engine_a)?;
    let binary_b = if args.engine_b == args.engine_a {
        binary_a.clone()
    } else {
        participant::engine_binary(lab, args, &args.engine_b)?
    };
    let outcome = run_match(&lab.session(), (&args.engine_a, &binary_a), (&args.engine_b, &binary_b), args)?;
    lab.say(&format!("results: {}", outcome.run_dir.display()));
    if lab.global.json {
        println!("{}", serde_json::to_string_pretty(&outcome.summary)?);
    } else {
        print!("{}", summary_markdown(&outcome.summary));
    }
    Ok(standing_of(outcome.summary.sprt_status.as_ref()))
}

/// A match stands unless its SPRT accepted H0.
fn standing_of(sprt: Option<&SprtStatus>) -> Standing {
    match sprt.map(|status| status.verdict) {
        Some(SprtState::AcceptH0) => Standing::Contradicted,
        _ => Standing::Stands,
    }
}

#[cfg(test)]
mod tests {
    use games::statistics::{Model, Pentanomial, SprtSettings};

    use super::*;

    #[test]
    fn a_match_whose_sprt_accepted_h0_exits_as_contradicted() {
        let sprt = SprtSettings { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model: Model::Normalized };
        let status = |penta: [u64; 5]| sprt.on_pairs(&Pentanomial(penta));
        let losing = status([60, 200, 400, 150, 20]);
        assert_eq!(losing.verdict, SprtState::AcceptH0, "{losing:?}");
        assert_eq!(standing_of(Some(&losing)), Standing::Contradicted);
        let winning = status([20, 150, 400, 220, 60]);
        assert_eq!(winning.verdict, SprtState::AcceptH1, "{winning:?}");
        assert_eq!(standing_of(Some(&winning)), Standing::Stands);
        let running = status([2, 3, 4, 3, 2]);
        assert_eq!(running.verdict, SprtState::Continue, "{running:?}");
        assert_eq!(standing_of(Some(&running)), Standing::Stands);
        assert_eq!(standing_of(None), Standing::Stands, "a match without an SPRT decides no exit status");
    }
}
