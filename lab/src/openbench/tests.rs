//! `lab openbench` and `lab openbench status` against a stand-in server.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use games::results::{read_records, runs_of, RunDir};
use games::statistics::{openbench_elo_penta, openbench_error, Pentanomial, Wdl};
use serde_json::json;

use super::create::*;
use super::server::Kind;
use super::spsa::{check_worker_build, refuse_duplicate, tune_fields, CreatedTune, TUNES_COMMAND};
use super::stand_in::{status_server, tune_status_server, Request, Response, StandIn, COMMIT, TUNE_DIGEST};
use super::status::*;
use super::*;
use crate::tune::spsa_update::{Parameter, Schedule};
use crate::verdicts::evidence::{SprtReading, STATUS_COMMAND};

/// Every key OpenBench's `Scripts/create_test.py` (commit 9906bad) sends,
/// each of which its `create_new_test` reads.
const CREATE_TEST_KEYS: [&str; 33] = [
    "dev_engine",
    "dev_repo",
    "dev_branch",
    "dev_bench",
    "dev_network",
    "dev_options",
    "dev_time_control",
    "base_engine",
    "base_repo",
    "base_branch",
    "base_bench",
    "base_network",
    "base_options",
    "base_time_control",
    "test_mode",
    "test_bounds",
    "test_confidence",
    "test_max_games",
    "book_name",
    "upload_pgns",
    "throughput",
    "workload_size",
    "priority",
    "syzygy_wdl",
    "syzygy_adj",
    "win_adj",
    "draw_adj",
    "scale_method",
    "scale_nps",
    "info",
    "username",
    "password",
    "action",
];

fn args() -> OpenbenchArgs {
    OpenbenchArgs {
        command: None,
        variants: vec!["razor-r1".into(), "razor-r2".into()],
        chains: Vec::new(),
        server: ServerArgs { server: None, username: None, password: None },
        dry_run: false,
        repo: None,
        commit: None,
        tc: None,
        again: false,
        games: None,
        engine: None,
        book: "UHO_4060_v2.epd".into(),
        nps: None,
        bench: None,
        bench_runs: 5,
        priority: 0,
        throughput: 1000,
        workload_size: None,
        spsa: Default::default(),
    }
}

fn build() -> Build {
    Build {
        engine: "prunelab".into(),
        commit: COMMIT.into(),
        repo: "https://github.com/someone/prunelab".into(),
        bench: 7357031,
        nps: 2400000,
        nps_source: "a test's".into(),
        bench_variant: "baseline".into(),
        bench_source: String::new(),
        base: None,
    }
}

/// OpenBench as far as creating tests goes: the script endpoint takes
/// user `lab` with password `secret`, numbers the tests it accepts from
/// 100, lists them newest first on the user's page (for the session it
/// opened), and gives each one's `info` and commit through the API.
fn creating_server() -> StandIn {
    let created: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
    StandIn::start(move |request| {
        let mut created = created.lock().unwrap();
        match (request.method.as_str(), request.path.as_str()) {
            ("POST", "/scripts/") if request.field("password") != Some("secret") => Response::redirect("/login/", &[]),
            ("POST", "/scripts/") => {
                created.push(request.field("info").unwrap_or_default().to_string());
                Response::redirect("/index/", &["sessionid=s1; expires=Thu, 01 Jan 2099 00:00:00 GMT; Path=/"])
            }
            ("GET", "/user/lab/") if request.header("cookie") == Some("sessionid=s1") => {
                // An older test of the user's, with another info, is listed too.
                let links: Vec<String> =
                    (0..=created.len()).rev().map(|index| format!("<a href=\"/test/{}/\">t</a>", 99 + index)).collect();
                Response::ok("text/html", links.join("\n"))
            }
            ("POST", path) if path.starts_with("/api/workload/") && path.ends_with("/info/") => {
                let id: usize = path["/api/workload/".len()..path.len() - "/info/".len()].parse().unwrap();
                let info = if id == 99 { "an older test".to_string() } else { created[id - 100].clone() };
                Response::json(json!({"info": {"id": id, "info": info, "dev": {"sha": COMMIT}}}))
            }
            _ => Response::not_found(),
        }
    })
}

#[test]
fn a_test_is_created_with_every_field_of_create_test_and_found_again() {
    let lab = Lab::for_tests();
    let stand_in = creating_server();
    let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
    let mut ids = Vec::new();
    for name in ["razor-r1", "razor-r2"] {
        let plan = TestPlan::of(&lab, name).unwrap();
        let info = info_line(&plan, "20261125T000000Z-openbench-tests");
        ids.push(server.create_test(&create_fields(&args(), &plan, &build(), &info), &info, COMMIT).unwrap());
    }
    assert_eq!(ids, [100, 101]);
    let posts: Vec<_> = stand_in.requests().into_iter().filter(|request| request.path == "/scripts/").collect();
    assert_eq!(posts.len(), 2);
    // What razor-r1's and razor-r2's files say ([sprt] and extends), written out.
    for (post, (variant, parent, bounds)) in
        posts.iter().zip([("razor-r1", "p003-3", "[0.00, 5.00]"), ("razor-r2", "razor-r1", "[-3.00, 3.00]")])
    {
        let sent: BTreeMap<&str, &str> = post.form.iter().map(|(key, value)| (key.as_str(), value.as_str())).collect();
        assert_eq!(sent.len(), post.form.len(), "a field sent twice: {:?}", post.form);
        let keys: Vec<&str> = sent.keys().copied().collect();
        let mut expected_keys = CREATE_TEST_KEYS.to_vec();
        expected_keys.sort_unstable();
        assert_eq!(keys, expected_keys);
        let info = format!(
            "lab openbench 20261125T000000Z-openbench-tests: {variant} against its parent {parent}, {bounds} at \
             10+0.1 Hash 8 (variants/{variant}.toml)"
        );
        let dev_options = format!("Threads=1 Hash=8 Variant={variant}");
        let base_options = format!("Threads=1 Hash=8 Variant={parent}");
        let expected: BTreeMap<&str, &str> = [
            ("dev_engine", "prunelab"),
            ("dev_repo", "https://github.com/someone/prunelab"),
            ("dev_branch", COMMIT),
            ("dev_bench", "7357031"),
            ("dev_network", ""),
            ("dev_options", dev_options.as_str()),
            ("dev_time_control", "10+0.1"),
            ("base_engine", "prunelab"),
            ("base_repo", "https://github.com/someone/prunelab"),
            ("base_branch", COMMIT),
            ("base_bench", "7357031"),
            ("base_network", ""),
            ("base_options", base_options.as_str()),
            ("base_time_control", "10+0.1"),
            ("test_mode", "SPRT"),
            ("test_bounds", bounds),
            ("test_confidence", "[0.05, 0.05]"),
            ("test_max_games", "N/A"),
            ("book_name", "UHO_4060_v2.epd"),
            ("upload_pgns", "FALSE"),
            ("throughput", "1000"),
            ("workload_size", "32"),
            ("priority", "0"),
            ("syzygy_wdl", "DISABLED"),
            ("syzygy_adj", "OPTIONAL"),
            ("win_adj", "movecount=3 score=400"),
            ("draw_adj", "movenumber=40 movecount=8 score=10"),
            ("scale_method", "BASE"),
            ("scale_nps", "2400000"),
            ("info", info.as_str()),
            ("username", "lab"),
            ("password", "secret"),
            ("action", "CREATE_TEST"),
        ]
        .into_iter()
        .collect();
        assert_eq!(sent, expected);
        assert_eq!(post.header("content-type"), Some("application/x-www-form-urlencoded"));
    }
    // A wrong password: OpenBench sends the script back to its login page.
    let intruder = Server::new(&stand_in.url, "lab", "guess").unwrap();
    let plan = TestPlan::of(&lab, "razor-r1").unwrap();
    let failure = intruder.create_test(&create_fields(&args(), &plan, &build(), "x"), "x", COMMIT).unwrap_err();
    assert!(failure.error.to_string().contains("user `lab` could not log in, or is not enabled"), "{failure:?}");
    assert!(!failure.may_exist);
}

#[test]
fn a_refused_test_says_what_openbench_said() {
    let stand_in = StandIn::start(|request| {
        match (request.method.as_str(), request.path.as_str()) {
        ("POST", "/scripts/") => Response::redirect("/test/new/", &["sessionid=s2; Path=/"]),
        ("GET", "/test/new/") if request.header("cookie") == Some("sessionid=s2") => Response::ok(
            "text/html",
            "<div class=\"error-message\">\n<pre>Sources must be found on https://github.com/&lt;User&gt;/&lt;Repo&gt;\n\
             0123 could not be found</pre>\n</div>",
        ),
        _ => Response::not_found(),
    }
    });
    let lab = Lab::for_tests();
    let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
    let plan = TestPlan::of(&lab, "razor-r1").unwrap();
    let failure = server.create_test(&create_fields(&args(), &plan, &build(), "x"), "x", COMMIT).unwrap_err();
    assert!(!failure.may_exist);
    assert_eq!(
        failure.error.to_string(),
        "OpenBench refused the test: Sources must be found on https://github.com/<User>/<Repo>\n0123 could not be found"
    );
}

