//! `lab sprt`: the match runner's SPRT and Elo (`crate::statistics`) on
//! results from elsewhere (fastchess, OpenBench, fishtest), to compare with
//! theirs number for number.

use std::io::Write;

use anyhow::{anyhow, bail, Result};
use clap::{ArgGroup, Args};
use serde_json::json;

use super::options::SprtOptions;
use crate::statistics::{
    elo_penta, elo_wdl, fixed, format_penta, nelo_penta, nelo_wdl, Estimate, Pentanomial, SprtSettings, SprtStatus, Wdl,
};

/// `lab sprt`: the SPRT and Elo of given results, e.g.
/// `lab sprt --penta 3,40,100,45,2 --sprt 0 5`.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("outcomes").required(true).args(["penta", "wdl"])))]
// An SPRT is what this command computes, so here its bounds are required.
#[command(mut_arg("sprt", |arg| arg.required(true)))]
pub struct SprtArgs {
    /// Game-pair results from the first engine's view: five counts
    /// LL,LD,DD+WL,WD,WW (fastchess's "Ptnml(0-2)", fishtest's pentanomial).
    #[arg(long, value_name = "LL,LD,DD+WL,WD,WW", allow_hyphen_values = true)]
    pub penta: Option<String>,
    /// Game results from the first engine's view: three counts W,D,L.
    #[arg(long, value_name = "W,D,L", allow_hyphen_values = true)]
    pub wdl: Option<String>,
    #[command(flatten)]
    pub sprt: SprtOptions,
}

/// The results `lab sprt` was given.
#[derive(Debug, PartialEq)]
enum Results {
    Pairs(Pentanomial),
    Games(Wdl),
}

/// Parses `count,count,...`: exactly `expected` whole numbers, spaces and
/// surrounding brackets allowed (so fastchess's `[3, 40, 100, 45, 2]` pastes).
fn parse_counts(option: &str, layout: &str, text: &str, expected: usize) -> Result<Vec<u64>> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    let fields: Vec<&str> = inner.split(',').map(str::trim).collect();
    if fields.len() != expected {
        bail!("{option} takes {expected} counts {layout}, but \"{text}\" has {}", fields.len());
    }
    fields
        .iter()
        .map(|field| {
            if field.strip_prefix('-').is_some_and(|magnitude| magnitude.parse::<f64>().is_ok()) {
                bail!("{option}: {field} is negative; counts are whole numbers >= 0");
            }
            match field.parse::<u64>() {
                Ok(count) => Ok(count),
                Err(_) => bail!("{option}: \"{field}\" is not a count (a whole number >= 0)"),
            }
        })
        .collect()
}

impl SprtArgs {
    fn results(&self) -> Result<Results> {
        match (&self.penta, &self.wdl) {
            (Some(text), None) => {
                let counts = parse_counts("--penta", "LL,LD,DD+WL,WD,WW", text, 5)?;
                Ok(Results::Pairs(Pentanomial([counts[0], counts[1], counts[2], counts[3], counts[4]])))
            }
            (None, Some(text)) => {
                let counts = parse_counts("--wdl", "W,D,L", text, 3)?;
                Ok(Results::Games(Wdl { wins: counts[0], draws: counts[1], losses: counts[2] }))
            }
            _ => bail!("give exactly one of --penta and --wdl"),
        }
    }

    /// The SPRT to run, checked.
    fn settings(&self) -> Result<SprtSettings> {
        self.sprt.settings()?.ok_or_else(|| anyhow!("lab sprt needs the SPRT's bounds: --sprt ELO0 ELO1"))
    }
}

/// What `lab sprt` reports on its results.
struct Report {
    settings: SprtSettings,
    status: SprtStatus,
    elo: Estimate,
    nelo: Estimate,
    games: u64,
}

impl Report {
    fn new(settings: SprtSettings, results: &Results) -> Report {
        match results {
            Results::Pairs(penta) => Report {
                settings,
                status: settings.on_pairs(penta),
                elo: elo_penta(penta),
                nelo: nelo_penta(penta),
                games: penta.games(),
            },
            Results::Games(wdl) => Report {
                settings,
                status: settings.on_games(wdl),
                elo: elo_wdl(wdl),
                nelo: nelo_wdl(wdl),
                games: wdl.games(),
            },
        }
    }

