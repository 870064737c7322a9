//! What an engine can be asked beyond `go depth`: whether it stops at `go
//! nodes`. The tactical suites, the atlas and the games at fixed nodes ask
//! every search that way; an engine that searches on until `stop` (SeaJay
//! v20251002) would make each of them a time-out, so it is asked once, and
//! what it cannot do is left out with the reason.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::Result;
use games::engine::{Engine, EngineFailure, Launch};

/// The probe's budget: a search any engine ends in well under a second.
pub const GO_NODES_PROBE_NODES: u64 = 1000;

/// How long an engine may take to answer the probe (the unit tests'
/// stand-ins answer at once or never).
pub const GO_NODES_PROBE_TIMEOUT: Duration = Duration::from_secs(if cfg!(test) { 1 } else { 10 });

/// The probe's `go` line.
pub fn go_nodes_probe() -> String {
    format!("go nodes {GO_NODES_PROBE_NODES}")
}

/// Whether the engine `launch` starts answers `go nodes 1000` from the
/// start position with a `bestmove` within [`GO_NODES_PROBE_TIMEOUT`]. Asked
/// once a run for each binary and option set; an engine that fails
/// otherwise (it exits, breaks the protocol) is an error.
pub fn honours_go_nodes(launch: &Launch, name: &str) -> Result<bool> {
    static ASKED: Mutex<Vec<((PathBuf, String), bool)>> = Mutex::new(Vec::new());
    let settings: Vec<String> = launch.settings.iter().map(ToString::to_string).collect();
    let key = (launch.binary.clone(), settings.join(","));
    if let Some((_, answer)) =
        ASKED.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).iter().find(|(k, _)| *k == key)
    {
        return Ok(*answer);
    }
    let mut probe = Engine::start(&launch.binary, name)?;
    probe.sync()?;
    probe.apply(&launch.settings)?;
    probe.new_game()?;
    let answer = match probe.go("position startpos", &go_nodes_probe(), GO_NODES_PROBE_TIMEOUT) {
        Ok(_) => true,
        Err(error) if matches!(error.downcast_ref(), Some(EngineFailure::Timeout)) => false,
        Err(error) => return Err(error),
    };
    ASKED.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push((key, answer));
    Ok(answer)
}

/// Why `name` cannot be measured at fixed nodes, in words a page can show.
pub fn ignores_go_nodes(name: &str) -> String {
    format!(
        "`{name}` does not stop at `{}` (no bestmove within {} s): it cannot be searched at fixed nodes",
        go_nodes_probe(),
        GO_NODES_PROBE_TIMEOUT.as_secs()
    )
}