#[test]
fn status_reads_a_test_back_where_lab_ab_finds_it() {
    let stand_in = status_server();
    let results = std::env::temp_dir().join(format!("prunelab-openbench-status-{}", std::process::id()));
    std::fs::remove_dir_all(&results).ok();
    let lab = Lab::for_tests().nested(&results);
    let mut created = RunDir::create(&results, TESTS_COMMAND, &serde_json::json!({})).unwrap();
    created.append(&razor_test(&lab, &stand_in.url)).unwrap();
    let server = ServerArgs { server: None, username: None, password: None };
    status(&lab, &StatusArgs { tests: Vec::new(), server }).unwrap();

    let found = crate::verdicts::evidence::game_results(&results, "razor-r1", "p003-3");
    assert_eq!(found.len(), 1, "{found:?}");
    let result = &found[0];
    assert_eq!(result.source, format!("OpenBench test 42, {}/test/42/", stand_in.url));
    assert_eq!((result.tc.as_str(), result.finished), ("10.0+0.10", false));
    assert_eq!(result.wdl, Wdl { wins: 20, draws: 30, losses: 14 });
    assert_eq!(result.penta, Pentanomial([2, 6, 12, 8, 4]));
    assert_eq!(
        result.sprt,
        Some(SprtReading { elo0: 0.0, elo1: 5.0, llr: 0.31, lower: -2.944438979166, upper: 2.944438979166 })
    );
    assert_eq!((result.time_losses, result.crashes), (1, 0));
    let summary = std::fs::read_to_string(runs_of(&results, STATUS_COMMAND)[0].join("summary.md")).unwrap();
    assert!(summary.contains("| running | 10.0+0.10 | 64 | 20 / 14 / 30 | [2, 6, 12, 8, 4] |"), "{summary}");
    // Elo as OpenBench's page shows it, then the lab's.
    let (elo, nelo) = found[0].elo_texts();
    let openbench = openbench_elo_penta(&Pentanomial([2, 6, 12, 8, 4])).unwrap();
    let openbench = format!("{:.2} ± {:.2}", openbench.value, openbench_error(&openbench));
    assert!(summary.contains(&format!("| [2, 6, 12, 8, 4] | {openbench} | {elo} | {nelo} |")), "{summary}");
    std::fs::remove_dir_all(&results).unwrap();
}

/// razor-r1's test 42 on `server`, as `lab openbench` records it.
fn razor_test(lab: &Lab, server: &str) -> CreatedTest {
    CreatedTest {
        server: server.to_string(),
        test_id: 42,
        url: format!("{server}/test/42/"),
        plan: TestPlan::of(lab, "razor-r1").unwrap(),
        build: build(),
        info: "lab openbench ...".into(),
        created: "20261125T140000Z".into(),
    }
}

/// A results folder of its own for a test, and the lab that writes there.
fn results_folder(name: &str) -> (PathBuf, Lab) {
    let results = std::env::temp_dir().join(format!("prunelab-openbench-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&results).ok();
    let lab = Lab::for_tests().nested(&results);
    (results, lab)
}

fn with_server(server: &str) -> OpenbenchArgs {
    let server =
        ServerArgs { server: Some(server.to_string()), username: Some("lab".into()), password: Some("secret".into()) };
    OpenbenchArgs { variants: vec!["razor-r1".into()], server, ..args() }
}

#[test]
fn plain_http_to_another_host_is_refused_before_anything_is_sent() {
    let stand_in = creating_server();
    let (results, lab) = results_folder("plain-http");
    // 0.0.0.0 is no loopback address, yet on Linux it reaches this
    // machine's listeners: the stand-in would receive what is sent.
    let port = stand_in.url.rsplit(':').next().unwrap();
    let url = format!("http://0.0.0.0:{port}");
    let error = command(&lab, &with_server(&url)).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "--server {url}: plain http would send the password in clear text to 0.0.0.0; use https:// (http:// \
             only to this machine: 127.0.0.1, ::1, localhost)"
        )
    );
    assert_eq!(stand_in.requests().len(), 0);
    assert!(!results.exists(), "nothing is written either");
}

#[test]
fn a_second_identical_create_is_refused_unless_again() {
    let stand_in = creating_server();
    let (results, lab) = results_folder("again");
    let args = with_server(&stand_in.url);
    let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
    let plans = test_plans(&lab, &args).unwrap();
    let run = "20261125T000000Z-openbench-tests";
    // As `command` does: the duplicates checked, then the tests created.
    refuse_duplicates(&lab, &plans, &server.url, COMMIT, false).unwrap();
    create_tests(&lab, &args, &plans, &build(), &server, run).unwrap();
    let error = refuse_duplicates(&lab, &plans, &server.url, COMMIT, false).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "razor-r1 against p003-3 at 01234567, [0.00, 5.00] at 10+0.1, is test 100 already ({}/test/100/, \
             created {}): give --again to create another",
            stand_in.url,
            created_tests(&lab)[0].created
        )
    );
    // Another time control, bounds or commit, or another server, is another test.
    let at_fixed_nodes = plans[0].clone().at(&Some("N=25000".into())).unwrap();
    refuse_duplicates(&lab, &[at_fixed_nodes], &server.url, COMMIT, false).unwrap();
    refuse_duplicates(&lab, &plans, &server.url, &"f".repeat(40), false).unwrap();
    refuse_duplicates(&lab, &plans, "https://openbench.example", COMMIT, false).unwrap();
    refuse_duplicates(&lab, &plans, &server.url, COMMIT, true).unwrap();
    let posts = stand_in.requests().into_iter().filter(|request| request.path == "/scripts/").count();
    assert_eq!(posts, 1);
    // A variant named twice on one command line is refused too.
    let twice = OpenbenchArgs { variants: vec!["razor-r1".into(), "razor-r1".into()], ..args };
    assert_eq!(test_plans(&lab, &twice).unwrap_err().to_string(), "`razor-r1` is named twice: one test a variant");
    std::fs::remove_dir_all(&results).unwrap();
}

#[test]
fn a_failed_create_leaves_no_run_folder() {
    let stand_in = creating_server();
    let (results, lab) = results_folder("failed-create");
    let args = with_server(&stand_in.url);
    let intruder = Server::new(&stand_in.url, "lab", "guess").unwrap();
    let plans = test_plans(&lab, &args).unwrap();
    let error = create_tests(&lab, &args, &plans, &build(), &intruder, "run").unwrap_err();
    assert_eq!(
        format!("{error:#}"),
        "razor-r1 against p003-3: OpenBench refused to create the test: user `lab` could not log in, or is not \
         enabled to create tests"
    );
    assert!(runs_of(&results, TESTS_COMMAND).is_empty());
    assert!(!results.exists(), "{} was made", results.display());
}

#[test]
fn fixed_nodes_reach_the_form_as_openbench_writes_them() {
    let stand_in = creating_server();
    let (results, lab) = results_folder("fixed-nodes");
    let args = OpenbenchArgs { tc: Some("N=25000".into()), ..with_server(&stand_in.url) };
    let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
    let plans = test_plans(&lab, &args).unwrap();
    assert_eq!(plans[0].tc, "N=25000");
    create_tests(&lab, &args, &plans, &build(), &server, "run").unwrap();
    let post = stand_in.requests().into_iter().find(|request| request.path == "/scripts/").unwrap();
    // OpenBench's TimeControl.parse keeps `N=25000` as it is, and its
    // workers play it as `tc=inf nodes=25000`.
    assert_eq!((post.field("dev_time_control"), post.field("base_time_control")), (Some("N=25000"), Some("N=25000")));
    assert_eq!(created_tests(&lab)[0].plan.tc, "N=25000");
    let summary = std::fs::read_to_string(runs_of(&results, TESTS_COMMAND)[0].join("summary.md")).unwrap();
    assert!(summary.contains("A fixed-nodes time control (`N=`) is played as it is: workers scale only clocks."));
    assert!(summary.contains("| [0.00, 5.00] | N=25000 | 8 | variants/razor-r1.toml [sprt], tc from --tc |"));
    for (tc, refusal) in [
        ("N=0", "--tc 'N=0': N= takes a positive whole number of nodes, such as N=25000"),
        ("N=25k", "--tc 'N=25k': N= takes a positive whole number of nodes, such as N=25000"),
        ("25000", "--tc '25000' is not base+increment in seconds, such as 10+0.1, nor fixed nodes, such as N=25000"),
    ] {
        let args = OpenbenchArgs { tc: Some(tc.into()), ..args.clone() };
        assert_eq!(test_plans(&lab, &args).unwrap_err().to_string(), refusal);
    }
    std::fs::remove_dir_all(&results).unwrap();
}

