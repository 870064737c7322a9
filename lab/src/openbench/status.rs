//! `lab openbench status`: the tests `lab openbench` created, their games
//! read back from OpenBench's API into `lab-results/`, where `lab ab` and
//! `lab report` find them; and the tunes `lab openbench --spsa` created,
//! each parameter's current value (theta) and the iterations played.

use std::fmt::Write;

use anyhow::{anyhow, bail, Context, Result};
use games::results::{read_records, runs_of, timestamp, RunDir};
use games::statistics::{
    fixed, format_penta, openbench_elo_penta, openbench_error, Model, Pentanomial, SprtSettings, Wdl,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::server::{self, Server};
use super::spsa::{CreatedTune, TUNES_COMMAND};
use super::{CreatedTest, StatusArgs, UnconfirmedTest, TESTS_COMMAND};
use crate::lab::Lab;
use crate::verdicts::evidence::{GameResult, SprtReading, STATUS_COMMAND};

/// Every test `lab openbench` created under the results folder, the latest
/// record of each.
pub(super) fn created_tests(lab: &Lab) -> Vec<CreatedTest> {
    let mut tests: Vec<CreatedTest> = Vec::new();
    for run in runs_of(&lab.results_root(), TESTS_COMMAND) {
        for test in read_records::<CreatedTest>(&run) {
            tests.retain(|seen| (seen.server.as_str(), seen.test_id) != (test.server.as_str(), test.test_id));
            tests.push(test);
        }
    }
    tests
}

/// Every tune `lab openbench --spsa` created under the results folder.
pub(super) fn created_tunes(lab: &Lab) -> Vec<CreatedTune> {
    let mut tunes: Vec<CreatedTune> = Vec::new();
    for run in runs_of(&lab.results_root(), TUNES_COMMAND) {
        for tune in read_records::<CreatedTune>(&run) {
            tunes.retain(|seen| (seen.server.as_str(), seen.tune_id) != (tune.server.as_str(), tune.tune_id));
            tunes.push(tune);
        }
    }
    tunes
}

/// The creates that may have reached a server and are not settled: no
/// test with their `info` is recorded as created on that server.
pub(super) fn unconfirmed_tests(lab: &Lab) -> Vec<UnconfirmedTest> {
    let created = created_tests(lab);
    let mut attempts: Vec<UnconfirmedTest> = Vec::new();
    for run in runs_of(&lab.results_root(), TESTS_COMMAND) {
        attempts.extend(read_records::<UnconfirmedTest>(&run));
    }
    attempts
        .retain(|attempt| !created.iter().any(|test| (&test.server, &test.info) == (&attempt.server, &attempt.info)));
    attempts
}

/// A test's games as the lab keeps them, from OpenBench's workload API.
pub fn game_result(test: &CreatedTest, workload: &server::Workload, taken: &str) -> Result<GameResult> {
    let info = &workload.info;
    let counts = |key: &str| -> Result<Vec<u64>> {
        info[key]
            .as_array()
            .and_then(|items| items.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>())
            .with_context(|| format!("test {}: no `{key}` counts in {info}", test.test_id))
    };
    let (tri, penta) = (counts("tri")?, counts("penta")?);
    let (&[losses, draws, wins], &[ll, ld, even, wd, ww]) = (tri.as_slice(), penta.as_slice()) else {
        bail!("test {}: `tri` {tri:?} or `penta` {penta:?} has the wrong length", test.test_id);
    };
    let number = |key: &str| info[key].as_f64().with_context(|| format!("test {}: no `{key}`", test.test_id));
    let sprt = if info["test_mode"] == "SPRT" {
        Some(SprtReading {
            elo0: number("elolower")?,
            elo1: number("eloupper")?,
            llr: number("currentllr")?,
            lower: number("lowerllr")?,
            upper: number("upperllr")?,
        })
    } else {
        None
    };
    let sum = |key: &str| workload.results.iter().filter_map(|result| result[key].as_u64()).sum();
    Ok(GameResult {
        subject: test.plan.variant.clone(),
        reference: test.plan.parent.clone(),
        source: format!("OpenBench test {}, {}", test.test_id, test.url),
        taken: taken.to_string(),
        tc: info["dev_time_control"].as_str().unwrap_or(&test.plan.tc).to_string(),
        book: info["book_name"].as_str().map(str::to_string),
        wdl: Wdl { wins, draws, losses },
        penta: Pentanomial([ll, ld, even, wd, ww]),
        sprt,
        finished: info["finished"].as_bool().unwrap_or(false),
        time_losses: sum("timeloss"),
        crashes: sum("crashes"),
    })
}

/// One parameter of a tune as OpenBench's digest gives it now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedValue {
    pub name: String,
    /// The current value, theta (OpenBench's `Curr`, to 4 decimals).
    pub value: f64,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation and the step's scale a workload would get now.
    pub c: f64,
    pub r: f64,
}

