//! `lab openbench VARIANT...`: the tests planned from the variant files,
//! refused when `lab-results/` records them already, printed (`--dry-run`)
//! or created on the server and recorded.

use std::fmt::Write;

use anyhow::{bail, Context, Result};
use games::results::{read_records, timestamp, RunDir};

use super::server::Server;
use super::status::{created_tests, unconfirmed_tests};
use super::{
    closing_fields, Build, CreatedTest, OpenbenchArgs, OtherEngine, TestPlan, UnconfirmedTest, CONFIDENCE,
    DRAW_ADJUDICATION, TESTS_COMMAND, WIN_ADJUDICATION,
};
use crate::lab::table::Table;
use crate::lab::Lab;
use crate::tools::git;

/// The fields of OpenBench's `CREATE_TEST` (`Scripts/create_test.py`)
/// for one test, without the credentials and the action.
pub fn create_fields(args: &OpenbenchArgs, plan: &TestPlan, build: &Build, info: &str) -> Vec<(String, String)> {
    let (base_commit, base_bench) = build.base_side();
    let sides = [
        ("dev", plan.dev_options(), build.commit.as_str(), build.bench),
        ("base", plan.base_options(), base_commit, base_bench),
    ];
    let mut fields = Vec::new();
    for (side, options, commit, bench) in sides {
        fields.extend([
            (format!("{side}_engine"), build.engine.clone()),
            (format!("{side}_repo"), build.repo.clone()),
            (format!("{side}_branch"), commit.to_string()),
            (format!("{side}_bench"), bench.to_string()),
            (format!("{side}_network"), String::new()),
            (format!("{side}_options"), options),
            (format!("{side}_time_control"), plan.tc.clone()),
        ]);
    }
    let rest = [
        // OpenBench's form for a test of fixed games: GAMES, no bounds or
        // confidence, its number of games.
        ("test_mode", if plan.games.is_some() { "GAMES" } else { "SPRT" }.to_string()),
        ("test_bounds", plan.bounds_text()),
        ("test_confidence", if plan.games.is_some() { "N/A" } else { CONFIDENCE }.to_string()),
        ("test_max_games", plan.games.map_or("N/A".to_string(), |games| games.to_string())),
        ("book_name", args.book.clone()),
        ("upload_pgns", "FALSE".to_string()),
        ("throughput", args.throughput.to_string()),
        ("workload_size", plan.workload_size(args.workload_size).to_string()),
        ("priority", args.priority.to_string()),
    ];
    let rest = rest.into_iter().chain(closing_fields(build.nps, info));
    fields.extend(rest.map(|(key, value)| (key.to_string(), value)));
    fields
}

/// The line a test carries as its `info`, and by which it is found again.
pub(super) fn info_line(plan: &TestPlan, run: &str) -> String {
    format!(
        "lab openbench {run}: {} against its parent {}, {} at {} Hash {} ({})",
        plan.variant,
        plan.parent,
        plan.kind_text(),
        plan.tc,
        plan.hash_mb,
        plan.file
    )
}

/// Each variant's test, then each phase of each `--chain` against its
/// parent, at `--tc` if it is given; a variant named twice is refused, and
/// a chain's phase named already is tested once.
pub(super) fn test_plans(lab: &Lab, args: &OpenbenchArgs) -> Result<Vec<TestPlan>> {
    let mut plans: Vec<TestPlan> = Vec::new();
    for name in &args.variants {
        if plans.iter().any(|plan| &plan.variant == name) {
            bail!("`{name}` is named twice: one test a variant");
        }
        plans.push(planned(lab, args, name)?);
    }
    let every_variant = lab.every_variant();
    for chain in &args.chains {
        let phases = crate::verdicts::chain::resolve_args(&every_variant, std::slice::from_ref(chain))?;
        for name in phases.iter().skip(1) {
            if !plans.iter().any(|plan| &plan.variant == name) {
                plans.push(planned(lab, args, name).with_context(|| format!("chain {chain}"))?);
            }
        }
    }
    Ok(plans)
}

