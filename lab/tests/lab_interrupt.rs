//! Ctrl-C, SIGTERM and SIGHUP stop `lab match`, `lab atlas` and `lab ab`
//! with no engine left behind, every finished result kept, and `--resume`
//! continuing the run. The engines are shell stand-ins that write down
//! their pids and, while a flag file exists, think for a minute in a
//! `sleep` of their own (a child the lab must kill too).

use std::fs;
use std::path::PathBuf;
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use crate::common;

use common::{executable, records, run_folder, scratch};

/// Two openings, White to move in both.
const TINY_BOOK: &str = "\
rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3
";

/// A move that ends the game at once, lost by the engine that plays it.
const ILLEGAL_MOVE: &str = "echo 'bestmove a1a1'";

/// [`ILLEGAL_MOVE`] after an `info string` with the script's own path.
const SAYING_ITS_PATH: &str = "echo \"info string $0\"; echo 'bestmove a1a1'";

/// A search's report and move, as `lab nodes` and `lab ttd` read them.
const SEARCH: &str = "echo 'info depth 3 seldepth 3 score cp 7 nodes 4242 time 3 pv e2e4'; echo 'bestmove e2e4'";

/// The options SeaJay's razoring variants set, as SeaJay offers them.
const SEAJAY_OPTIONS: &str = "option name UseRazoring type check default true
option name RazorMargin1 type spin default 300 min 0 max 1000
option name RazorMargin2 type spin default 500 min 0 max 1000";

/// What a stopped lab may take to be gone, engines and all.
const GONE_WITHIN: Duration = Duration::from_secs(5);

/// A test's folder: the stand-in, its pid log, its flag, the book.
struct Bench {
    dir: PathBuf,
    engine: PathBuf,
    pids: PathBuf,
    thinking: PathBuf,
    slow: PathBuf,
}

impl Bench {
    /// The stand-in answers `go` with `reply`; while `slow` exists, the
    /// `go` numbered `slow_from` (from 1, counting every stand-in's) and
    /// each after it thinks in a `sleep 60` first. In a match whose games
    /// end at the first move (an illegal move) and `slow_from` 3, the
    /// first pair is played, and the lab is stopped in the second.
    fn new(name: &str, reply: &str, slow_from: usize) -> Bench {
        let dir = scratch(name);
        let (pids, thinking, slow) = (dir.join("pids"), dir.join("thinking"), dir.join("slow"));
        let gos = dir.join("gos");
        let engine = dir.join("stand-in.sh");
        executable(
            &engine,
            &format!(
                "#!/bin/sh\n\
                 echo $$ >> '{pids}'\n\
                 while read -r line; do\n\
                   case \"$line\" in\n\
                     uci) echo 'id name stand-in'; echo '{SEAJAY_OPTIONS}'; echo uciok ;;\n\
                     isready) echo readyok ;;\n\
                     go*) echo go >> '{gos}'\n\
                          if [ -e '{slow}' ] && [ \"$(wc -l < '{gos}')\" -ge {slow_from} ]; then\n\
                            sleep 60 & echo $! >> '{pids}'; echo $! > '{thinking}'; wait\n\
                          fi\n\
                          {reply} ;;\n\
                     quit) exit 0 ;;\n\
                   esac\n\
                 done\n",
                pids = pids.display(),
                gos = gos.display(),
                slow = slow.display(),
                thinking = thinking.display()
            ),
        );
        fs::write(dir.join("book.epd"), TINY_BOOK).unwrap();
        fs::write(&slow, "").unwrap();
        Bench { dir, engine, pids, thinking, slow }
    }

    fn book(&self) -> String {
        self.dir.join("book.epd").display().to_string()
    }

    fn results(&self) -> PathBuf {
        self.dir.join("results")
    }