/// Two servers, each with a test 42, both recorded in lab-results/.
fn two_servers_with_a_test_each(lab: &Lab, results: &Path) -> (StandIn, StandIn) {
    let (named, other) = (status_server(), status_server());
    let mut created = RunDir::create(results, TESTS_COMMAND, &serde_json::json!({})).unwrap();
    for stand_in in [&named, &other] {
        created.append(&razor_test(lab, &stand_in.url)).unwrap();
    }
    (named, other)
}

/// The username and password fields of each request a stand-in received.
fn credentials_sent(stand_in: &StandIn) -> Vec<(Option<String>, Option<String>)> {
    let field = |request: &stand_in::Request, name: &str| request.field(name).map(str::to_string);
    stand_in.requests().iter().map(|request| (field(request, "username"), field(request, "password"))).collect()
}

#[test]
fn status_sends_credentials_to_no_server_but_the_named_one() {
    let (results, lab) = results_folder("status-credentials");
    let (named, other) = two_servers_with_a_test_each(&lab, &results);
    let server =
        ServerArgs { server: Some(named.url.clone()), username: Some("lab".into()), password: Some("secret".into()) };
    status(&lab, &StatusArgs { tests: Vec::new(), server: server.clone() }).unwrap();
    let with = (Some("lab".to_string()), Some("secret".to_string()));
    // Both tests are read: the info and the results of each.
    assert_eq!(credentials_sent(&named), [with.clone(), with]);
    assert_eq!(credentials_sent(&other), [(None, None), (None, None)]);
    let summary = std::fs::read_to_string(runs_of(&results, STATUS_COMMAND)[0].join("summary.md")).unwrap();
    assert_eq!(summary.matches("| running | 10.0+0.10 | 64 |").count(), 2, "{summary}");
    assert!(
        summary.contains(&format!(
            "Note: test 42 is on {}, not on the server --server names ({}): read without credentials.",
            other.url, named.url
        )),
        "{summary}"
    );
    // No server named: the credentials go nowhere.
    let unnamed = ServerArgs { server: None, ..server };
    status(&lab, &StatusArgs { tests: Vec::new(), server: unnamed }).unwrap();
    assert_eq!(credentials_sent(&named)[2..], [(None, None), (None, None)]);
    assert_eq!(credentials_sent(&other)[2..], [(None, None), (None, None)]);
    std::fs::remove_dir_all(&results).unwrap();
}

#[test]
fn a_remote_becomes_the_github_address_openbench_accepts() {
    for remote in [
        "https://github.com/someone/prunelab",
        "https://github.com/someone/prunelab.git",
        "git@github.com:someone/prunelab.git",
    ] {
        assert_eq!(github_address(remote).as_deref(), Some("https://github.com/someone/prunelab"), "{remote}");
    }
    assert_eq!(github_address("https://gitlab.com/someone/prunelab"), None);
    assert_eq!(github_address("/work/main"), None);
}

#[test]
fn a_variant_is_planned_from_its_sprt_against_its_parent() {
    let lab = Lab::for_tests();
    let plan = TestPlan::of(&lab, "razor-r1").unwrap();
    assert_eq!(
        plan,
        TestPlan {
            variant: "razor-r1".into(),
            parent: "p003-3".into(),
            bounds: Some((0.0, 5.0)),
            games: None,
            tc: "10+0.1".into(),
            hash_mb: 8,
            file: "variants/razor-r1.toml".into(),
            other_engine: None,
        }
    );
    assert_eq!(plan.dev_options(), "Threads=1 Hash=8 Variant=razor-r1");
    assert_eq!(plan.base_options(), "Threads=1 Hash=8 Variant=p003-3");
    assert!(TestPlan::of(&lab, "probcut").unwrap_err().to_string().contains("variants/probcut.toml has no [sprt]"));
    assert!(TestPlan::of(&lab, "baseline").unwrap_err().to_string().contains("no parent"));
}

/// A stand-in for another engine: `bench` prints SeaJay's last two lines,
/// and the UCI handshake offers SeaJay's razoring options.
const OTHER_ENGINE: &str = "#!/bin/sh
if [ \"$1\" = bench ]; then
  echo 'info string Benchmark complete: 2508823 nodes, 312598 nps'
  echo '2508823 nodes 312598 nps'
  exit 0
fi
while read -r line; do
  case \"$line\" in
    uci) echo 'id name Other stand-in'
         echo 'option name Hash type spin default 16 min 1 max 64'
         echo 'option name UseRazoring type check default true'
         echo 'option name RazorMargin1 type spin default 274 min 100 max 800'
         echo 'option name RazorMargin2 type spin default 468 min 200 max 1200'
         echo uciok;;
    isready) echo readyok;;
    quit) exit 0;;
  esac
done
";

/// A folder with the stand-in engine, and the lab that runs it as SeaJay.
fn with_other_engine(name: &str) -> (PathBuf, Lab) {
    use std::os::unix::fs::PermissionsExt;
    let (results, mut lab) = results_folder(name);
    std::fs::create_dir_all(&results).unwrap();
    let engine = results.join("stand-in");
    std::fs::write(&engine, OTHER_ENGINE).unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    lab.global.engine_paths = vec![format!("seajay={}", engine.display())];
    (results, lab)
}

#[test]
fn another_engines_variant_is_one_commit_of_it_with_two_option_sets() {
    let stand_in = creating_server();
    let (results, lab) = with_other_engine("other-engine");
    let args = OpenbenchArgs { variants: vec!["seajay-razor-r1-r2".into()], ..with_server(&stand_in.url) };
    let plans = test_plans(&lab, &args).unwrap();
    let other = other_engine(&plans).unwrap().unwrap();
    let build = super::build::other_engine_build(&lab, &args, &plans, other).unwrap();
    let engine = results.join("stand-in");
    assert_eq!(
        build,
        Build {
            engine: "seajay".into(),
            commit: "1c64dbc4348a0b0073e2b0c9dab4bbe1cb09223d".into(),
            repo: "https://github.com/namebrandon/seajay-chess".into(),
            bench: 2508823,
            nps: 312598,
            nps_source: "the median of 5 `bench` runs on this machine, 312598 to 312598".into(),
            bench_variant: "its default options".into(),
            bench_source: format!("`bench` of {}", engine.display()),
            base: None,
        }
    );
    // What --dry-run prints: every field.
    let run = "20261127T000000Z-openbench-tests";
    let printed = plan_markdown(&args, &plans, &build, run);
    let fields = "dev_engine = seajay\n\
        dev_repo = https://github.com/namebrandon/seajay-chess\n\
        dev_branch = 1c64dbc4348a0b0073e2b0c9dab4bbe1cb09223d\n\
        dev_bench = 2508823\n\
        dev_network = \n\
        dev_options = Threads=1 Hash=8 RazorMargin1=300 RazorMargin2=500 UseRazoring=true\n\
        dev_time_control = 10+0.1\n\
        base_engine = seajay\n\
        base_repo = https://github.com/namebrandon/seajay-chess\n\
        base_branch = 1c64dbc4348a0b0073e2b0c9dab4bbe1cb09223d\n\
        base_bench = 2508823\n\
        base_network = \n\
        base_options = Threads=1 Hash=8 UseRazoring=false\n\
        base_time_control = 10+0.1\n\
        test_mode = SPRT\n\
        test_bounds = [0.00, 5.00]\n";
    assert!(printed.contains(fields), "{printed}");
    assert!(printed.contains(
        "info = lab openbench 20261127T000000Z-openbench-tests: seajay-razor-r1-r2 against its parent \
         seajay-razor-off, [0.00, 5.00] at 10+0.1 Hash 8 (lab/other-engines/seajay/seajay-razor-r1-r2.toml)"
    ));
    assert!(printed.contains(&format!(
        "Both sides of every test are `seajay` (engine `seajay` of lab/other-engines/seajay/) at commit \
         1c64dbc4348a0b0073e2b0c9dab4bbe1cb09223d of https://github.com/namebrandon/seajay-chess, built by the \
         server's workers as its configuration says; each side's UCI options choose its search. Bench 2508823 \
         (`bench` of {}, its default options), for dev and base.",
        engine.display()
    )));
    // Created as it was printed, and recorded.
    let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
    // (The stand-in server's tests are all at COMMIT.)
    let at_commit = Build { commit: COMMIT.into(), ..build };
    create_tests(&lab, &args, &plans, &at_commit, &server, run).unwrap();
    let post = stand_in.requests().into_iter().find(|request| request.path == "/scripts/").unwrap();
    assert_eq!(post.field("dev_options"), Some("Threads=1 Hash=8 RazorMargin1=300 RazorMargin2=500 UseRazoring=true"));
    assert_eq!(post.field("base_options"), Some("Threads=1 Hash=8 UseRazoring=false"));
    assert_eq!(post.field("base_engine"), Some("seajay"));
    assert_eq!(created_tests(&lab)[0].plan.other_engine.as_ref().unwrap().engine, "seajay");
    // --engine names it otherwise on the server; --bench and --nps stand
    // for a binary not given.
    let mut unbuilt = Lab::for_tests().nested(&results);
    unbuilt.global.engine_paths.clear();
    let named = OpenbenchArgs { engine: Some("SeaJay".into()), bench: Some(1), nps: Some(2), ..args.clone() };
    let build = super::build::other_engine_build(&unbuilt, &named, &plans, other).unwrap();
    assert_eq!((build.engine.as_str(), build.bench, build.nps), ("SeaJay", 1, 2));
    assert_eq!((build.bench_source.as_str(), build.nps_source.as_str()), ("--bench", "--nps"));
    std::fs::remove_dir_all(&results).unwrap();
}