/// `name`'s test as the arguments ask: its file's SPRT, or `--games`.
fn planned(lab: &Lab, args: &OpenbenchArgs, name: &str) -> Result<TestPlan> {
    match args.games {
        None => TestPlan::of(lab, name)?.at(&args.tc),
        Some(games) => TestPlan::of_games(lab, name, games, &args.tc),
    }
}

/// The other engine every test is of, or `None` when they are prunelab's:
/// one command tests one engine.
pub(super) fn other_engine(plans: &[TestPlan]) -> Result<Option<&OtherEngine>> {
    fn engine(plan: &TestPlan) -> &str {
        plan.other_engine.as_ref().map_or("prunelab", |other| other.engine.as_str())
    }
    if let Some(plan) = plans.iter().find(|plan| engine(plan) != engine(&plans[0])) {
        bail!(
            "`{}` is a variant of {} and `{}` of {}: one command tests one engine",
            plans[0].variant,
            engine(&plans[0]),
            plan.variant,
            engine(plan)
        );
    }
    Ok(plans.first().and_then(|plan| plan.other_engine.as_ref()))
}

/// Refuses a test that `lab-results/` records as created already, on the
/// same server at the same commit, unless `again`.
pub(super) fn refuse_duplicates(lab: &Lab, plans: &[TestPlan], server: &str, commit: &str, again: bool) -> Result<()> {
    if again {
        return Ok(());
    }
    let created = created_tests(lab);
    for plan in plans {
        if let Some(test) = created.iter().find(|test| plan.is_created_as(test, server, commit)) {
            bail!(
                "{} against {} at {}, {} at {}, is test {} already ({}, created {}): give --again to create \
                 another",
                plan.variant,
                plan.parent,
                &commit[..commit.len().min(8)],
                plan.kind_text(),
                plan.tc,
                test.test_id,
                test.url,
                test.created
            );
        }
    }
    Ok(())
}

/// Creates the tests and records each in a run folder, made with the first
/// test the server accepted: a create that fails leaves nothing behind,
/// unless its request may have reached the server, which is then recorded
/// as unconfirmed. Before a test whose earlier create is unconfirmed is
/// created, the server is asked for it (by the `info` that create sent),
/// and a test found is recorded instead of created again; one not found is
/// created with the same `info`. Tests created before a failure stay
/// recorded, and the failure is returned.
pub(super) fn create_tests(
    lab: &Lab,
    args: &OpenbenchArgs,
    plans: &[TestPlan],
    build: &Build,
    server: &Server,
    run_name: &str,
) -> Result<()> {
    let mut text = plan_markdown(args, plans, build, run_name);
    writeln!(text, "\n## Created\n").unwrap();
    let unconfirmed = if args.again { Vec::new() } else { unconfirmed_tests(lab) };
    let mut run: Option<RunDir> = None;
    let mut failure = None;
    for plan in plans {
        let sides = format!("{} against {}", plan.variant, plan.parent);
        let earlier = unconfirmed.iter().rev().find(|attempt| {
            (attempt.server.as_str(), attempt.build.commit.as_str()) == (server.url.as_str(), build.commit.as_str())
                && plan.is_planned_as(&attempt.plan)
        });
        let info = earlier.map_or_else(|| info_line(plan, run_name), |attempt| attempt.info.clone());
        let found = match earlier {
            None => None,
            Some(attempt) => match server.find_test(&info, &build.commit, None) {
                Ok(found) => found,
                Err(error) => {
                    failure = Some(error.context(format!(
                        "{sides}: a create at {} may have reached the server, and it could not be asked for the \
                         test (info `{info}`): nothing was created; look for it on the server, or give --again",
                        attempt.attempted
                    )));
                    break;
                }
            },
        };
        let id = match found {
            Some(id) => id,
            None => match server.create_test(&create_fields(args, plan, build, &info), &info, &build.commit) {
                Ok(id) => id,
                Err(create) => {
                    let mut error = create.error.context(sides);
                    if create.may_exist {
                        let attempt = UnconfirmedTest {
                            server: server.url.clone(),
                            plan: plan.clone(),
                            build: build.clone(),
                            info,
                            attempted: timestamp(),
                            lost_answer: format!("{error:#}"),
                        };
                        run_folder(lab, args, &mut run)?.append(&attempt)?;
                        writeln!(text, "- {}: unconfirmed ({})", attempt.plan.variant, attempt.lost_answer).unwrap();
                        error = error.context(
                            "the test may exist on the server all the same: the next `lab openbench` of it asks the \
                             server for it before creating it",
                        );
                    }
                    failure = Some(error);
                    break;
                }
            },
        };
        let created = CreatedTest {
            server: server.url.clone(),
            test_id: id,
            url: server.test_url(id),
            plan: plan.clone(),
            build: build.clone(),
            info,
            created: timestamp(),
        };
        run_folder(lab, args, &mut run)?.append(&created)?;
        match found {
            Some(_) => {
                lab.say(&format!("found, not created again: {sides}: {}, made by an earlier attempt", created.url))
            }
            None => lab.say(&format!("created: {sides}: {}", created.url)),
        }
        writeln!(text, "- {sides}: test {id}, {}", created.url).unwrap();
    }
    if let Some(run) = &run {
        writeln!(text, "\n`lab openbench status` reads their games back.").unwrap();
        run.write_summary(&text, &read_records::<CreatedTest>(run.path()))?;
        println!("{text}");
    }
    match failure {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The run folder of the tests created, made with the first one recorded.
fn run_folder<'a>(lab: &Lab, args: &OpenbenchArgs, run: &'a mut Option<RunDir>) -> Result<&'a mut RunDir> {
    if run.is_none() {
        *run = Some(RunDir::create(&lab.results_root(), TESTS_COMMAND, args)?);
    }
    Ok(run.as_mut().expect("made above"))
}

