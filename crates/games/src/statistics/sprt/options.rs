//! The SPRT on the command line, spelt the same by `lab match`, `lab ab` and
//! `lab sprt`: `--sprt ELO0 ELO1 [--alpha A] [--beta B] [--model normalized|logistic]`.
//! `lab ab` also takes `--sprt` alone: the bounds of the variant file's
//! `[sprt]` (see [`SprtOptions::with_plan_bounds`]).

use anyhow::{bail, Result};
use clap::Args;
use serde::Serialize;

use crate::statistics::{Model, SprtSettings};

#[derive(Args, Clone, Debug, Serialize)]
pub struct SprtOptions {
    /// An SPRT of H0 = ELO0 against H1 = ELO1, in the model's Elo; a match
    /// stops at its verdict.
    #[arg(long = "sprt", id = "sprt", num_args = 0..=2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    // `lab ab` records its arguments with this name.
    #[serde(rename = "sprt")]
    pub bounds: Option<Vec<f64>>,
    /// The SPRT's false positive rate: the chance of accepting H1 when H0
    /// holds, in (0, 0.5).
    #[arg(long, default_value_t = 0.05, requires = "sprt", allow_negative_numbers = true)]
    pub alpha: f64,
    /// The SPRT's false negative rate: the chance of accepting H0 when H1
    /// holds, in (0, 0.5).
    #[arg(long, default_value_t = 0.05, requires = "sprt", allow_negative_numbers = true)]
    pub beta: f64,
    /// What ELO0 and ELO1 are: normalized Elo (fishtest, OpenBench and
    /// fastchess's default) or classical logistic Elo.
    #[arg(long, value_enum, default_value_t = Model::Normalized, requires = "sprt")]
    pub model: Model,
}

impl SprtOptions {
    /// The SPRT asked for, checked; `None` without `--sprt`.
    pub fn settings(&self) -> Result<Option<SprtSettings>> {
        let Some(bounds) = &self.bounds else { return Ok(None) };
        let [elo0, elo1] = bounds[..] else {
            bail!("--sprt takes two numbers: ELO0 ELO1 (only `lab ab` reads them from the variant file)")
        };
        if !(elo0.is_finite() && elo1.is_finite()) {
            bail!("--sprt {elo0} {elo1}: ELO0 and ELO1 must be finite numbers");
        }
        if elo0 >= elo1 {
            bail!("--sprt {elo0} {elo1}: ELO0 must be below ELO1");
        }
        for (name, rate) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                bail!("--{name} {rate}: expected a probability between 0 and 0.5");
            }
        }
        Ok(Some(SprtSettings { elo0, elo1, alpha: self.alpha, beta: self.beta, model: self.model }))
    }

    /// Whether `--sprt` was given without bounds.
    pub fn wants_plan(&self) -> bool {
        self.bounds.as_ref().is_some_and(Vec::is_empty)
    }

    /// The options with `--sprt` alone given `plan_bounds`, the bounds of
    /// the `[sprt]` of `variant`'s file (an error when it has none); other
    /// options as they are.
    pub fn with_plan_bounds(&self, plan_bounds: Option<(f64, f64)>, variant: &str) -> Result<SprtOptions> {
        if !self.wants_plan() {
            return Ok(self.clone());
        }
        let Some((elo0, elo1)) = plan_bounds else {
            bail!("--sprt without bounds takes the variant file's [sprt], and `{variant}` has none: give --sprt ELO0 ELO1")
        };
        Ok(SprtOptions { bounds: Some(vec![elo0, elo1]), ..self.clone() })
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        sprt: SprtOptions,
    }

    fn parse(line: &[&str]) -> std::result::Result<SprtOptions, clap::Error> {
        Cli::try_parse_from(std::iter::once("lab").chain(line.iter().copied())).map(|cli| cli.sprt)
    }

    fn settings_error(line: &[&str]) -> String {
        format!("{:#}", parse(line).unwrap().settings().unwrap_err())
    }

    #[test]
    fn bounds_and_rates_parse_with_their_defaults() {
        let settings = parse(&["--sprt", "-1.75", "0.25"]).unwrap().settings().unwrap().unwrap();
        assert_eq!(
            settings,
            SprtSettings { elo0: -1.75, elo1: 0.25, alpha: 0.05, beta: 0.05, model: Model::Normalized }
        );
        let line = ["--sprt", "0", "5", "--alpha", "0.1", "--beta", "0.2", "--model", "logistic"];
        let settings = parse(&line).unwrap().settings().unwrap().unwrap();
        assert_eq!(settings, SprtSettings { elo0: 0.0, elo1: 5.0, alpha: 0.1, beta: 0.2, model: Model::Logistic });
        assert_eq!(parse(&[]).unwrap().settings().unwrap(), None);
    }

    #[test]
    fn bad_values_are_clear_errors() {
        assert!(settings_error(&["--sprt", "5", "0"]).contains("--sprt 5 0: ELO0 must be below ELO1"));
        assert!(settings_error(&["--sprt", "5", "5"]).contains("ELO0 must be below ELO1"));
        assert!(settings_error(&["--sprt", "0", "inf"]).contains("must be finite"));
        assert!(settings_error(&["--sprt", "0", "5", "--alpha", "0.5"]).contains("--alpha 0.5: expected a probability"));
        assert!(settings_error(&["--sprt", "0", "5", "--beta", "0"]).contains("--beta 0: expected a probability"));
        assert!(settings_error(&["--sprt", "0", "5", "--beta", "-0.1"]).contains("--beta -0.1"));
    }

    #[test]
    fn the_command_line_refuses_what_it_cannot_mean() {
        // One bound, a rate without a test, and a model that does not exist.
        assert!(settings_error(&["--sprt", "5"]).contains("--sprt takes two numbers"));
        assert!(settings_error(&["--sprt"]).contains("--sprt takes two numbers"));
        let without_test = parse(&["--alpha", "0.1"]).unwrap_err().to_string();
        assert!(without_test.contains("--sprt"), "{without_test}");
        assert!(parse(&["--model", "bayesian", "--sprt", "0", "5"]).is_err());
    }

    #[test]
    fn sprt_alone_takes_the_variant_files_bounds() {
        let plan_bounds = (-3.0, 3.0);
        let alone = parse(&["--sprt", "--alpha", "0.1"]).unwrap();
        assert!(alone.wants_plan());
        let settings = alone.with_plan_bounds(Some(plan_bounds), "razor-r2").unwrap().settings().unwrap().unwrap();
        assert_eq!((settings.elo0, settings.elo1, settings.alpha), (-3.0, 3.0, 0.1));
        let refused = alone.with_plan_bounds(None, "probcut").unwrap_err().to_string();
        assert!(refused.contains("`probcut` has none"), "{refused}");
        // Bounds given win over the file's.
        let given = parse(&["--sprt", "0", "5"]).unwrap().with_plan_bounds(Some(plan_bounds), "razor-r2").unwrap();
        assert_eq!(given.bounds, Some(vec![0.0, 5.0]));
    }

    #[test]
    fn lab_ab_records_the_bounds_under_their_option_name() {
        let options = parse(&["--sprt", "0", "5"]).unwrap();
        let json = serde_json::to_value(&options).unwrap();
        assert_eq!(json, serde_json::json!({"sprt": [0.0, 5.0], "alpha": 0.05, "beta": 0.05, "model": "Normalized"}));
    }
}