#[test]
fn a_fixed_nodes_test_of_another_engine_needs_one_that_stops_at_go_nodes() {
    let (results, mut lab) = with_other_engine("other-engine-go-nodes");
    let args = OpenbenchArgs {
        variants: vec!["seajay-razor-r1-r2".into()],
        tc: Some("N=10000".into()),
        ..with_server("http://127.0.0.1:9")
    };
    let plans = test_plans(&lab, &args).unwrap();
    let other = other_engine(&plans).unwrap().unwrap();
    let engine = results.join("stand-in");
    // The stand-in never answers `go`, as SeaJay v20251002 searches on.
    assert_eq!(
        super::build::other_engine_build(&lab, &args, &plans, other).unwrap_err().to_string(),
        format!(
            "engine `seajay` does not stop at `go nodes 10000` (no bestmove within 1 s) ({}), so a fixed-nodes \
             test (--tc N=10000) would not measure what it says: give a time control such as --tc 10+0.1",
            engine.display()
        )
    );
    // One that answers is sent.
    let answering = results.join("answering");
    std::fs::write(&answering, OTHER_ENGINE.replace("    isready)", "    go*) echo 'bestmove e2e4';;\n    isready)"))
        .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&answering, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    lab.global.engine_paths = vec![format!("seajay={}", answering.display())];
    let build = super::build::other_engine_build(&lab, &args, &plans, other).unwrap();
    assert_eq!(build.bench, 2508823);
    // Without a binary, or a repository to build one from, there is nothing to ask.
    lab.global.engine_paths.clear();
    let given = OpenbenchArgs { bench: Some(1), nps: Some(2), ..args.clone() };
    let unbuildable = OtherEngine { repository: None, ..other.clone() };
    assert_eq!(
        super::build::other_engine_build(&lab, &given, &plans, &unbuildable).unwrap_err().to_string(),
        "a fixed-nodes test (--tc N=10000) of engine `seajay` needs its binary, to check that it stops at `go \
         nodes`: give --engine-path seajay=PATH, or the `repository` its commit is built from in its files"
    );
    std::fs::remove_dir_all(&results).unwrap();
}

#[test]
fn another_engines_test_is_refused_saying_what_is_missing() {
    let (results, mut lab) = results_folder("other-engine-refused");
    let folder = results.join(crate::variants::external::FOLDER).join("x");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("x-off.toml"), "name = \"x-off\"\nengine = \"x\"\n[options]\nA = 1\n").unwrap();
    let sprt = "[sprt]\nbounds = [0, 5]\ntc = \"10+0.1\"\n";
    std::fs::write(
        folder.join("x-on.toml"),
        format!("name = \"x-on\"\nengine = \"x\"\nextends = \"x-off\"\n[options]\nA = 2\n{sprt}"),
    )
    .unwrap();
    std::fs::write(
        folder.join("x-wide.toml"),
        format!("name = \"x-wide\"\nengine = \"x\"\nextends = \"x-off\"\n[options]\nMode = \"very wide\"\n{sprt}"),
    )
    .unwrap();
    lab.externals = crate::variants::external::load(&results, &lab.variants).unwrap();
    let dry = |variants: &[&str], edit: fn(OpenbenchArgs) -> OpenbenchArgs| {
        let args =
            OpenbenchArgs { variants: variants.iter().map(|name| name.to_string()).collect(), dry_run: true, ..args() };
        format!("{:#}", command(&lab, &edit(args)).unwrap_err())
    };
    assert_eq!(
        dry(&["x-on"], |args| args),
        "`x-on` is a variant of engine `x`, and its files give no `repository` for OpenBench's workers: add \
         `repository = ...` to lab/other-engines/x/x-on.toml or a parent's file, or give --repo"
    );
    assert_eq!(
        dry(&["x-on"], |args| OpenbenchArgs { repo: Some("https://gitlab.com/someone/x".into()), ..args }),
        "https://gitlab.com/someone/x: OpenBench downloads sources from https://github.com/OWNER/REPO only; give --repo"
    );
    fn at_github(args: OpenbenchArgs) -> OpenbenchArgs {
        OpenbenchArgs { repo: Some("https://github.com/someone/x".into()), ..args }
    }
    fn at_commit(args: OpenbenchArgs) -> OpenbenchArgs {
        OpenbenchArgs { commit: Some("abc".into()), ..at_github(args) }
    }
    assert_eq!(
        dry(&["x-on"], at_github),
        "`x-on` is a variant of engine `x`, and its files give no `commit` for OpenBench's workers: add `commit = \
         ...` to lab/other-engines/x/x-on.toml or a parent's file, or give --commit"
    );
    assert_eq!(
        dry(&["x-on"], at_commit),
        "engine `x`'s bench and nps for OpenBench: give its binary with --engine-path x=PATH (its `bench` prints \
         them), or --bench N and --nps N"
    );
    assert_eq!(
        dry(&["x-on"], |args| OpenbenchArgs { nps: Some(1), ..at_commit(args) }),
        "engine `x`'s bench and nps for OpenBench: give its binary with --engine-path x=PATH (its `bench` prints \
         them), or --bench N and --nps N"
    );
    assert_eq!(
        dry(&["razor-r1", "x-on"], |args| args),
        "`razor-r1` is a variant of prunelab and `x-on` of x: one command tests one engine"
    );
    assert_eq!(
        dry(&["x-wide"], |args| args),
        "`x-wide`: option `Mode` = `very wide` cannot be sent to OpenBench, whose options are Name=value words \
         split at spaces"
    );
    assert_eq!(dry(&["x-off"], |args| args), "`x-off` has no parent to test it against on OpenBench");
    std::fs::remove_dir_all(&results).unwrap();
}

#[test]
fn a_test_of_two_commits_refuses_what_would_make_its_sides_one() {
    let (results, mut lab) = results_folder("two-commits-refused");
    let folder = results.join(crate::variants::external::FOLDER).join("x");
    std::fs::create_dir_all(&folder).unwrap();
    let root = "engine = \"x\"\nrepository = \"https://github.com/someone/x\"\n";
    std::fs::write(folder.join("x-before.toml"), format!("name = \"x-before\"\n{root}commit = \"aaa\"\n")).unwrap();
    std::fs::write(
        folder.join("x-after.toml"),
        "name = \"x-after\"\nengine = \"x\"\nextends = \"x-before\"\ncommit = \"bbb\"\n\
         [sprt]\nbounds = [0, 5]\ntc = \"10+0.1\"\n",
    )
    .unwrap();
    lab.externals = crate::variants::external::load(&results, &lab.variants).unwrap();
    let plans = test_plans(&lab, &OpenbenchArgs { variants: vec!["x-after".into()], ..args() }).unwrap();
    let other = plans[0].other_engine.as_ref().unwrap();
    assert_eq!((other.commit.as_deref(), other.base_commit.as_deref()), (Some("bbb"), Some("aaa")));
    let refused = |lab: &Lab, edit: fn(OpenbenchArgs) -> OpenbenchArgs| {
        let args = edit(OpenbenchArgs { variants: vec!["x-after".into()], dry_run: true, ..args() });
        super::build::other_engine_build(lab, &args, &plans, other).unwrap_err().to_string()
    };
    assert_eq!(
        refused(&lab, |args| OpenbenchArgs { commit: Some("ccc".into()), ..args }),
        "`x-after` is at another commit than its parent `x-before`: --commit would make both sides one commit; \
         leave it out"
    );
    assert_eq!(
        refused(&lab, |args| OpenbenchArgs { bench: Some(1), ..args }),
        "--bench gives one bench, and the two sides are two commits with a bench each: leave it out"
    );
    lab.global.engine_paths = vec!["x=/usr/local/bin/x".into()];
    assert_eq!(
        refused(&lab, |args| args),
        "--engine-path x=/usr/local/bin/x gives one binary, and `x-after` and its parent are two commits (bbb and \
         aaa): leave it out, and the lab builds each from the repository the variant files name"
    );
    std::fs::remove_dir_all(&results).unwrap();
}