/// What `--dry-run` prints, and a created run's summary starts with.
pub(super) fn plan_markdown(args: &OpenbenchArgs, plans: &[TestPlan], build: &Build, run: &str) -> String {
    let mut out = String::new();
    let short = |commit: &str| commit[..commit.len().min(8)].to_string();
    let at = match &build.base {
        Some(base) => format!("{} against {}", short(&build.commit), short(&base.commit)),
        None => short(&build.commit),
    };
    writeln!(out, "# OpenBench tests: {} at {at}\n", build.engine).unwrap();
    let engine = match plans.first().and_then(|plan| plan.other_engine.as_ref()) {
        None => format!(
            "Both sides of every test are `{}` at commit {} of {}, built by `make` (every variant's search in one \
             binary; the UCI option `Variant` chooses it). Bench {} (its `bench` searches as {}), for dev and base.",
            build.engine, build.commit, build.repo, build.bench, build.bench_variant
        ),
        Some(other) if build.base.is_some() => {
            let base = build.base.as_ref().expect("matched");
            format!(
                "The dev side is `{}` (engine `{}` of {}/) at commit {}, bench {} ({}); the base \
                 side at commit {}, bench {} ({}); both of {}, built by the server's workers as its configuration \
                 says, each side with its variant's UCI options.",
                build.engine,
                other.engine,
                variants_folder(plans),
                build.commit,
                build.bench,
                build.bench_source,
                base.commit,
                base.bench,
                base.bench_source,
                build.repo
            )
        }
        Some(other) => format!(
            "Both sides of every test are `{}` (engine `{}` of {}/) at commit {} of {}, built by \
             the server's workers as its configuration says; each side's UCI options choose its search. Bench {} \
             ({}, {}), for dev and base.",
            build.engine,
            other.engine,
            variants_folder(plans),
            build.commit,
            build.repo,
            build.bench,
            build.bench_source,
            build.bench_variant
        ),
    };
    writeln!(
        out,
        "{engine} Expected nps {} ({}), sent as scale_nps with scale_method BASE: a worker scales the time control \
         by it over its own bench nps. Book {}, SPRT confidence {CONFIDENCE}, adjudication `{WIN_ADJUDICATION}` and \
         `{DRAW_ADJUDICATION}`, no tablebases.\n",
        build.nps, build.nps_source, args.book
    )
    .unwrap();
    if plans.iter().any(|plan| plan.tc.starts_with("N=")) {
        writeln!(out, "A fixed-nodes time control (`N=`) is played as it is: workers scale only clocks.\n").unwrap();
    }
    if plans.iter().any(|plan| plan.games.is_some()) {
        writeln!(out, "A test of fixed games (`--games`) has no SPRT: OpenBench plays its games and stops.\n").unwrap();
    }
    let mut table = Table::new()
        .left("dev")
        .left("dev options")
        .left("base")
        .left("base options")
        .left("SPRT bounds (normalized Elo) or games")
        .left("tc")
        .right("hash")
        .left("from");
    for plan in plans {
        let given = match (plan.games, args.tc.is_some()) {
            (None, false) => " [sprt]",
            (None, true) => " [sprt], tc from --tc",
            (Some(_), false) => ", games from --games",
            (Some(_), true) => ", games from --games, tc from --tc",
        };
        table.push([
            plan.variant.clone(),
            format!("`{}`", plan.dev_options()),
            plan.parent.clone(),
            format!("`{}`", plan.base_options()),
            plan.kind_text(),
            plan.tc.clone(),
            plan.hash_mb.to_string(),
            format!("{}{given}", plan.file),
        ]);
    }
    write!(out, "{table}").unwrap();
    for plan in plans {
        writeln!(
            out,
            "\nThe fields sent for {} (with `username`, `password` and `action=CREATE_TEST`):\n",
            plan.variant
        )
        .unwrap();
        writeln!(out, "```").unwrap();
        for (key, value) in create_fields(args, plan, build, &info_line(plan, run)) {
            writeln!(out, "{key} = {value}").unwrap();
        }
        writeln!(out, "```").unwrap();
    }
    out
}

