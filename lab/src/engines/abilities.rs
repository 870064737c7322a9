//! What an engine can be asked beyond `go depth`: whether it stops at `go
//! nodes`. The tactical suites, the atlas and the games at fixed nodes ask
//! every search that way; an engine that searches on until `stop` (SeaJay
//! v20251002) would make each of them a time-out, and one that finishes
//! its iteration first (SeaJay in August 2025: about a million nodes at
//! `go nodes 50000`) would be measured at another budget than asked. So it
//! is asked once, and what it cannot do is left out with the reason.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::Result;
use games::engine::{Engine, EngineFailure, Launch};

/// The probe's budget: the atlas's and the sanity match's, a search any
/// engine ends in well under a second.
pub const GO_NODES_PROBE_NODES: u64 = 10_000;

/// How many times the budget a search may report and still have stopped
/// at it: an engine looks at its count every few thousand nodes.
pub const GO_NODES_OVERSHOOT: u64 = 2;

/// How long an engine may take to answer the probe (the unit tests'
/// stand-ins answer at once or never).
pub const GO_NODES_PROBE_TIMEOUT: Duration = Duration::from_secs(if cfg!(test) { 1 } else { 10 });

/// The probe's `go` line.
pub fn go_nodes_probe() -> String {
    format!("go nodes {GO_NODES_PROBE_NODES}")
}

/// Why the engine `launch` starts cannot be searched at fixed nodes, in
/// words a page can show (`` `NAME` does not stop at `go nodes 10000` (no
/// bestmove within 10 s)``), or `None` when it answers `go nodes 10000` from
/// the start position with a `bestmove` within [`GO_NODES_PROBE_TIMEOUT`],
/// its last `info` reporting at most [`GO_NODES_OVERSHOOT`] times the
/// budget. Asked once a run for each binary and option set; an engine that
/// fails otherwise (it exits, breaks the protocol) is an error.
pub fn go_nodes_refusal(launch: &Launch, name: &str) -> Result<Option<String>> {
    type Answer = ((PathBuf, String), Option<String>);
    static ASKED: Mutex<Vec<Answer>> = Mutex::new(Vec::new());
    let settings: Vec<String> = launch.settings.iter().map(ToString::to_string).collect();
    let key = (launch.binary.clone(), settings.join(","));
    let asked = |key: &(PathBuf, String)| {
        let asked = ASKED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        asked.iter().find(|(known, _)| known == key).map(|(_, answer)| answer.clone())
    };
    if let Some(answer) = asked(&key) {
        return Ok(answer.map(|why| format!("`{name}` {why}")));
    }
    let mut probe = Engine::start(&launch.binary, name)?;
    probe.sync()?;
    probe.apply(&launch.settings)?;
    probe.new_game()?;
    let go = go_nodes_probe();
    let answer = match probe.go("position startpos", &go, GO_NODES_PROBE_TIMEOUT) {
        Ok(output) => match output.infos.iter().rev().find_map(|info| info.nodes) {
            Some(nodes) if nodes > GO_NODES_OVERSHOOT * GO_NODES_PROBE_NODES => {
                Some(format!("does not stop at `{go}` (it searched {nodes} nodes)"))
            }
            _ => None,
        },
        Err(error) if matches!(error.downcast_ref(), Some(EngineFailure::Timeout)) => {
            Some(format!("does not stop at `{go}` (no bestmove within {} s)", GO_NODES_PROBE_TIMEOUT.as_secs()))
        }
        Err(error) => return Err(error),
    };
    ASKED.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push((key, answer.clone()));
    Ok(answer.map(|why| format!("`{name}` {why}")))
}