#[test]
fn a_chain_is_every_phase_against_its_parent_at_fixed_nodes() {
    let lab = Lab::for_tests();
    let args =
        OpenbenchArgs { variants: Vec::new(), chains: vec!["razor".into()], tc: Some("N=10000".into()), ..args() };
    let plans = test_plans(&lab, &args).unwrap();
    let pairs: Vec<(&str, &str, &str)> =
        plans.iter().map(|plan| (plan.variant.as_str(), plan.parent.as_str(), plan.tc.as_str())).collect();
    assert_eq!(
        pairs,
        [("razor-r1", "p003-3", "N=10000"), ("razor-r2", "razor-r1", "N=10000"), ("razor-r3", "razor-r2", "N=10000")]
    );
    let printed = plan_markdown(&args, &plans, &build(), "run");
    assert!(printed.contains("A fixed-nodes time control (`N=`) is played as it is: workers scale only clocks."));
    for (variant, parent, bounds) in [
        ("razor-r1", "p003-3", "[0.00, 5.00]"),
        ("razor-r2", "razor-r1", "[-3.00, 3.00]"),
        ("razor-r3", "razor-r2", "[0.00, 5.00]"),
    ] {
        let row = format!(
            "| {variant} | `Threads=1 Hash=8 Variant={variant}` | {parent} | `Threads=1 Hash=8 Variant={parent}` | \
             {bounds}"
        );
        assert!(printed.contains(&row), "{row}\n{printed}");
        assert!(printed.contains(&format!("dev_options = Threads=1 Hash=8 Variant={variant}\n")));
    }
    assert_eq!(printed.matches("dev_time_control = N=10000\n").count(), 3);
    // A variant named too is tested once; another engine's chain is its
    // phases' option sets.
    let both = OpenbenchArgs { variants: vec!["razor-r2".into()], ..args.clone() };
    let names: Vec<String> = test_plans(&lab, &both).unwrap().into_iter().map(|plan| plan.variant).collect();
    assert_eq!(names, ["razor-r2", "razor-r1", "razor-r3"]);
    let seajay = OpenbenchArgs { chains: vec!["seajay-p002".into()], ..args.clone() };
    let plans = test_plans(&lab, &seajay).unwrap();
    assert_eq!(plans.len(), 10);
    assert_eq!((plans[0].variant.as_str(), plans[0].parent.as_str()), ("seajay-p002-1.3", "seajay-p002-before"));
    assert_eq!(
        plans[0].dev_options(),
        "Threads=1 Hash=16 FutilityPruning=false MoveCountHistoryBonus=0 MoveCountPruning=false \
         NullMoveVerifyDepth=14 UseRazoring=false QSEEPruning=conservative"
    );
    assert_eq!(plans[9].tc, "N=10000");
    let unknown = OpenbenchArgs { chains: vec!["p004".into()], ..args };
    assert!(test_plans(&lab, &unknown).unwrap_err().to_string().starts_with("unknown chain `p004`"));
}

#[test]
fn a_bench_is_read_as_an_openbench_worker_reads_it() {
    use super::build::openbench_bench;
    let seajay = "Total: 2508823 nodes in 8025 ms (312598 nps)\n\
                  info string Benchmark complete: 2508823 nodes, 312598 nps\n2508823 nodes 312598 nps\n";
    assert_eq!(openbench_bench(seajay), Some((2508823, 312598)));
    assert_eq!(openbench_bench("Bench: 7357031 nodes 2400000 nps\n"), Some((7357031, 2400000)));
    let stockfish = "Total time (ms) : 3000\nNodes searched  : 1234567\nNodes/second    : 411522\n";
    assert_eq!(openbench_bench(stockfish), Some((1234567, 411522)));
    // The last line that has each counts: an earlier nps does not replace it.
    assert_eq!(openbench_bench("9 nps\n5 nodes\n7 nps\n"), Some((5, 7)));
    assert_eq!(openbench_bench("bestmove e2e4\n"), None);
}

#[test]
fn a_chain_without_sprt_plays_fixed_games_as_the_atlas_does() {
    let lab = Lab::for_tests();
    let chain = OpenbenchArgs { variants: Vec::new(), chains: vec!["p003".into()], ..args() };
    let error = |args: &OpenbenchArgs| format!("{:#}", test_plans(&lab, args).unwrap_err());
    assert_eq!(
        error(&chain),
        "chain p003: variants/p003-1.toml has no [sprt]: add its bounds, tc and hash to test it on OpenBench, or \
         give --games N and --tc"
    );
    let games = OpenbenchArgs { games: Some(1000), ..chain };
    assert_eq!(error(&games), "chain p003: variants/p003-1.toml has no [sprt] to take a time control from: give --tc");
    let at_nodes = OpenbenchArgs { tc: Some("N=10000".into()), ..games };
    let plans = test_plans(&lab, &at_nodes).unwrap();
    let kinds: Vec<(&str, String, &str, u32)> =
        plans.iter().map(|plan| (plan.variant.as_str(), plan.kind_text(), plan.tc.as_str(), plan.hash_mb)).collect();
    let thousand = "1000 games".to_string();
    assert_eq!(
        kinds,
        [
            ("p003-1", thousand.clone(), "N=10000", 16),
            ("p003-2", thousand.clone(), "N=10000", 16),
            ("p003-3", thousand, "N=10000", 16)
        ]
    );
    let printed = plan_markdown(&at_nodes, &plans, &build(), "run");
    assert!(printed.contains("A test of fixed games (`--games`) has no SPRT: OpenBench plays its games and stops."));
    assert!(printed.contains(
        "| p003-1 | `Threads=1 Hash=16 Variant=p003-1` | p002-3.3 | `Threads=1 Hash=16 Variant=p002-3.3` | 1000 games \
         | N=10000 | 16 | variants/p003-1.toml, games from --games, tc from --tc |"
    ));
    assert_eq!(
        printed.matches("test_mode = GAMES\ntest_bounds = N/A\ntest_confidence = N/A\ntest_max_games = 1000\n").count(),
        3
    );
    // A variant with [sprt] keeps its hash and, without --tc, its time control.
    let razor = OpenbenchArgs { variants: vec!["razor-r1".into()], games: Some(500), ..args() };
    let plan = &test_plans(&lab, &razor).unwrap()[0];
    assert_eq!(
        (plan.kind_text(), plan.tc.as_str(), plan.hash_mb, plan.bounds),
        ("500 games".into(), "10+0.1", 8, None)
    );
    assert_eq!(
        plan_markdown(&razor, std::slice::from_ref(plan), &build(), "run").matches("test_mode = SPRT").count(),
        0
    );
}

#[test]
fn a_test_of_fixed_games_is_cut_into_workloads_of_a_sixteenth() {
    let stand_in = creating_server();
    let (results, lab) = results_folder("workload-size");
    let at_nodes = |games: u64, workload_size: Option<u64>| OpenbenchArgs {
        tc: Some("N=10000".into()),
        games: Some(games),
        workload_size,
        ..with_server(&stand_in.url)
    };
    let sent = |args: &OpenbenchArgs| {
        let plans = test_plans(&lab, args).unwrap();
        let fields = create_fields(args, &plans[0], &build(), "x");
        fields.into_iter().find(|(key, _)| key == "workload_size").unwrap().1
    };
    // 4·W games a workload at concurrency 1: 20 games are 5 workloads of
    // 4, 1000 are 16 of 64; beyond 2048 games, OpenBench's 32.
    let sizes: Vec<String> = [20, 64, 65, 1000, 2048, 100_000].map(|games| sent(&at_nodes(games, None))).to_vec();
    assert_eq!(sizes, ["1", "1", "2", "16", "32", "32"]);
    assert_eq!(sent(&at_nodes(20, Some(8))), "8");
    // An SPRT keeps OpenBench's own size unless --workload-size says.
    let sprt = with_server(&stand_in.url);
    assert_eq!(sent(&sprt), "32");
    assert_eq!(sent(&OpenbenchArgs { workload_size: Some(4), ..sprt }), "4");
    // What the server receives.
    let args = at_nodes(20, None);
    let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
    create_tests(&lab, &args, &test_plans(&lab, &args).unwrap(), &build(), &server, "run").unwrap();
    let post = stand_in.requests().into_iter().find(|request| request.path == "/scripts/").unwrap();
    assert_eq!(
        (post.field("test_mode"), post.field("test_max_games"), post.field("workload_size")),
        (Some("GAMES"), Some("20"), Some("1"))
    );
    std::fs::remove_dir_all(&results).unwrap();
}

