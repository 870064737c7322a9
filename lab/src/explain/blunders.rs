//! `lab blunders PGN... --referee uci:PATH`: each engine's blunders,
//! mistakes and inaccuracies per game, judged by a referee engine as
//! lichess judges them (`judgement`), and the blunder positions as a suite.
//!
//! The referee searches every position of every game once (`games::pgn_games`
//! replays them), from `ucinewgame` with the game's moves as history, to a
//! fixed depth or node count, so a run is reproducible and any position's
//! score can be checked by hand. A move is judged from the scores of the
//! positions before and after it; book moves (`{book}`) are not judged.
//! Per engine, by the PGN's White and Black names: games, judged moves,
//! blunders, mistakes and inaccuracies per game, each with a 95% percentile
//! bootstrap interval over games (the games are the unit: blunders come in
//! clusters, in the games that go wrong, so counting them as independent
//! events would make the interval too narrow), the average centipawn loss
//! and the average depth the engine's own comments report.
//!
//! Every blunder position goes to `blunders.epd` in the run folder, with
//! `bm` (the referee's move), `am` (the move played) and an `id` naming the
//! game, so `lab tactics` and `lab blame` can run it as a suite. Each
//! referee score is appended to `records.jsonl` the moment it is in;
//! `--resume` scores only the positions still missing.

mod judgement;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use cozy_chess::GameStatus;
use games::engine::{Engine, Score};
use games::pgn_games::{read_pgn_file, PgnGame};
use games::results::{write_atomically, RunDir};
use prunelab::position::move_from_uci;
use prunelab::san::move_to_san;
use serde::{Deserialize, Serialize};

use self::judgement::{judge, MoveError, Thresholds, CP_CAP};
use crate::engines::participant;
use crate::lab::options::HashOption;
use crate::lab::table::Table;
use crate::lab::Lab;
use crate::measure::ratio::bootstrap_interval_of_mean;
use crate::measure::runner::{RunArgs, DEPTH_SEARCH_TIMEOUT, NODES_SEARCH_TIMEOUT};

#[derive(Args, Clone, Debug, Serialize)]
pub struct BlundersArgs {
    /// PGN files (`lab match`, fastchess, cutechess or any other).
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
    /// The referee: a UCI engine, `uci:PATH` (e.g. uci:/usr/games/stockfish), or a variant.
    #[arg(long)]
    pub referee: String,
    /// Search each position to this depth (the default: 12).
    #[arg(long, value_name = "N", group = "limit")]
    pub depth: Option<u32>,
    /// Search each position this many nodes.
    #[arg(long, value_name = "N", group = "limit")]
    pub nodes: Option<u64>,
    #[command(flatten)]
    pub hash: HashOption,
    /// The drop in the mover's winning chances (from -1 to +1) that makes a blunder.
    #[arg(long, default_value_t = 0.3, value_name = "DROP")]
    pub blunder: f64,
    /// ... a mistake.
    #[arg(long, default_value_t = 0.2, value_name = "DROP")]
    pub mistake: f64,
    /// ... an inaccuracy.
    #[arg(long, default_value_t = 0.1, value_name = "DROP")]
    pub inaccuracy: f64,
    /// Continue a run: its folder, or the latest `blunders` run.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "latest")]
    #[serde(skip)]
    pub resume: Option<String>,
}

/// The default depth: about 0.05 s a position for Stockfish on one core.
const DEFAULT_DEPTH: u32 = 12;

impl BlundersArgs {
    fn go(&self) -> (String, Duration) {
        match (self.nodes, self.depth) {
            (Some(nodes), _) => (format!("go nodes {nodes}"), NODES_SEARCH_TIMEOUT),
            (_, depth) => (format!("go depth {}", depth.unwrap_or(DEFAULT_DEPTH)), DEPTH_SEARCH_TIMEOUT),
        }
    }

    fn limit_text(&self) -> String {
        self.go().0.trim_start_matches("go ").to_string()
    }

    fn thresholds(&self) -> Result<Thresholds> {
        let thresholds = Thresholds { blunder: self.blunder, mistake: self.mistake, inaccuracy: self.inaccuracy };
        let ordered = 0.0 < thresholds.inaccuracy
            && thresholds.inaccuracy <= thresholds.mistake
            && thresholds.mistake <= thresholds.blunder
            && thresholds.blunder <= 2.0;
        if !ordered {
            bail!(
                "--inaccuracy {}, --mistake {}, --blunder {}: expected 0 < inaccuracy <= mistake <= blunder <= 2 \
                 (drops in winning chances, which run from -1 to +1)",
                thresholds.inaccuracy,
                thresholds.mistake,
                thresholds.blunder
            );
        }
        Ok(thresholds)
    }
}