/// A tune as `lab openbench status` read it: a line of its run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneStatus {
    /// `OpenBench tune <id>, <url>`.
    pub source: String,
    pub variant: String,
    pub taken: String,
    pub state: String,
    pub tc: String,
    pub games: u64,
    /// Games over two a pair and the pairs of an iteration, as OpenBench
    /// counts iterations (`spsa_utils.py`); a worker reports in batches, so
    /// it may be fractional.
    pub iterations_played: f64,
    pub iterations: u64,
    pub values: Vec<TunedValue>,
}

/// OpenBench's columns of a tune's digest (`/api/spsa/<id>/digest/`,
/// `spsa_param_digest` in `OpenBench/spsa_utils.py`).
const DIGEST_HEADER: &str = "Name,Curr,Start,Min,Max,C,C_end,R,R_end";

/// A tune's digest: its header, then a line a parameter.
pub fn read_digest(digest: &str) -> Result<Vec<TunedValue>> {
    let mut lines = digest.lines().map(str::trim).filter(|line| !line.is_empty());
    match lines.next() {
        Some(DIGEST_HEADER) => {}
        first => bail!("the tune's digest does not start with OpenBench's header {DIGEST_HEADER}: {first:?}"),
    }
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let [name, value, start, min, max, c, _c_end, r, _r_end] = fields[..] else {
                bail!("digest line `{line}`: expected the 9 columns {DIGEST_HEADER}");
            };
            let number = |text: &str| -> Result<f64> {
                text.parse().map_err(|_| anyhow!("digest line `{line}`: `{text}` is no number"))
            };
            Ok(TunedValue {
                name: name.to_string(),
                value: number(value)?,
                start: number(start)?,
                min: number(min)?,
                max: number(max)?,
                c: number(c)?,
                r: number(r)?,
            })
        })
        .collect()
}

/// A tune's state and values, from its workload info and its digest.
pub fn tune_status(tune: &CreatedTune, info: &Value, digest: &str, taken: &str) -> Result<TuneStatus> {
    if info["test_mode"] != "SPSA" {
        bail!("OpenBench workload {} is no tune: its test_mode is {}", tune.tune_id, info["test_mode"]);
    }
    let games = info["games"].as_u64().with_context(|| format!("tune {}: no `games` in {info}", tune.tune_id))?;
    // A tune's workload size is its pairs per iteration (`create_new_tune`).
    let pairs_per = info["workload_size"].as_u64().unwrap_or(tune.pairs_per).max(1);
    Ok(TuneStatus {
        source: format!("OpenBench tune {}, {}", tune.tune_id, tune.url),
        variant: tune.variant.clone(),
        taken: taken.to_string(),
        // A tune passes or fails nothing: one that has played its
        // iterations is finished, not stopped.
        state: match state(info) {
            "stopped" => "finished",
            other => other,
        }
        .to_string(),
        tc: info["dev_time_control"].as_str().unwrap_or(&tune.tc).to_string(),
        games,
        iterations_played: games as f64 / (2 * pairs_per) as f64,
        iterations: tune.iterations,
        values: read_digest(digest).with_context(|| format!("tune {}", tune.tune_id))?,
    })
}

/// A test's state in words, from its flags.
fn state(info: &Value) -> &'static str {
    let flag = |key: &str| info[key].as_bool().unwrap_or(false);
    if flag("deleted") {
        "deleted"
    } else if flag("passed") {
        "passed"
    } else if flag("failed") {
        "failed"
    } else if flag("finished") {
        "stopped"
    } else if !flag("approved") {
        "awaiting approval"
    } else {
        "running"
    }
}

