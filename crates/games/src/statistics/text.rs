//! How the statistics read as text: numbers without a negative zero, the
//! pentanomial, estimates, the LLR, and the match runner's running line.

use super::elo::{elo_penta, elo_wdl, nelo_penta, nelo_wdl, Estimate};
use super::outcomes::{Pentanomial, Wdl};
use super::sprt::{SprtSettings, SprtStatus};

/// `value` with `decimals` decimals, and no "-" on a value that rounds to 0.
pub fn fixed(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    match text.strip_prefix('-') {
        Some(magnitude) if magnitude.chars().all(|c| c == '0' || c == '.') => magnitude.to_string(),
        _ => text,
    }
}

/// `14.5 ± 30.1`, or `n/a` without games.
pub fn format_estimate(estimate: &Estimate, games: u64) -> String {
    if games == 0 {
        "n/a".to_string()
    } else {
        format!("{} ± {}", fixed(estimate.value, 1), fixed(estimate.error(), 1))
    }
}

pub fn format_penta(penta: &Pentanomial) -> String {
    let [ll, ld, dd_wl, wd, ww] = penta.0;
    format!("[{ll}, {ld}, {dd_wl}, {wd}, {ww}]")
}

/// `LLR 0.52 (-2.94, 2.94) [0, 5]`.
fn format_llr(status: &SprtStatus, elo0: f64, elo1: f64) -> String {
    format!("LLR {} ({:.2}, {:.2}) [{elo0}, {elo1}]", fixed(status.llr, 2), status.lower, status.upper)
}

/// The match runner's running line: games and W/L/D, the pentanomial, Elo
/// and nElo (from the pairs once there are any, else from the games), and
/// the LLR when an SPRT runs.
///
/// `Games 120: W 40 L 35 D 45 | Penta [2, 15, 26, 14, 3] | Elo 14.5 ± 30.1 | nElo 20.3 ± 42.0 | LLR 0.52 (-2.94, 2.94) [0, 5]`
pub fn running_line(wdl: &Wdl, penta: &Pentanomial, sprt: Option<&SprtSettings>) -> String {
    let (elo, nelo, games) = if penta.pairs() > 0 {
        (elo_penta(penta), nelo_penta(penta), penta.games())
    } else {
        (elo_wdl(wdl), nelo_wdl(wdl), wdl.games())
    };
    let mut line = format!(
        "Games {}: W {} L {} D {} | Penta {} | Elo {} | nElo {}",
        wdl.games(),
        wdl.wins,
        wdl.losses,
        wdl.draws,
        format_penta(penta),
        format_estimate(&elo, games),
        format_estimate(&nelo, games),
    );
    if let Some(settings) = sprt {
        line.push_str(" | ");
        line.push_str(&format_llr(&settings.on_pairs(penta), settings.elo0, settings.elo1));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::sprt::llr_penta;
    use crate::statistics::test_support::*;
    use crate::statistics::Model;

    const ZERO_TO_FIVE: SprtSettings =
        SprtSettings { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model: Model::Normalized };

    #[test]
    fn running_lines() {
        let games = wdl(40, 45, 35);
        let pairs = penta([2, 15, 26, 14, 3]);
        let line = running_line(&games, &pairs, Some(&ZERO_TO_FIVE));
        let elo = elo_penta(&pairs);
        let nelo = nelo_penta(&pairs);
        let llr = llr_penta(&pairs, 0.0, 5.0, Model::Normalized);
        assert_eq!(
            line,
            format!(
                "Games 120: W 40 L 35 D 45 | Penta [2, 15, 26, 14, 3] | Elo {:.1} ± {:.1} | nElo {:.1} ± {:.1} | \
                 LLR {llr:.2} (-2.94, 2.94) [0, 5]",
                elo.value,
                elo.error(),
                nelo.value,
                nelo.error()
            )
        );
        assert!(!running_line(&games, &pairs, None).contains("LLR"));
        // Before the first pair is complete, the estimates come from the games.
        let early = running_line(&wdl(1, 0, 0), &Pentanomial::default(), None);
        assert!(early.starts_with("Games 1: W 1 L 0 D 0 | Penta [0, 0, 0, 0, 0] | Elo 1"), "{early}");
    }

    #[test]
    fn rounded_zero_has_no_sign() {
        assert_eq!((fixed(-0.0, 2), fixed(-0.001, 2), fixed(-0.005, 1)), ("0.00".into(), "0.00".into(), "0.0".into()));
        assert_eq!((fixed(-0.01, 2), fixed(2.944, 2)), ("-0.01".into(), "2.94".into()));
    }
}