/// One position's score by the referee, as `records.jsonl` keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RefereeRecord {
    /// `file.pgn#3`.
    pub game: String,
    /// Moves played before the position.
    pub ply: usize,
    /// The position, to refuse a resume over a PGN that changed.
    pub fen: String,
    /// From the side to move's point of view.
    pub score: Score,
    /// The referee's move, in UCI.
    pub best: String,
}

/// A referee's reading of a position: its score, and its move where it searched.
#[derive(Clone, Debug)]
struct RefereeScore {
    score: Score,
    best: Option<String>,
}

/// What the referee is, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct RefereeSettings {
    pub spec: String,
    pub id_name: String,
    pub limit: String,
    pub hash_mb: u32,
}

/// A rate per game with its 95% bootstrap interval over games.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PerGame {
    pub total: u64,
    pub per_game: f64,
    pub interval: Option<(f64, f64)>,
}

impl PerGame {
    fn of(counts: &[f64]) -> PerGame {
        let total = counts.iter().sum::<f64>();
        let per_game = if counts.is_empty() { 0.0 } else { total / counts.len() as f64 };
        let interval = (counts.len() >= 2).then(|| bootstrap_interval_of_mean(counts));
        PerGame { total: total as u64, per_game, interval }
    }

    /// `1.25 (0.50 to 2.00), 5`.
    fn text(&self) -> String {
        match self.interval {
            Some((low, high)) => format!("{:.2} ({low:.2} to {high:.2}), {}", self.per_game, self.total),
            None => format!("{:.2}, {}", self.per_game, self.total),
        }
    }
}

/// One engine's moves, judged.
#[derive(Clone, Debug, Serialize)]
pub struct EngineBlunders {
    pub engine: String,
    pub games: usize,
    /// Judged moves (book moves are not).
    pub moves: usize,
    pub blunders: PerGame,
    pub mistakes: PerGame,
    pub inaccuracies: PerGame,
    /// Average centipawn loss, scores capped at ±1000.
    pub acpl: Option<f64>,
    /// Average depth over the moves whose comments give one, and how many do.
    pub average_depth: Option<f64>,
    pub moves_with_depth: usize,
}

/// One blunder, and its line of the EPD.
#[derive(Clone, Debug, Serialize)]
pub struct Blunder {
    pub id: String,
    pub game: String,
    pub engine: String,
    /// `14... Nf6`.
    pub moved: String,
    pub fen: String,
    pub played: String,
    /// The referee's move in SAN, when it searched one.
    pub best: Option<String>,
    /// The capped scores before and after, for the mover.
    pub cp_before: i32,
    pub cp_after: i32,
    pub chances_lost: f64,
    /// Why it is not in the EPD, when it is not.
    pub left_out: Option<String>,
}

/// Everything a run found.
#[derive(Debug, Serialize)]
pub struct BlundersReport {
    pub referee: RefereeSettings,
    pub thresholds: Thresholds,
    pub files: Vec<PathBuf>,
    pub games: usize,
    /// The games' `TimeControl` tags, each once: the depths depend on them.
    pub time_controls: Vec<String>,
    pub engines: Vec<EngineBlunders>,
    pub blunders: Vec<Blunder>,
}

/// The referee's scores by game and ply.
type RefereeScores = BTreeMap<(String, usize), RefereeScore>;

/// `lab blunders` in steps: the games are read and replayed, the referee
/// is started, the run folder is opened (with the scores a resumed run
/// kept), the missing positions are scored, and the moves are judged.
pub fn command(lab: &Lab, args: &BlundersArgs) -> Result<()> {
    let thresholds = args.thresholds()?;
    if let Some(depth) = args.depth {
        crate::measure::suites::check_depth(depth)?;
    }
    if args.nodes == Some(0) {
        bail!("--nodes must be at least 1");
    }
    let games = read_games(lab, &args.pgn)?;
    let launch = participant::launch(lab, &args.referee)?;
    let mut referee = Engine::launch(&launch, &args.referee)?;
    referee.set_option("Hash", &args.hash.mb.to_string())?;
    let settings = RefereeSettings {
        spec: args.referee.clone(),
        id_name: referee.id_name().to_string(),
        limit: args.limit_text(),
        hash_mb: args.hash.mb,
    };
    let run_args = RunArgs { concurrency: 1, resume: args.resume.clone() };
    let (mut run_dir, done): (_, Vec<RefereeRecord>) = run_args.open(lab, "blunders", args)?;
    let mut scores = kept_scores(&run_dir, done, &games)?;
    score_missing_positions(lab, &mut referee, &args.go(), &games, &mut scores, &mut run_dir)?;
    drop(referee);

    let report = judge_games(&games, &scores, settings, &thresholds, &args.pgn);
    let epd_path = run_dir.file("blunders.epd");
    write_atomically(&epd_path, &epd_text(&report))?;
    let markdown = markdown(&report, &epd_path.display().to_string());
    run_dir.write_summary(&markdown, &report)?;
    if lab.global.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{markdown}");
        lab.say(&format!("results: {}", run_dir.path().display()));
    }
    Ok(())
}