/// `lab openbench status`. The user's credentials go only to the server
/// `--server` (or `$OPENBENCH_SERVER`) names; a test recorded on another
/// server is read without them (a public server's API answers anyone),
/// and the summary says so.
pub(super) fn status(lab: &Lab, args: &StatusArgs) -> Result<()> {
    let asked = |id: u64| args.tests.is_empty() || args.tests.contains(&id);
    let mut tests = created_tests(lab);
    tests.retain(|test| asked(test.test_id));
    let mut tunes = created_tunes(lab);
    tunes.retain(|tune| asked(tune.tune_id));
    if tests.is_empty() && tunes.is_empty() {
        bail!(
            "no test or tune created by `lab openbench` under {}{}",
            lab.results_root().display(),
            if args.tests.is_empty() { "" } else { " matches" }
        );
    }
    let access = Access::of(args)?;
    let mut notes = Vec::new();
    if access.credentials.is_some() && access.named.is_none() {
        notes.push(
            "a user and password were given, but no --server (or $OPENBENCH_SERVER) names the server they are \
             for: every test was read without them"
                .to_string(),
        );
    }
    let mut run = RunDir::create(&lab.results_root(), STATUS_COMMAND, args)?;
    let mut out = String::new();
    let mut failures = Vec::new();
    if !tests.is_empty() {
        out.push_str("# OpenBench tests\n\n");
        writeln!(
            out,
            "| test | variant | parent | state | tc | games | W / L / D | pentanomial | Elo (OpenBench) | Elo (lab) | \
             nElo (lab) | LLR (bounds) [elo0, elo1] | the lab's LLR | time losses, crashes |"
        )
        .unwrap();
        writeln!(out, "|---|---|---|---|---|---:|---|---|---|---|---|---|---|---|").unwrap();
    }
    for test in &tests {
        let workload = match access
            .server_for(&test.server, test.test_id, &mut notes)
            .and_then(|server| server.workload(test.test_id))
        {
            Ok(workload) => workload,
            Err(error) => {
                lab.say(&format!("test {} at {}: {error:#}", test.test_id, test.server));
                failures.push(format!("test {}: {error:#}", test.test_id));
                continue;
            }
        };
        let result = game_result(test, &workload, &timestamp())?;
        run.append(&result)?;
        writeln!(out, "{}", status_row(test, &workload, &result)).unwrap();
    }
    if !tests.is_empty() {
        writeln!(
            out,
            "\nElo (OpenBench) is the figure OpenBench's test page shows: Student's t interval on the pairs, ± its \
             longer side. Elo (lab) is the lab's, as `lab match` prints it: the normal interval, ± half its width."
        )
        .unwrap();
    }
    let mut read_tunes = Vec::new();
    for tune in &tunes {
        let read = access.server_for(&tune.server, tune.tune_id, &mut notes).and_then(|server| {
            let info = server.info(tune.tune_id)?;
            let digest = server.spsa(tune.tune_id, "digest")?;
            tune_status(tune, &info, &digest, &timestamp())
        });
        match read {
            Ok(status) => {
                run.append(&status)?;
                read_tunes.push((tune, status));
            }
            Err(error) => {
                lab.say(&format!("tune {} at {}: {error:#}", tune.tune_id, tune.server));
                failures.push(format!("tune {}: {error:#}", tune.tune_id));
            }
        }
    }
    if !read_tunes.is_empty() {
        out.push_str(&tunes_markdown(&read_tunes, !tests.is_empty()));
    }
    for note in &notes {
        writeln!(out, "\nNote: {note}.").unwrap();
    }
    if !failures.is_empty() {
        writeln!(out, "\nNot read: {}", failures.join("; ")).unwrap();
    }
    let summary = serde_json::json!({
        "tests": read_records::<GameResult>(run.path()),
        "tunes": read_records::<TuneStatus>(run.path()),
    });
    run.write_summary(&out, &summary)?;
    println!("{out}");
    lab.say(&format!("results: {}", run.path().display()));
    if failures.len() == tests.len() + tunes.len() {
        bail!("nothing could be read");
    }
    Ok(())
}