/// OpenBench creating tests as [`creating_server`] does, its user's page
/// public, whose answers fail as `fail` says: the script endpoint's (a
/// 502 after the test was saved, or before), or the user's page's (a 500).
fn failing_server(fail: impl Fn(&str, usize) -> Option<(u16, bool)> + Send + 'static) -> StandIn {
    let created: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
    let asked = Arc::new(Mutex::new(BTreeMap::<String, usize>::new()));
    StandIn::start(move |request| {
        let mut created = created.lock().unwrap();
        let mut asked = asked.lock().unwrap();
        let count = asked.entry(request.path.clone()).or_default();
        *count += 1;
        let failure = fail(&request.path, *count);
        match (request.method.as_str(), request.path.as_str()) {
            ("POST", "/scripts/") => {
                if failure.is_none_or(|(_, saved)| saved) {
                    created.push(request.field("info").unwrap_or_default().to_string());
                }
                match failure {
                    Some((status, _)) => Response { status, headers: Vec::new(), body: "Bad Gateway".into() },
                    None => Response::redirect("/index/", &["sessionid=s1; Path=/"]),
                }
            }
            ("GET", "/user/lab/") => match failure {
                Some((status, _)) => Response { status, headers: Vec::new(), body: "Server Error".into() },
                None => {
                    let links: Vec<String> = (0..created.len())
                        .rev()
                        .map(|index| format!("<a href=\"/test/{}/\">t</a>", 100 + index))
                        .collect();
                    Response::ok("text/html", links.join("\n"))
                }
            },
            ("POST", path) if path.starts_with("/api/workload/") && path.ends_with("/info/") => {
                let id: usize = path["/api/workload/".len()..path.len() - "/info/".len()].parse().unwrap();
                Response::json(json!({"info": {"id": id, "info": created[id - 100], "dev": {"sha": COMMIT}}}))
            }
            _ => Response::not_found(),
        }
    })
}

#[test]
fn a_create_whose_answer_was_lost_is_looked_for_before_it_is_made_again() {
    // The test is saved, and the user's page then fails once.
    let stand_in = failing_server(|path, count| (path == "/user/lab/" && count == 1).then_some((500, true)));
    let (results, lab) = results_folder("lost-answer");
    let args = with_server(&stand_in.url);
    let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
    let plans = test_plans(&lab, &args).unwrap();
    let error = format!("{:#}", create_tests(&lab, &args, &plans, &build(), &server, "run-1").unwrap_err());
    assert!(
        error.starts_with(
            "the test may exist on the server all the same: the next `lab openbench` of it asks the server for it \
             before creating it: razor-r1 against p003-3: OpenBench accepted the test, and it could not be found: \
             OpenBench answered"
        ),
        "{error}"
    );
    assert!(created_tests(&lab).is_empty());
    let unconfirmed = unconfirmed_tests(&lab);
    assert_eq!(unconfirmed.len(), 1);
    assert_eq!(unconfirmed[0].info, info_line(&plans[0], "run-1"));
    // Not recorded as created, so not refused as a duplicate; asked for,
    // found, and recorded, not created again.
    refuse_duplicates(&lab, &plans, &server.url, COMMIT, false).unwrap();
    create_tests(&lab, &args, &plans, &build(), &server, "run-2").unwrap();
    let posts = |stand_in: &StandIn| stand_in.requests().iter().filter(|request| request.path == "/scripts/").count();
    assert_eq!(posts(&stand_in), 1);
    let created = created_tests(&lab);
    assert_eq!((created.len(), created[0].test_id), (1, 100));
    assert_eq!(created[0].info, info_line(&plans[0], "run-1"));
    assert!(unconfirmed_tests(&lab).is_empty());
    std::fs::remove_dir_all(&results).unwrap();

    // A gateway error before the test was saved: looked for, not found,
    // created with the same info.
    let stand_in = failing_server(|path, count| (path == "/scripts/" && count == 1).then_some((502, false)));
    let (results, lab) = results_folder("lost-request");
    let args = with_server(&stand_in.url);
    let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
    let error = format!("{:#}", create_tests(&lab, &args, &plans, &build(), &server, "run-1").unwrap_err());
    assert!(error.contains("razor-r1 against p003-3: OpenBench answered"), "{error}");
    assert!(error.contains("with HTTP 502, not the script endpoint's redirect: Bad Gateway"), "{error}");
    create_tests(&lab, &args, &plans, &build(), &server, "run-2").unwrap();
    assert_eq!(posts(&stand_in), 2);
    let post = stand_in.requests().into_iter().filter(|request| request.path == "/scripts/").nth(1).unwrap();
    assert_eq!(post.field("info").map(str::to_string), Some(info_line(&plans[0], "run-1")));
    assert_eq!(created_tests(&lab)[0].test_id, 100);
    std::fs::remove_dir_all(&results).unwrap();
}

/// OpenBench's tune page behind Django's login and CSRF check, as far as
/// creating a tune goes. The login page sets the token `t1`; the login
/// form takes user `lab` with password `secret` when it carries `t1` as
/// cookie and field and a Referer of the server's, and answers with the
/// session `s1` and the token rotated to `t2` (as Django's login does).
/// The tune form takes a post with both cookies and `t2` (else HTTP 403,
/// Django's CSRF refusal), answers as `tune_form` says or creates it,
/// numbering tunes from 7; the user's page lists them, newest first, with
/// an older test; the API gives each one's `info` and commit.
fn tune_server(tune_form: fn(&Request) -> Option<Response>) -> StandIn {
    let created: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
    StandIn::start(move |request| {
        let mut created = created.lock().unwrap();
        let cookie = request.header("cookie").unwrap_or_default();
        let referer = request.header("referer").unwrap_or_default();
        match (request.method.as_str(), request.path.as_str()) {
            ("GET", "/login/") => Response {
                status: 200,
                headers: vec![("Set-Cookie".into(), "csrftoken=t1; Path=/; SameSite=Lax".into())],
                body: "<form method=\"POST\" action=\"/login/\">".into(),
            },
            ("POST", "/login/") if cookie != "csrftoken=t1" || request.field("csrfmiddlewaretoken") != Some("t1") => {
                Response { status: 403, headers: Vec::new(), body: "CSRF verification failed.".into() }
            }
            ("POST", "/login/") if !referer.ends_with("/login/") => {
                Response { status: 403, headers: Vec::new(), body: "Referer checking failed".into() }
            }
            ("POST", "/login/") if request.field("password") != Some("secret") => Response::redirect("/login/", &[]),
            ("POST", "/login/") => {
                Response::redirect("/index/", &["sessionid=s1; HttpOnly; Path=/", "csrftoken=t2; Path=/"])
            }
            ("POST", "/tune/new/")
                if cookie != "sessionid=s1; csrftoken=t2" || request.field("csrfmiddlewaretoken") != Some("t2") =>
            {
                Response { status: 403, headers: Vec::new(), body: "CSRF verification failed.".into() }
            }
            ("POST", "/tune/new/") => tune_form(request).unwrap_or_else(|| {
                created.push(request.field("info").unwrap_or_default().to_string());
                Response::redirect("/index/", &[])
            }),
            ("GET", "/tune/new/") if cookie.contains("sessionid=s1") => Response::ok(
                "text/html",
                "<div class=\"error-message\">\n<pre>Value must be within [Min, Max], for ReverseFutilityDepthMargin\n\
                 R must be &gt; 0.00, for ReverseFutilityDepthMargin</pre>\n</div>",
            ),
            ("GET", "/user/lab/") if cookie.contains("sessionid=s1") => {
                let mut links: Vec<String> =
                    (0..created.len()).rev().map(|index| format!("<a href=\"/tune/{}/\">t</a>", 7 + index)).collect();
                links.push("<a href=\"/test/6/\">an older test</a>".into());
                Response::ok("text/html", links.join("\n"))
            }
            ("POST", path) if path.starts_with("/api/workload/") && path.ends_with("/info/") => {
                let id: usize = path["/api/workload/".len()..path.len() - "/info/".len()].parse().unwrap();
                Response::json(json!({"info": {"id": id, "info": created[id - 7], "dev": {"sha": COMMIT}}}))
            }
            _ => Response::not_found(),
        }
    })
}