/// Every game of every file, replayed before the referee starts, so a bad
/// file stops the run before anything is searched.
fn read_games(lab: &Lab, files: &[PathBuf]) -> Result<Vec<PgnGame>> {
    let mut games = Vec::new();
    for path in files {
        let read = read_pgn_file(&lab.resolve(path))?;
        // Named as given, so a resumed run finds its games under the same keys.
        games.extend(read.into_iter().map(|game| PgnGame { file: path.clone(), ..game }));
    }
    Ok(games)
}

/// The scores a resumed run kept, each checked against the position its
/// game reaches now.
fn kept_scores(run_dir: &RunDir, done: Vec<RefereeRecord>, games: &[PgnGame]) -> Result<RefereeScores> {
    let mut scores = RefereeScores::new();
    for record in done {
        let game = games.iter().find(|game| game.key() == record.game);
        let fen = game.and_then(|game| position_fen(game, record.ply));
        if fen.as_deref() != Some(record.fen.as_str()) {
            bail!(
                "{}: the score of {} after {} moves is of {}, which that game no longer reaches: the PGN changed since \
                 the run started; start a new run",
                run_dir.path().display(),
                record.game,
                record.ply,
                record.fen
            );
        }
        scores.insert((record.game, record.ply), RefereeScore { score: record.score, best: Some(record.best) });
    }
    Ok(scores)
}