    /// The report for people:
    ///
    /// ```text
    /// LLR 0.04 (-2.94, 2.94) [0.00, 5.00] continue
    /// Model normalized, alpha 0.05, beta 0.05
    /// Pairs 190 (380 games): Penta [3, 40, 100, 45, 2]
    /// Elo 2.74 ± 18.38 (95%: -15.63 to 21.13)
    /// nElo 5.22 ± 34.93 (95%: -29.71 to 40.15)
    /// ```
    fn text(&self, results: &Results) -> String {
        let (settings, status) = (&self.settings, &self.status);
        let mut text = format!(
            "LLR {} ({:.2}, {:.2}) [{:.2}, {:.2}] {}\nModel {}, alpha {}, beta {}\n",
            fixed(status.llr, 2),
            status.lower,
            status.upper,
            settings.elo0,
            settings.elo1,
            status.verdict,
            settings.model,
            settings.alpha,
            settings.beta
        );
        text += &match results {
            Results::Pairs(penta) => {
                format!("Pairs {} ({} games): Penta {}\n", penta.pairs(), self.games, format_penta(penta))
            }
            Results::Games(wdl) => format!("Games {}: W {} D {} L {}\n", self.games, wdl.wins, wdl.draws, wdl.losses),
        };
        for (name, estimate) in [("Elo", &self.elo), ("nElo", &self.nelo)] {
            if self.games == 0 {
                text += &format!("{name} n/a\n");
            } else {
                text += &format!(
                    "{name} {} ± {} (95%: {} to {})\n",
                    fixed(estimate.value, 2),
                    fixed(estimate.error(), 2),
                    fixed(estimate.low, 2),
                    fixed(estimate.high, 2)
                );
            }
        }
        text
    }

    /// The report for scripts: every number, the estimates `null` without
    /// games.
    fn json(&self, results: &Results) -> serde_json::Value {
        let estimate = |estimate: &Estimate| {
            (self.games > 0).then(|| {
                json!({"value": estimate.value, "low": estimate.low, "high": estimate.high, "error": estimate.error()})
            })
        };
        let mut report = json!({
            "model": self.settings.model.to_string(),
            "elo0": self.settings.elo0,
            "elo1": self.settings.elo1,
            "alpha": self.settings.alpha,
            "beta": self.settings.beta,
            "llr": self.status.llr,
            "lower": self.status.lower,
            "upper": self.status.upper,
            "verdict": self.status.verdict,
            "games": self.games,
            "elo": estimate(&self.elo),
            "nelo": estimate(&self.nelo),
        });
        match results {
            Results::Pairs(penta) => {
                report["pairs"] = json!(penta.pairs());
                report["penta"] = json!(penta.0);
            }
            Results::Games(wdl) => report["wdl"] = json!(wdl),
        }
        report
    }
}