/// The folder the tests' variant files are in: `lab/other-engines/seajay`.
fn variants_folder(plans: &[TestPlan]) -> String {
    std::path::Path::new(&plans[0].file).parent().map_or_else(String::new, |folder| folder.display().to_string())
}

/// `https://github.com/OWNER/REPO` from a remote's address (`git@github.com:OWNER/REPO.git` too).
pub(super) fn github_address(remote: &str) -> Option<String> {
    let path = remote
        .strip_prefix("https://github.com/")
        .or_else(|| remote.strip_prefix("git@github.com:"))
        .or_else(|| remote.strip_prefix("ssh://git@github.com/"))?;
    let path = path.trim_end_matches('/').trim_end_matches(".git");
    let (owner, name) = path.split_once('/')?;
    let owner_ok = !owner.is_empty() && owner.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let name_ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    (owner_ok && name_ok).then(|| format!("https://github.com/{owner}/{name}"))
}

/// The repository workers download, checked as OpenBench checks it.
pub(super) fn repository(lab: &Lab, args: &OpenbenchArgs) -> Result<String> {
    let remote = match &args.repo {
        Some(repo) => repo.clone(),
        None => git(&lab.root, &["remote", "get-url", "origin"])
            .context("no --repo, and no `origin` remote to take it from")?
            .trim()
            .to_string(),
    };
    github_address(&remote).with_context(|| {
        format!("{remote}: OpenBench downloads sources from https://github.com/OWNER/REPO only; give --repo")
    })
}

/// The full hash of `--commit`.
pub(super) fn commit(lab: &Lab, args: &OpenbenchArgs) -> Result<String> {
    let commit = args.commit.as_deref().unwrap_or("HEAD");
    Ok(git(&lab.root, &["rev-parse", "--verify", &format!("{commit}^{{commit}}")])?.trim().to_string())
}