/// The tunes' section of the status: a row a tune, then each tune's
/// values.
fn tunes_markdown(tunes: &[(&CreatedTune, TuneStatus)], after_tests: bool) -> String {
    let mut out = String::from(if after_tests { "\n# OpenBench tunes\n\n" } else { "# OpenBench tunes\n\n" });
    writeln!(out, "| tune | variant | state | tc | games | iterations played |").unwrap();
    writeln!(out, "|---|---|---|---|---:|---|").unwrap();
    for (tune, status) in tunes {
        writeln!(
            out,
            "| [{}]({}) | {} | {} | {} | {} | {} of {} |",
            tune.tune_id,
            tune.url,
            status.variant,
            status.state,
            status.tc,
            status.games,
            fixed(status.iterations_played, 2),
            status.iterations
        )
        .unwrap();
    }
    for (tune, status) in tunes {
        writeln!(
            out,
            "\nTune {}, {}: each parameter's current value (theta), as OpenBench's digest gives it, and the c and \
             r of its next iteration:\n",
            tune.tune_id, status.variant
        )
        .unwrap();
        writeln!(out, "| parameter | theta | start | min | max | c | r |").unwrap();
        writeln!(out, "|---|---:|---:|---:|---:|---:|---:|").unwrap();
        for value in &status.values {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                value.name, value.value, value.start, value.min, value.max, value.c, value.r
            )
            .unwrap();
        }
    }
    out
}

/// The server the credentials are for, and the credentials.
struct Access<'a> {
    named: Option<&'a str>,
    credentials: Option<(&'a str, &'a str)>,
}

impl<'a> Access<'a> {
    fn of(args: &'a StatusArgs) -> Result<Access<'a>> {
        let named = args.server.server.as_deref().map(|url| url.trim_end_matches('/'));
        let credentials = match (&args.server.username, &args.server.password) {
            (Some(username), Some(password)) => Some((username.as_str(), password.as_str())),
            (None, None) => None,
            _ => bail!("--username and --password (or $OPENBENCH_USERNAME and $OPENBENCH_PASSWORD) go together"),
        };
        Ok(Access { named, credentials })
    }

    /// The server `url` of test (or tune) `id`, with the credentials only
    /// when it is the one they are for; a note when they were given for
    /// another.
    fn server_for(&self, url: &str, id: u64, notes: &mut Vec<String>) -> Result<Server> {
        if self.credentials.is_some() && self.named.is_some_and(|named| named != url) {
            notes.push(format!(
                "test {id} is on {url}, not on the server --server names ({}): read without credentials",
                self.named.unwrap_or_default()
            ));
        }
        match self.credentials {
            Some((username, password)) if self.named == Some(url) => Server::new(url, username, password),
            _ => Server::anonymous(url),
        }
    }
}

/// A test's row in the status table; the LLR is recomputed from the
/// pentanomial with the lab's statistics beside OpenBench's.
fn status_row(test: &CreatedTest, workload: &server::Workload, result: &GameResult) -> String {
    let (elo, nelo) = result.elo_texts();
    let openbench_elo = match openbench_elo_penta(&result.penta) {
        Some(estimate) => format!("{} ± {}", fixed(estimate.value, 2), fixed(openbench_error(&estimate), 2)),
        None => "n/a".to_string(),
    };
    let (llr, lab_llr) = match &result.sprt {
        Some(sprt) => {
            let settings = SprtSettings {
                elo0: sprt.elo0,
                elo1: sprt.elo1,
                alpha: workload.info["alpha"].as_f64().unwrap_or(0.05),
                beta: workload.info["beta"].as_f64().unwrap_or(0.05),
                model: Model::Normalized,
            };
            (
                format!("{:.2} ({:.2}, {:.2}) [{}, {}]", sprt.llr, sprt.lower, sprt.upper, sprt.elo0, sprt.elo1),
                format!("{:.2}", settings.on_pairs(&result.penta).llr),
            )
        }
        None => ("-".to_string(), "-".to_string()),
    };
    format!(
        "| [{}]({}) | {} | {} | {} | {} | {} | {} / {} / {} | {} | {openbench_elo} | {elo} | {nelo} | {llr} | {lab_llr} \
         | {}, {} |",
        test.test_id,
        test.url,
        result.subject,
        result.reference,
        state(&workload.info),
        result.tc,
        result.games(),
        result.wdl.wins,
        result.wdl.losses,
        result.wdl.draws,
        format_penta(&result.penta),
        result.time_losses,
        result.crashes
    )
}