/// `json`: the report as JSON, for scripts (the lab's `--json`).
pub fn command(args: &SprtArgs, json: bool) -> Result<()> {
    let settings = args.settings()?;
    let results = args.results()?;
    let report = Report::new(settings, &results);
    let text = if json { serde_json::to_string_pretty(&report.json(&results))? + "\n" } else { report.text(&results) };
    // Written, not printed, so a closed pipe (`| head`) is an error, not a panic.
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::Model;

    #[test]
    fn reports_for_people_and_scripts() {
        let args = parse(&["--penta", "3,40,100,45,2", "--sprt", "0", "5"]).unwrap();
        let results = args.results().unwrap();
        let report = Report::new(args.settings().unwrap(), &results);
        let text = report.text(&results);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("LLR {} (-2.94, 2.94) [0.00, 5.00] continue", fixed(report.status.llr, 2)));
        assert_eq!(lines[1], "Model normalized, alpha 0.05, beta 0.05");
        assert_eq!(lines[2], "Pairs 190 (380 games): Penta [3, 40, 100, 45, 2]");
        assert!(lines[3].starts_with("Elo ") && lines[4].starts_with("nElo "), "{text}");
        let json = report.json(&results);
        assert_eq!((json["pairs"].as_u64(), json["games"].as_u64()), (Some(190), Some(380)));
        assert_eq!(json["model"], "normalized");
        assert_eq!(json["nelo"]["value"].as_f64(), Some(report.nelo.value));

        let args = parse(&["--wdl", "0,0,0", "--sprt", "0", "5"]).unwrap();
        let results = args.results().unwrap();
        let report = Report::new(args.settings().unwrap(), &results);
        let text = report.text(&results);
        assert!(text.contains("Games 0: W 0 D 0 L 0\nElo n/a\nnElo n/a\n"), "{text}");
        assert!(report.json(&results)["elo"].is_null());
    }

    #[test]
    fn counts_parse_and_bad_counts_are_explained() {
        assert_eq!(parse_counts("--penta", "", "3,40,100,45,2", 5).unwrap(), vec![3, 40, 100, 45, 2]);
        assert_eq!(parse_counts("--penta", "", "[3, 40, 100, 45, 2]", 5).unwrap(), vec![3, 40, 100, 45, 2]);
        let message =
            |text: &str, expected| format!("{:#}", parse_counts("--wdl", "W,D,L", text, expected).unwrap_err());
        assert!(message("1,2", 3).contains("takes 3 counts W,D,L, but \"1,2\" has 2"));
        assert!(message("1,-2,3", 3).contains("-2 is negative"));
        assert!(message("1,x,3", 3).contains("\"x\" is not a count"));
        assert!(message("1,2.5,3", 3).contains("\"2.5\" is not a count"));
        assert!(message("1,,3", 3).contains("\"\" is not a count"));
    }

    /// The command's own options (the lab's tests check them beside its
    /// global ones: `the_command_line_definition_is_valid`).
    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        sprt: SprtArgs,
    }

    #[test]
    fn command_line_definition_is_valid() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    fn parse(line: &[&str]) -> std::result::Result<SprtArgs, clap::Error> {
        use clap::Parser;
        Cli::try_parse_from(std::iter::once("sprt").chain(line.iter().copied())).map(|cli| cli.sprt)
    }

    #[test]
    fn command_line_is_checked() {
        let args = parse(&["--penta", "3,40,100,45,2", "--sprt", "-1.75", "0.25"]).unwrap();
        assert_eq!(
            args.settings().unwrap(),
            SprtSettings { elo0: -1.75, elo1: 0.25, alpha: 0.05, beta: 0.05, model: Model::Normalized }
        );
        assert_eq!(args.results().unwrap(), Results::Pairs(Pentanomial([3, 40, 100, 45, 2])));

        let args = parse(&["--wdl", "10,20,5", "--sprt", "0", "5", "--model", "logistic"]).unwrap();
        assert_eq!(args.results().unwrap(), Results::Games(Wdl { wins: 10, draws: 20, losses: 5 }));
        assert_eq!(args.settings().unwrap().model, Model::Logistic);

        assert!(parse(&["--penta", "1,2,3,4,5", "--wdl", "1,2,3", "--sprt", "0", "5"]).is_err());
        assert!(parse(&["--sprt", "0", "5"]).is_err());
        // Here the bounds are required, and the old spelling is gone.
        let missing = parse(&["--penta", "1,2,3,4,5"]).unwrap_err().to_string();
        assert!(missing.contains("--sprt [<ELO0> <ELO1>]"), "{missing}");
        // `--sprt` alone has no variant file to read here.
        let alone = format!("{:#}", parse(&["--wdl", "1,2,3", "--sprt"]).unwrap().settings().unwrap_err());
        assert!(alone.contains("--sprt takes two numbers"), "{alone}");
        assert!(parse(&["--penta", "1,2,3,4,5", "--elo0", "0", "--elo1", "5"]).is_err());
        let check = |line: &[&str]| format!("{:#}", parse(line).unwrap().settings().unwrap_err());
        assert!(check(&["--wdl", "1,2,3", "--sprt", "5", "5"]).contains("ELO0 must be below ELO1"));
        assert!(check(&["--wdl", "1,2,3", "--sprt", "0", "5", "--alpha", "0.5"]).contains("--alpha"));
        assert!(check(&["--wdl", "1,2,3", "--sprt", "0", "5", "--beta", "0"]).contains("--beta"));
        let args = parse(&["--penta", "-1,2,3,4,5", "--sprt", "0", "5"]).unwrap();
        assert!(format!("{:#}", args.results().unwrap_err()).contains("negative"));
    }
}
