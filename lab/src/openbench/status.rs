//! `lab openbench status`: the tests `lab openbench` created, their games
//! read back from OpenBench's API into `lab-results/`, where `lab ab` and
//! `lab report` find them.

use std::fmt::Write;

use anyhow::{bail, Context, Result};
use games::results::{read_records, runs_of, timestamp, RunDir};
use games::statistics::{
    fixed, format_penta, openbench_elo_penta, openbench_error, Model, Pentanomial, SprtSettings, Wdl,
};
use serde_json::Value;

use super::server::{self, Server};
use super::{CreatedTest, StatusArgs, UnconfirmedTest, TESTS_COMMAND};
use crate::lab::Lab;
use crate::verdicts::evidence::{GameResult, SprtState, STATUS_COMMAND};

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
        Some(SprtState {
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
    let tests = tests_asked(lab, args)?;
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
    let mut out = String::from("# OpenBench tests\n\n");
    writeln!(
        out,
        "| test | variant | parent | state | tc | games | W / L / D | pentanomial | Elo (OpenBench) | Elo (lab) | \
         nElo (lab) | LLR (bounds) [elo0, elo1] | the lab's LLR | time losses, crashes |"
    )
    .unwrap();
    writeln!(out, "|---|---|---|---|---|---:|---|---|---|---|---|---|---|---|").unwrap();
    let mut failures = Vec::new();
    for test in &tests {
        let workload = match access.server_for(test, &mut notes).and_then(|server| server.workload(test.test_id)) {
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
    writeln!(
        out,
        "\nElo (OpenBench) is the figure OpenBench's test page shows: Student's t interval on the pairs, ± its \
         longer side. Elo (lab) is the lab's, as `lab match` prints it: the normal interval, ± half its width."
    )
    .unwrap();
    for note in &notes {
        writeln!(out, "\nNote: {note}.").unwrap();
    }
    if !failures.is_empty() {
        writeln!(out, "\nNot read: {}", failures.join("; ")).unwrap();
    }
    run.write_summary(&out, &read_records::<GameResult>(run.path()))?;
    println!("{out}");
    lab.say(&format!("results: {}", run.path().display()));
    if failures.len() == tests.len() {
        bail!("no test could be read");
    }
    Ok(())
}

/// The tests `lab openbench status` reads: the numbers asked, or every one
/// created.
fn tests_asked(lab: &Lab, args: &StatusArgs) -> Result<Vec<CreatedTest>> {
    let mut tests = created_tests(lab);
    if !args.tests.is_empty() {
        tests.retain(|test| args.tests.contains(&test.test_id));
    }
    if tests.is_empty() {
        bail!(
            "no test created by `lab openbench` under {}{}",
            lab.results_root().display(),
            if args.tests.is_empty() { "" } else { " matches" }
        );
    }
    Ok(tests)
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

    /// The server of `test`, with the credentials only when it is the one
    /// they are for; a note when they were given for another.
    fn server_for(&self, test: &CreatedTest, notes: &mut Vec<String>) -> Result<Server> {
        if self.credentials.is_some() && self.named.is_some_and(|named| named != test.server) {
            notes.push(format!(
                "test {} is on {}, not on the server --server names ({}): read without credentials",
                test.test_id,
                test.server,
                self.named.unwrap_or_default()
            ));
        }
        match self.credentials {
            Some((username, password)) if self.named == Some(test.server.as_str()) => {
                Server::new(&test.server, username, password)
            }
            _ => Server::anonymous(&test.server),
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