/// `lab openbench --spsa p002-1.5 --param ReverseFutilityDepthMargin
/// --spsa-iterations 40 --spsa-pairs-per 2`.
fn tune_args(server: &str) -> OpenbenchArgs {
    let mut args = with_server(server);
    args.variants.clear();
    args.spsa = spsa::SpsaTestArgs {
        variant: Some("p002-1.5".into()),
        params: vec!["ReverseFutilityDepthMargin".into()],
        spsa_iterations: 40,
        spsa_pairs_per: 2,
    };
    args
}

/// The plan's margin, and a second parameter.
fn tune_parameters() -> Vec<Parameter> {
    let margin = crate::tune::spsa_update::tests::margin();
    let razor =
        Parameter { name: "RazorMargin1".into(), start: 300.0, min: 100.0, max: 800.0, c_end: 20.0, ..margin.clone() };
    vec![margin, razor]
}

fn tune_build() -> Build {
    Build { bench_variant: "p002-1.5".into(), bench: 1515025, ..build() }
}

#[test]
fn a_tune_is_created_through_the_tune_page_with_every_field_it_reads() {
    let stand_in = tune_server(|_| None);
    let server = Server::new(&stand_in.url, "lab", "secret").unwrap();
    let args = tune_args(&stand_in.url);
    let inputs: Vec<String> = tune_parameters().iter().map(Parameter::input_line).collect();
    let info = "lab openbench 20261128T120000Z-openbench-tunes: SPSA of p002-1.5's ReverseFutilityDepthMargin";
    let fields = tune_fields(&args, &tune_build(), &inputs.join("\n"), &Schedule::openbench(40), info);
    assert_eq!(server.create_tune(&fields, info, COMMIT).unwrap(), 7);
    let requests = stand_in.requests();
    let steps: Vec<(&str, &str)> =
        requests.iter().map(|request| (request.method.as_str(), request.path.as_str())).collect();
    assert_eq!(
        steps,
        [
            ("GET", "/login/"),
            ("POST", "/login/"),
            ("POST", "/tune/new/"),
            ("GET", "/user/lab/"),
            ("POST", "/api/workload/7/info/")
        ]
    );
    let login: Vec<(&str, &str)> = requests[1].form.iter().map(|(key, value)| (key.as_str(), value.as_str())).collect();
    assert_eq!(login, [("csrfmiddlewaretoken", "t1"), ("username", "lab"), ("password", "secret")]);
    assert_eq!(requests[1].header("referer"), Some(format!("{}/login/", stand_in.url).as_str()));
    // Every field OpenBench's create_new_tune and create_spsa_run read
    // (commit 9906bad), the token, and no password.
    let post = &requests[2];
    let sent: BTreeMap<&str, &str> = post.form.iter().map(|(key, value)| (key.as_str(), value.as_str())).collect();
    assert_eq!(sent.len(), post.form.len(), "a field sent twice: {:?}", post.form);
    let expected: BTreeMap<&str, &str> = [
        ("dev_engine", "prunelab"),
        ("dev_repo", "https://github.com/someone/prunelab"),
        ("dev_branch", COMMIT),
        ("dev_bench", "1515025"),
        ("dev_network", ""),
        ("dev_options", "Threads=1 Hash=16"),
        ("dev_time_control", "N=10000"),
        (
            "spsa_inputs",
            "ReverseFutilityDepthMargin, int, 90, 50, 200, 10, 0.002\nRazorMargin1, int, 300, 100, 800, 20, 0.002",
        ),
        ("spsa_reporting_type", "BATCHED"),
        ("spsa_distribution_type", "SINGLE"),
        ("spsa_alpha", "0.602"),
        ("spsa_gamma", "0.101"),
        ("spsa_A_ratio", "0.1"),
        ("spsa_iterations", "40"),
        ("spsa_pairs_per", "2"),
        ("book_name", "UHO_4060_v2.epd"),
        ("upload_pgns", "FALSE"),
        ("priority", "0"),
        ("throughput", "1000"),
        ("syzygy_wdl", "DISABLED"),
        ("syzygy_adj", "OPTIONAL"),
        ("win_adj", "movecount=3 score=400"),
        ("draw_adj", "movenumber=40 movecount=8 score=10"),
        ("scale_method", "BASE"),
        ("scale_nps", "2400000"),
        ("info", info),
        ("csrfmiddlewaretoken", "t2"),
    ]
    .into_iter()
    .collect();
    assert_eq!(sent, expected);
    assert_eq!(post.header("referer"), Some(format!("{}/tune/new/", stand_in.url).as_str()));
    assert_eq!(post.header("content-type"), Some("application/x-www-form-urlencoded"));
    assert_eq!(server.page_url(Kind::Tune, 7), format!("{}/tune/7/", stand_in.url));
}

#[test]
fn a_refused_tune_or_login_says_why() {
    let create = |stand_in: &StandIn, password: &str| {
        let server = Server::new(&stand_in.url, "lab", password).unwrap();
        let fields = tune_fields(&tune_args(&stand_in.url), &tune_build(), "x", &Schedule::openbench(40), "i");
        server.create_tune(&fields, "i", COMMIT).unwrap_err()
    };
    // A wrong password: the login form comes back, and no tune is sent.
    let stand_in = tune_server(|_| None);
    let failure = create(&stand_in, "guess");
    assert_eq!(failure.error.to_string(), "OpenBench refused to log in user `lab`: wrong user name or password");
    assert!(!failure.may_exist);
    assert!(stand_in.requests().iter().all(|request| request.path != "/tune/new/"));
    // The form's errors, read from the page it sends back.
    let stand_in = tune_server(|_| Some(Response::redirect("/tune/new/", &[])));
    let failure = create(&stand_in, "secret");
    assert_eq!(
        failure.error.to_string(),
        "OpenBench refused the tune: Value must be within [Min, Max], for ReverseFutilityDepthMargin\nR must be > \
         0.00, for ReverseFutilityDepthMargin"
    );
    assert!(!failure.may_exist);
    // A user who cannot create: sent to the login page.
    let stand_in = tune_server(|_| Some(Response::redirect("/login/", &[])));
    assert_eq!(
        create(&stand_in, "secret").error.to_string(),
        "OpenBench refused to create the tune: user `lab` could not log in, or is not enabled to create tests"
    );
    // Django's CSRF refusal, and a server error after which the tune may exist.
    let stand_in =
        tune_server(|_| Some(Response { status: 403, headers: Vec::new(), body: "CSRF verification failed.".into() }));
    assert_eq!(
        create(&stand_in, "secret").error.to_string(),
        format!(
            "OpenBench answered {}/tune/new/ with HTTP 403, not the tune form's redirect: CSRF verification failed.",
            stand_in.url
        )
    );
    let stand_in = tune_server(|_| Some(Response { status: 500, headers: Vec::new(), body: "Server Error".into() }));
    assert!(create(&stand_in, "secret").may_exist);
    // A server whose login page sets no CSRF cookie cannot be logged in to.
    let bare = StandIn::start(|_| Response::ok("text/html", "<form>"));
    assert_eq!(
        create(&bare, "secret").error.to_string(),
        format!("OpenBench's login page {}/login/ set no `csrftoken` cookie for its form", bare.url)
    );
}

/// A tune of p002-1.5 created on `server` as number `id`, recorded under
/// `results`.
fn record_tune(results: &Path, server: &str, id: u64) -> CreatedTune {
    let tune = CreatedTune {
        server: server.to_string(),
        tune_id: id,
        url: format!("{server}/tune/{id}/"),
        variant: "p002-1.5".into(),
        parameters: tune_parameters()[..1].to_vec(),
        iterations: 40,
        pairs_per: 2,
        tc: "N=10000".into(),
        build: tune_build(),
        info: "lab openbench ...".into(),
        created: "20261128T120000Z".into(),
    };
    RunDir::create(results, TUNES_COMMAND, &json!({})).unwrap().append(&tune).unwrap();
    tune
}

