//! `lab tune uci:PATH --param Name` and `lab tune <another engine's
//! variant> --param Name`: the engine's own spin options tuned through
//! `setoption`, each side of an iteration with its own values.
//!
//! An option to tune must be a `spin` the engine offers in its `uci`
//! output; its start, min and max are the option line's `default`, `min` and
//! `max`. No step is declared there, so `c_end` defaults to a twentieth of
//! the range (at least 1), the rule of thumb fishtest's and OpenBench's
//! users give for a first run; `r_end` is 0.002, as for prunelab's tunables.
//! Fixed-node games need an engine that stops at `go nodes N`: one that
//! searches on (far past N, or past a deadline) is refused, with `--tc`
//! offered instead.

use std::time::Duration;

use anyhow::{bail, Result};
use games::engine::{Engine, EngineFailure, Launch};
use games::uci_options::{OptionKind, OptionSpec};

use super::params::Declared;

/// OpenBench's and prunelab's common `r_end`.
const R_END: f64 = 0.002;

/// How many times the node limit an engine may report and still be taken
/// to honour it (engines check the limit every few thousand nodes).
const NODES_SLACK_FACTOR: u64 = 2;
/// Nodes an engine may overshoot a small limit by, for the same reason.
const NODES_SLACK: u64 = 4096;

/// The engine's spin options as declarations `--param` reads; each name
/// `specs` asks for must be one of them.
pub fn declarations(engine_name: &str, offered: &[OptionSpec], wanted: &[&str]) -> Result<Vec<Declared>> {
    let spins: Vec<Declared> = offered.iter().filter_map(spin_declaration).collect();
    for name in wanted {
        match offered.iter().find(|option| option.name.eq_ignore_ascii_case(name)) {
            Some(option) if matches!(option.kind, OptionKind::Spin { .. }) => {}
            Some(option) => bail!(
                "--param {name}: {engine_name}'s option `{}` is not a spin (an integer option), so SPSA cannot tune it",
                option.name
            ),
            None => {
                let names: Vec<&str> = spins.iter().map(|spin| spin.name.as_str()).collect();
                bail!(
                    "--param {name}: {engine_name} offers no option `{name}`; its spin options: {}",
                    names.join(", ")
                );
            }
        }
    }
    Ok(spins)
}

/// A spin option as a declaration, its default its start (the middle of
/// its range when it states none).
fn spin_declaration(option: &OptionSpec) -> Option<Declared> {
    let OptionKind::Spin { min, max } = option.kind else { return None };
    let (min, max) = (min as f64, max as f64);
    let default = option.default.as_deref().and_then(|text| text.trim().parse::<f64>().ok());
    Some(Declared {
        name: option.name.clone(),
        default: default.filter(|value| (min..=max).contains(value)).unwrap_or(((min + max) / 2.0).round()),
        min,
        max,
        step: ((max - min) / 20.0).round().max(1.0),
        r_end: R_END,
    })
}

/// How long a search of `nodes` nodes may take before the engine is taken
/// to ignore the limit: generous for any engine that honours it.
pub fn nodes_deadline(nodes: u64) -> Duration {
    Duration::from_secs(2) + Duration::from_millis(nodes / 50)
}

/// Refuses an engine that does not stop at `go nodes N`: it reports far
/// more nodes, or does not answer within `deadline`.
pub fn check_fixed_nodes(launch: &Launch, spec: &str, nodes: u64, deadline: Duration) -> Result<()> {
    let mut engine = Engine::launch(launch, spec)?;
    engine.new_game()?;
    let offer = "give a time control instead, e.g. --tc 10+0.1";
    let go = format!("go nodes {nodes}");
    match engine.go("position startpos", &go, deadline) {
        Ok(output) => {
            let reported = output.infos.iter().filter_map(|info| info.nodes).max();
            if let Some(reported) = reported.filter(|&reported| reported > nodes * NODES_SLACK_FACTOR + NODES_SLACK) {
                bail!("`{spec}` ignores `{go}`: it searched {reported} nodes; {offer}");
            }
            Ok(())
        }
        Err(error) if error.downcast_ref::<EngineFailure>() == Some(&EngineFailure::Timeout) => {
            bail!("`{spec}` ignores `{go}`: it did not stop within {:.1} s; {offer}", deadline.as_secs_f64())
        }
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(line: &str) -> OptionSpec {
        OptionSpec::parse(line).unwrap()
    }

    #[test]
    fn spins_declare_their_range_and_a_twentieth_of_it_as_step() {
        let offered = [
            option("option name Hash type spin default 16 min 1 max 33554432"),
            option("option name FutilityBase type spin default 150 min 50 max 300"),
            option("option name UseRazoring type check default true"),
        ];
        let declared = declarations("SeaJay", &offered, &["futilitybase"]).unwrap();
        assert_eq!(
            declared[1],
            Declared { name: "FutilityBase".into(), default: 150.0, min: 50.0, max: 300.0, step: 13.0, r_end: 0.002 }
        );
        let error = declarations("SeaJay", &offered, &["UseRazoring"]).unwrap_err().to_string();
        assert_eq!(
            error,
            "--param UseRazoring: SeaJay's option `UseRazoring` is not a spin (an integer option), so SPSA cannot tune it"
        );
        let error = declarations("SeaJay", &offered, &["RazorMargin"]).unwrap_err().to_string();
        assert_eq!(
            error,
            "--param RazorMargin: SeaJay offers no option `RazorMargin`; its spin options: Hash, FutilityBase"
        );
    }
}