/// Scores every position without a score yet, the last of each game
/// included, appending each score the moment it is in; a position with no
/// legal move is scored by the rules instead.
fn score_missing_positions(
    lab: &Lab,
    referee: &mut Engine,
    (go, timeout): &(String, Duration),
    games: &[PgnGame],
    scores: &mut RefereeScores,
    run_dir: &mut RunDir,
) -> Result<()> {
    let mut missing = Vec::new();
    for game in games {
        for ply in 0..=game.moves.len() {
            let key = (game.key(), ply);
            if scores.contains_key(&key) {
                continue;
            }
            match game_over_score(game, ply) {
                Some(score) => {
                    scores.insert(key, RefereeScore { score, best: None });
                }
                None => missing.push((game, ply)),
            }
        }
    }
    let bar = lab.progress(missing.len() as u64, "referee");
    for (game, ply) in missing {
        let output = referee
            .new_game()
            .and_then(|()| referee.go(&game.uci_position(ply), go, *timeout))
            .and_then(|output| {
                let score = output.score().ok_or_else(|| anyhow!("no score before its bestmove"))?;
                Ok((score, output.bestmove))
            })
            .with_context(|| {
                format!("the referee on {} after {ply} moves (the scores so far are kept: --resume)", game.key())
            });
        let (score, best) = output.inspect_err(|_| bar.abandon())?;
        let fen = position_fen(game, ply).expect("a ply of the game");
        let record = RefereeRecord { game: game.key(), ply, fen, score, best };
        run_dir.append(&record)?;
        scores.insert((record.game, ply), RefereeScore { score, best: Some(record.best) });
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
}

/// The position after `ply` moves, as a FEN.
fn position_fen(game: &PgnGame, ply: usize) -> Option<String> {
    match ply.cmp(&game.moves.len()) {
        std::cmp::Ordering::Less => Some(game.moves[ply].board.to_string()),
        std::cmp::Ordering::Equal => Some(game.final_board().to_string()),
        std::cmp::Ordering::Greater => None,
    }
}

/// The score of a position without a legal move, for the side to move:
/// mated (`mate 0`, as a UCI engine reports it) or stalemated (a draw).
fn game_over_score(game: &PgnGame, ply: usize) -> Option<Score> {
    let board = if ply < game.moves.len() { game.moves[ply].board.clone() } else { game.final_board() };
    match board.status() {
        GameStatus::Won => Some(Score::Mate(0)),
        GameStatus::Drawn => Some(Score::Cp(0)),
        GameStatus::Ongoing => None,
    }
}

/// Judges every engine move of every game from the referee's scores.
fn judge_games(
    games: &[PgnGame],
    scores: &RefereeScores,
    referee: RefereeSettings,
    thresholds: &Thresholds,
    files: &[PathBuf],
) -> BlundersReport {
    /// Per engine, per game: the counts of each judgement.
    #[derive(Default)]
    struct Tally {
        per_game: Vec<[f64; 3]>,
        moves: usize,
        cp_loss: i64,
        depths: Vec<u32>,
    }
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut blunders = Vec::new();
    for game in games {
        let mut counts: BTreeMap<&str, [f64; 3]> = BTreeMap::new();
        counts.insert(&game.white, [0.0; 3]);
        counts.insert(&game.black, [0.0; 3]);
        for (ply, played) in game.moves.iter().enumerate() {
            let engine = game.mover(ply);
            if played.book {
                continue;
            }
            let before = &scores[&(game.key(), ply)];
            let after = &scores[&(game.key(), ply + 1)];
            let judged = judge(before.score, after.score, thresholds);
            let tally = tallies.entry(engine.to_string()).or_default();
            tally.moves += 1;
            tally.cp_loss += i64::from(judged.cp_loss);
            tally.depths.extend(played.depth);
            let Some(judgement) = judged.judgement else { continue };
            let slot = match judgement {
                MoveError::Blunder => 0,
                MoveError::Mistake => 1,
                MoveError::Inaccuracy => 2,
            };
            counts.get_mut(engine).expect("both players are counted")[slot] += 1.0;
            if judgement == MoveError::Blunder {
                blunders.push(blunder_of(game, ply, before, &judged));
            }
        }
        for (engine, count) in counts {
            tallies.entry(engine.to_string()).or_default().per_game.push(count);
        }
    }
    let engines = tallies
        .into_iter()
        .map(|(engine, tally)| {
            let column = |slot: usize| tally.per_game.iter().map(|counts| counts[slot]).collect::<Vec<f64>>();
            let mean = |total: f64, count: usize| (count > 0).then(|| total / count as f64);
            EngineBlunders {
                engine,
                games: tally.per_game.len(),
                moves: tally.moves,
                blunders: PerGame::of(&column(0)),
                mistakes: PerGame::of(&column(1)),
                inaccuracies: PerGame::of(&column(2)),
                acpl: mean(tally.cp_loss as f64, tally.moves),
                average_depth: mean(tally.depths.iter().map(|&depth| f64::from(depth)).sum(), tally.depths.len()),
                moves_with_depth: tally.depths.len(),
            }
        })
        .collect();
    let mut time_controls: Vec<String> = games.iter().filter_map(|game| game.time_control.clone()).collect();
    time_controls.sort();
    time_controls.dedup();
    BlundersReport {
        referee,
        thresholds: *thresholds,
        files: files.to_vec(),
        games: games.len(),
        time_controls,
        engines,
        blunders,
    }
}

fn blunder_of(game: &PgnGame, ply: usize, before: &RefereeScore, judged: &judgement::JudgedMove) -> Blunder {
    let played = &game.moves[ply];
    let board = &played.board;
    let number = board.fullmove_number();
    let white = board.side_to_move() == cozy_chess::Color::White;
    let stem = game.file.file_stem().and_then(|stem| stem.to_str()).unwrap_or("games");
    let best = before.best.as_deref().and_then(|uci| move_from_uci(board, uci).ok()).map(|mv| move_to_san(board, mv));
    let left_out = match &best {
        None => Some(format!("the referee's move `{}` is not legal here", before.best.as_deref().unwrap_or("-"))),
        Some(best) if *best == played.san => {
            Some("the move played is the referee's own (its two searches disagree)".to_string())
        }
        Some(_) => None,
    };
    Blunder {
        id: format!("{stem}.g{}.{number}{}", game.number, if white { "w" } else { "b" }),
        game: game.key(),
        engine: game.mover(ply).to_string(),
        moved: format!("{number}{} {}", if white { "." } else { "..." }, played.san),
        fen: board.to_string(),
        played: played.san.clone(),
        best,
        cp_before: judged.cp_before,
        cp_after: judged.cp_after,
        chances_lost: judged.chances_lost,
        left_out,
    }
}

/// `+1.20`, `+M` for the cap (a mate, or 10 pawns and more).
fn pawns(cp: i32) -> String {
    if cp.abs() >= CP_CAP {
        format!("{}M", if cp < 0 { "-" } else { "+" })
    } else {
        format!("{}{:.2}", if cp < 0 { "-" } else { "+" }, f64::from(cp.unsigned_abs()) / 100.0)
    }
}

/// The EPD of the blunder positions: `bm` the referee's move, `am` the
/// move played, `id` the game and move, `c0` what happened.
fn epd_text(report: &BlundersReport) -> String {
    let mut text = String::new();
    for blunder in report.blunders.iter().filter(|blunder| blunder.left_out.is_none()) {
        let fields: Vec<&str> = blunder.fen.split_whitespace().collect();
        let comment = format!(
            "{} by {} in {}: {} to {} for the mover, referee {} {}",
            blunder.moved,
            blunder.engine,
            blunder.game,
            pawns(blunder.cp_before),
            pawns(blunder.cp_after),
            report.referee.id_name,
            report.referee.limit
        )
        .replace(['"', ';'], "'");
        let _ = writeln!(
            text,
            "{} bm {}; am {}; hmvc {}; fmvn {}; id \"{}\"; c0 \"{comment}\";",
            fields[..4].join(" "),
            blunder.best.as_deref().unwrap_or("-"),
            blunder.played,
            fields[4],
            fields[5],
            blunder.id
        );
    }
    text
}

fn markdown(report: &BlundersReport, epd_path: &str) -> String {
    let mut text = String::new();
    let thresholds = &report.thresholds;
    let time_controls = match report.time_controls.as_slice() {
        [] => String::new(),
        time_controls => format!(", at {}", time_controls.join(", ")),
    };
    let _ = writeln!(
        text,
        "# lab blunders: {} game(s) from {} PGN file(s){time_controls}\n",
        report.games,
        report.files.len()
    );
    let _ = writeln!(
        text,
        "Referee: {} (`{}`), {} a position, Hash {} MB, each position from `ucinewgame` with the game's moves as \
         history.",
        report.referee.id_name, report.referee.spec, report.referee.limit, report.referee.hash_mb
    );
    let _ = writeln!(
        text,
        "A move is judged by the drop in the mover's winning chances, 2/(1+exp(-0.00368208·cp))-1, cp capped at \
         ±{CP_CAP} and a mate as the cap: {} or more a blunder, {} a mistake, {} an inaccuracy (lichess's). Per game: \
         the mean over the engine's games, with a 95% bootstrap interval over games, then the total. ACPL: the \
         average centipawn loss, capped scores. Depth: from the engine's PGN comments.\n",
        thresholds.blunder, thresholds.mistake, thresholds.inaccuracy
    );
    let mut table = Table::new()
        .left("engine")
        .right("games")
        .right("moves")
        .left("blunders/game")
        .left("mistakes/game")
        .left("inaccuracies/game")
        .right("ACPL")
        .right("average depth");
    for engine in &report.engines {
        table.push([
            engine.engine.clone(),
            engine.games.to_string(),
            engine.moves.to_string(),
            engine.blunders.text(),
            engine.mistakes.text(),
            engine.inaccuracies.text(),
            engine.acpl.map_or("-".to_string(), |acpl| format!("{acpl:.1}")),
            engine.average_depth.map_or("-".to_string(), |depth| format!("{depth:.1}")),
        ]);
    }
    let _ = write!(text, "{table}");
    let written = report.blunders.iter().filter(|blunder| blunder.left_out.is_none()).count();
    let _ = writeln!(text, "\n{written} blunder position(s) written to {epd_path}.");
    for blunder in report.blunders.iter().filter(|blunder| blunder.left_out.is_some()) {
        let _ = writeln!(
            text,
            "- left out: {} {} ({}): {}",
            blunder.id,
            blunder.moved,
            blunder.engine,
            blunder.left_out.as_deref().unwrap_or("")
        );
    }
    if !report.blunders.is_empty() {
        let mut table = Table::new().left("id").left("engine").left("move").left("best").right("before").right("after");
        for blunder in &report.blunders {
            table.push([
                blunder.id.clone(),
                blunder.engine.clone(),
                blunder.moved.clone(),
                blunder.best.as_deref().unwrap_or("-").to_string(),
                pawns(blunder.cp_before),
                pawns(blunder.cp_after),
            ]);
        }
        let _ = write!(text, "\n{table}");
    }
    text
}