#[test]
fn status_reads_a_tunes_values_back() {
    let (results, lab) = results_folder("tune-status");
    let (tests, tunes) = (status_server(), tune_status_server());
    let mut created = RunDir::create(&results, TESTS_COMMAND, &json!({})).unwrap();
    created.append(&razor_test(&lab, &tests.url)).unwrap();
    record_tune(&results, &tunes.url, 7);
    let anonymous = ServerArgs { server: None, username: None, password: None };
    status(&lab, &StatusArgs { tests: Vec::new(), server: anonymous.clone() }).unwrap();
    let run = &runs_of(&results, STATUS_COMMAND)[0];
    let read: Vec<TuneStatus> = read_records(run);
    assert_eq!(
        read,
        [TuneStatus {
            source: format!("OpenBench tune 7, {}/tune/7/", tunes.url),
            variant: "p002-1.5".into(),
            taken: read[0].taken.clone(),
            state: "running".into(),
            tc: "N=10000".into(),
            games: 24,
            iterations_played: 6.0,
            iterations: 40,
            values: vec![TunedValue {
                name: "ReverseFutilityDepthMargin".into(),
                value: 92.6181,
                start: 90.0,
                min: 50.0,
                max: 200.0,
                c: 11.9262,
                r: 0.0027,
            }],
        }]
    );
    assert_eq!(read_records::<crate::verdicts::evidence::GameResult>(run).len(), 1, "the test is read too");
    let summary = std::fs::read_to_string(run.join("summary.md")).unwrap();
    let tune_section = format!(
        "\n# OpenBench tunes\n\n| tune | variant | state | tc | games | iterations played |\n|---|---|---|---|---:|---|\n\
         | [7]({}/tune/7/) | p002-1.5 | running | N=10000 | 24 | 6.00 of 40 |\n\nTune 7, p002-1.5: each parameter's \
         current value (theta), as OpenBench's digest gives it, and the c and r of its next iteration:\n\n\
         | parameter | theta | start | min | max | c | r |\n|---|---:|---:|---:|---:|---:|---:|\n\
         | ReverseFutilityDepthMargin | 92.6181 | 90 | 50 | 200 | 11.9262 | 0.0027 |\n",
        tunes.url
    );
    assert!(summary.starts_with("# OpenBench tests\n"), "{summary}");
    assert!(summary.ends_with(&tune_section), "{summary}");
    // Asked by number, only that one is read.
    status(&lab, &StatusArgs { tests: vec![7], server: anonymous }).unwrap();
    let summary = std::fs::read_to_string(runs_of(&results, STATUS_COMMAND)[1].join("summary.md")).unwrap();
    assert!(summary.starts_with("# OpenBench tunes\n"), "{summary}");
    assert!(!summary.contains("OpenBench tests"), "{summary}");
    std::fs::remove_dir_all(&results).unwrap();
}

#[test]
fn a_tune_read_back_wrong_is_a_clear_error() {
    let (results, lab) = results_folder("tune-status-errors");
    let tune = record_tune(&results, "http://127.0.0.1:9", 7);
    let digest_error = |digest: &str| format!("{:#}", read_digest(digest).unwrap_err());
    assert_eq!(
        digest_error("Name,Value\nReverseFutilityDepthMargin,92"),
        "the tune's digest does not start with OpenBench's header Name,Curr,Start,Min,Max,C,C_end,R,R_end: \
         Some(\"Name,Value\")"
    );
    assert_eq!(
        digest_error("Name,Curr,Start,Min,Max,C,C_end,R,R_end\nReverseFutilityDepthMargin,92.6181,90"),
        "digest line `ReverseFutilityDepthMargin,92.6181,90`: expected the 9 columns \
         Name,Curr,Start,Min,Max,C,C_end,R,R_end"
    );
    assert_eq!(
        digest_error(&TUNE_DIGEST.replace("92.6181", "nan?")),
        "digest line `ReverseFutilityDepthMargin,nan?,90,50,200,11.9262,10.0000,0.0027,0.0020`: `nan?` is no number"
    );
    let info = json!({"test_mode": "SPSA", "games": 24, "workload_size": 2});
    let sprt = json!({"test_mode": "SPRT", "games": 24});
    assert_eq!(
        tune_status(&tune, &sprt, TUNE_DIGEST, "now").unwrap_err().to_string(),
        "OpenBench workload 7 is no tune: its test_mode is \"SPRT\""
    );
    assert_eq!(
        tune_status(&tune, &json!({"test_mode": "SPSA"}), TUNE_DIGEST, "now").unwrap_err().to_string(),
        "tune 7: no `games` in {\"test_mode\":\"SPSA\"}"
    );
    assert_eq!(tune_status(&tune, &info, TUNE_DIGEST, "now").unwrap().iterations_played, 6.0);
    let done = json!({"test_mode": "SPSA", "games": 160, "workload_size": 2, "finished": true, "approved": true});
    let done = tune_status(&tune, &done, TUNE_DIGEST, "now").unwrap();
    assert_eq!((done.state.as_str(), done.iterations_played), ("finished", 40.0));
    // A server that has no such tune: said, and the run says what was not read.
    let stand_in = tune_status_server();
    std::fs::remove_dir_all(&results).unwrap();
    record_tune(&results, &stand_in.url, 8);
    let anonymous = ServerArgs { server: None, username: None, password: None };
    let error = status(&lab, &StatusArgs { tests: Vec::new(), server: anonymous.clone() }).unwrap_err();
    assert_eq!(error.to_string(), "nothing could be read");
    let summary = std::fs::read_to_string(runs_of(&results, STATUS_COMMAND)[0].join("summary.md")).unwrap();
    assert!(
        summary.ends_with("Not read: tune 8: OpenBench test 8: Requested Workload Id does not exist\n"),
        "{summary}"
    );
    // Nothing recorded, or nothing that matches.
    std::fs::remove_dir_all(&results).unwrap();
    let error = status(&lab, &StatusArgs { tests: vec![8], server: anonymous }).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("no test or tune created by `lab openbench` under {} matches", results.display())
    );
}

#[test]
fn a_tune_is_refused_when_recorded_already_or_the_commits_build_cannot_be_tuned() {
    let (results, lab) = results_folder("tune-refused");
    let tune = record_tune(&results, "http://127.0.0.1:9", 7);
    let args = tune_args("http://127.0.0.1:9");
    let duplicate = |parameters: &[Parameter], args: &OpenbenchArgs| {
        refuse_duplicate(&lab, "http://127.0.0.1:9", COMMIT, "p002-1.5", parameters, "N=10000", args)
    };
    assert_eq!(
        duplicate(&tune.parameters, &args).unwrap_err().to_string(),
        "p002-1.5's tune at 01234567 is tune 7 already (http://127.0.0.1:9/tune/7/, created 20261128T120000Z): give \
         --again to create another"
    );
    // Other parameters or another schedule are another tune.
    duplicate(&tune_parameters(), &args).unwrap();
    let longer =
        OpenbenchArgs { spsa: spsa::SpsaTestArgs { spsa_iterations: 41, ..args.spsa.clone() }, ..args.clone() };
    duplicate(&tune.parameters, &longer).unwrap();
    // The build a worker makes must be the variant's tuning build: a
    // stand-in engine reports its variant, and offers the margin as an
    // option or not.
    let engine = |variant: &str, option: &str| {
        let path = results.join(format!("engine-{variant}-{}", option.len()));
        let script = format!(
            "#!/bin/sh\n\
             if [ \"$1\" = features ]; then echo '{{\"version\":\"0\",\"variants\":[\"{variant}\"],\"features\":[]}}'; exit 0; fi\n\
             while read -r line; do\n\
               case \"$line\" in\n\
                 uci) echo 'id name stand-in'; {option} echo uciok;;\n\
                 isready) echo readyok;;\n\
                 quit) exit 0;;\n\
               esac\n\
             done\n"
        );
        std::fs::write(&path, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    };
    let offering = "echo 'option name ReverseFutilityDepthMargin type spin default 90 min 50 max 200';";
    let margin = &tune.parameters;
    check_worker_build(&engine("p002-1.5", offering), "p002-1.5", margin, COMMIT).unwrap();
    let makefile = "the commit's Makefile must make p002-1.5's tuning build the default:\n  VARIANT ?= p002-1.5\n  \
                    FEATURES ?= tune\ncommit that (and push it), and give the commit with --commit";
    assert_eq!(
        check_worker_build(&engine("baseline", offering), "p002-1.5", margin, COMMIT).unwrap_err().to_string(),
        format!("make at 01234567 builds baseline, not p002-1.5: {makefile}")
    );
    assert_eq!(
        check_worker_build(&engine("p002-1.5", ""), "p002-1.5", margin, COMMIT).unwrap_err().to_string(),
        format!(
            "make at 01234567 builds p002-1.5 without the `tune` feature: it offers no UCI option \
             `ReverseFutilityDepthMargin`, so the workers' values would reach no search; {makefile}"
        )
    );
    std::fs::remove_dir_all(&results).unwrap();
}