    /// Starts the lab, waits until an engine thinks, and sends `signal`.
    fn interrupt(&self, args: &[String], signal: &str) -> Output {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut lab = common::lab_command_saying(&args, &self.results())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        wait_for(|| self.thinking.exists(), Duration::from_secs(120), "an engine to think", &mut lab);
        // The engines run in process groups of their own, with no signal blocked.
        for pid in self.pids() {
            // (An engine that ended already has no status.)
            let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) else { continue };
            let blocked = status.lines().find(|line| line.starts_with("SigBlk:")).unwrap();
            assert!(blocked.trim_end().ends_with(&"0".repeat(16)), "engine {pid}: {blocked}");
        }
        let killed = Command::new("kill").args([&format!("-{signal}"), &lab.id().to_string()]).status().unwrap();
        assert!(killed.success());
        let sent = Instant::now();
        let output = wait_with_timeout(lab, GONE_WITHIN + Duration::from_secs(5));
        assert!(sent.elapsed() < GONE_WITHIN, "the lab took {:?} to stop", sent.elapsed());
        let pids = self.pids();
        assert!(pids.len() >= 3, "two engines and a `sleep`: {pids:?}");
        let deadline = sent + GONE_WITHIN;
        while pids.iter().any(|&pid| alive(pid)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let left: Vec<u32> = pids.into_iter().filter(|&pid| alive(pid)).collect();
        assert_eq!(left, Vec::<u32>::new(), "engine processes outlived the lab");
        output
    }

    /// The pids the stand-ins wrote down: each engine's and each `sleep`'s.
    fn pids(&self) -> Vec<u32> {
        let text = fs::read_to_string(&self.pids).unwrap_or_default();
        text.lines().map(|line| line.trim().parse().unwrap()).collect()
    }

    /// The engines think no more: the next run plays on.
    fn quicken(&self) {
        fs::remove_file(&self.slow).unwrap();
    }
}

/// A process that runs (a zombie, waiting to be reaped, runs no more).
fn alive(pid: u32) -> bool {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    // `pid (name) state ...`: the state follows the last parenthesis.
    let state = stat.rsplit(')').next().unwrap_or("").trim_start().chars().next();
    state.is_some_and(|state| state != 'Z' && state != 'X')
}

fn wait_for(done: impl Fn() -> bool, limit: Duration, what: &str, lab: &mut Child) {
    let started = Instant::now();
    while !done() {
        if let Ok(Some(status)) = lab.try_wait() {
            let mut stderr = String::new();
            std::io::Read::read_to_string(lab.stderr.as_mut().unwrap(), &mut stderr).unwrap();
            panic!("the lab ended ({status}) before {what}: {stderr}");
        }
        assert!(started.elapsed() < limit, "no {what} within {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn wait_with_timeout(mut lab: Child, limit: Duration) -> Output {
    let started = Instant::now();
    while lab.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = lab.kill();
            panic!("the lab still runs {limit:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    lab.wait_with_output().unwrap()
}

/// The same command again with `--resume`, after which it succeeds.
fn resume(args: &[String], bench: &Bench) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = common::lab_command_saying(&args, &bench.results()).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    output
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn sigint_stops_a_match_and_resume_plays_the_games_it_lacks() {
    let bench = Bench::new("interrupt-match", ILLEGAL_MOVE, 3);
    let args = |extra: &[&str]| -> Vec<String> {
        let engine = bench.engine.display();
        let mut args: Vec<String> = ["match", "a", "b", "--games", "4", "--tc", "60+1"].map(String::from).to_vec();
        args.extend(["--binary".into(), format!("a={engine}"), "--binary".into(), format!("b={engine}")]);
        args.extend(["--book".into(), bench.book()]);
        args.extend(extra.iter().map(|arg| arg.to_string()));
        args
    };
    let output = bench.interrupt(&args(&["--quiet"]), "INT");
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let run = run_folder(&bench.results(), "match");
    assert!(
        stderr(&output).contains(&format!(
            "lab: stopped by SIGINT: every engine it started is stopped, and every finished result is kept in {0}; \
             the same command with `--resume {0}` continues it",
            run.display()
        )),
        "{}",
        stderr(&output)
    );
    // The first opening's two games were played; the second's first was not.
    assert_eq!(records(&run).len(), 2);
    let pgn = fs::read_to_string(run.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 2);

    bench.quicken();
    let resumed = resume(&args(&["--resume", run.to_str().unwrap()]), &bench);
    assert!(stderr(&resumed).contains("2 games already played"), "{}", stderr(&resumed));
    assert_eq!(records(&run).len(), 4);
    assert_eq!(fs::read_to_string(run.join("games.pgn")).unwrap().matches("[Event ").count(), 4);
    fs::remove_dir_all(&bench.dir).unwrap();
}

#[test]
fn sigterm_and_sighup_stop_an_atlas_phase_which_resume_finishes() {
    for (signal, code) in [("TERM", 143), ("HUP", 129)] {
        // The atlas first has both sides search the first opening (two
        // `go`s): the stand-ins differ by their paths, which they say.
        let bench = Bench::new(&format!("interrupt-atlas-{signal}"), SAYING_ITS_PATH, 5);
        let mut args: Vec<String> = vec!["atlas".into(), "razor-r1".into()];
        for name in ["razor-r1", "p003-3"] {
            let engine = bench.dir.join(format!("{name}.sh"));
            fs::copy(&bench.engine, &engine).unwrap();
            args.extend(["--binary".into(), format!("{name}={}", engine.display())]);
        }
        let atlas = bench.dir.join("atlas.jsonl").display().to_string();
        args.extend(["--atlas".into(), atlas, "--book".into(), bench.book()]);
        args.extend(["--nodes", "500", "--games", "4"].map(String::from));
        let output = bench.interrupt(&[&args[..], &["--quiet".to_string()]].concat(), signal);
        assert_eq!(output.status.code(), Some(code), "{}", stderr(&output));
        let run = run_folder(&bench.results(), "atlas");
        assert!(
            stderr(&output).contains(&format!("lab: stopped by SIG{signal}: every engine it started is stopped")),
            "{}",
            stderr(&output)
        );
        assert!(stderr(&output).contains(&format!("`--resume {}`", run.display())), "{}", stderr(&output));
        assert!(!bench.dir.join("atlas.jsonl").exists(), "an unfinished phase is no atlas line");

        bench.quicken();
        args.extend(["--resume".into(), run.display().to_string()]);
        let resumed = resume(&args, &bench);
        assert!(stderr(&resumed).contains("2 games already played"), "{}", stderr(&resumed));
        let line = fs::read_to_string(bench.dir.join("atlas.jsonl")).unwrap();
        let entry: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
        assert_eq!(entry["games"], 4, "{entry}");
        fs::remove_dir_all(&bench.dir).unwrap();
    }
}

#[test]
fn sigint_stops_lab_ab_keeping_the_positions_it_counted() {
    let bench = Bench::new("interrupt-ab", SEARCH, 3);
    let suite = bench.dir.join("two.epd");
    fs::write(&suite, TINY_BOOK.replace(" -\n", " - 0 1\n")).unwrap();
    // A variant of another engine, SeaJay's, played by the stand-in: nothing is built.
    let seajay = format!("seajay={}", bench.engine.display());
    let args: Vec<String> = ["ab", "seajay-razor-r1-r2", "--engine-path", &seajay, "--suite", suite.to_str().unwrap()]
        .into_iter()
        .chain(["--depth", "3", "--ttd-rounds", "2", "--tactics", "none", "--concurrency", "1", "--quiet"])
        .map(String::from)
        .collect();
    let output = bench.interrupt(&args, "INT");
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let ab = run_folder(&bench.results(), "ab");
    // `lab ab` resumes (since `--decide`): the message names the command
    // that continues it.
    assert!(
        stderr(&output).contains(&format!(
            "lab: stopped by SIGINT: every engine it started is stopped, and every finished result is kept in {}; \
             the same command with `--resume {}` continues it",
            ab.display(),
            ab.display()
        )),
        "{}",
        stderr(&output)
    );
    // Two searches of the first position were counted; the third was stopped.
    let counted = records(&run_folder(&ab, "nodes"));
    let counted: Vec<(&str, u64)> =
        counted.iter().map(|record| (record["variant"].as_str().unwrap(), record["nodes"].as_u64().unwrap())).collect();
    assert_eq!(counted, [("seajay-razor-off", 4242), ("seajay-razor-r1-r2", 4242)]);
    fs::remove_dir_all(&bench.dir).unwrap();
}
