//! One game between two engine processes, refereed by the runner: it keeps
//! the clocks, checks every move against the rules, ends the game by the
//! rules or by score adjudication, and turns every engine failure into a lost
//! game for that engine, with what went wrong.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::Result;
use cozy_chess::{Board, Color, Move};
use prunelab::position::{move_from_uci, move_to_uci};
use serde::{Deserialize, Serialize};

use super::book::Opening;
use super::clock::{ClockVerdict, MoveBudget, TimeControl};
use super::rules::{rules_verdict, DrawRule, GameResult, ResignRule, ScoreAdjudicator, Termination};
use crate::engine::{Engine, EngineFailure, Launch, Score};

/// An engine of the match: its name, its binary, and its process while it
/// runs. A process that failed is dropped and started again for the next game.
pub struct Player {
    pub name: String,
    launch: Launch,
    hash_mb: u32,
    engine: Option<Engine>,
}

impl Player {
    pub fn new(name: &str, launch: &Launch, hash_mb: u32) -> Player {
        Player { name: name.to_string(), launch: launch.clone(), hash_mb, engine: None }
    }

    /// Starts the process unless it runs, and sets its options.
    pub fn start(&mut self) -> Result<&mut Engine> {
        if self.engine.is_none() {
            let mut engine = Engine::launch(&self.launch, &self.name)?;
            engine.set_option("Hash", &self.hash_mb.to_string())?;
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    /// The running engine's `id name`, if it runs.
    pub fn id_name(&self) -> Option<&str> {
        self.engine.as_ref().map(Engine::id_name)
    }

    pub fn is_running(&self) -> bool {
        self.engine.is_some()
    }

    /// Stops the process (after a failure its state is unknown).
    pub fn discard(&mut self) {
        self.engine = None;
    }

    /// `ucinewgame`, starting the process first if needed.
    fn new_game(&mut self) -> Result<()> {
        let result = self.start().and_then(Engine::new_game);
        if result.is_err() {
            self.discard();
        }
        result
    }
}

/// The rules a game is played under.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The first engine's time control (the PGN's, the summary's).
    pub tc: TimeControl,
    /// The second engine's: `tc`, or other nodes a move (node odds).
    pub tc_b: TimeControl,
    /// How far past zero a clock may go before the engine loses on time.
    pub time_margin: Duration,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

/// One move of a game, with what the engine said about it.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub mv: Move,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub elapsed: Duration,
}

/// An engine failure that ended a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// The engine's name in the match.
    pub engine: String,
    pub kind: Termination,
    /// What happened, for people.
    pub detail: String,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub opening: Opening,
    pub white: String,
    pub black: String,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    pub termination: Termination,
    pub failure: Option<Failure>,
}

impl PlayedGame {
    /// A sentence on how the game ended, for the PGN and messages.
    pub fn ending(&self) -> String {
        if let Some(failure) = &self.failure {
            return failure.detail.clone();
        }
        let winner = match self.result {
            GameResult::WhiteWins => "White",
            GameResult::BlackWins => "Black",
            GameResult::Draw => "",
        };
        match self.termination {
            Termination::Checkmate => format!("{winner} mates"),
            Termination::ResignAdjudication => format!("{winner} wins by adjudication: the engines agree it is lost"),
            Termination::DrawAdjudication => "Draw by adjudication: the engines agree it is drawn".to_string(),
            other => format!("Draw by {}", other.describe()),
        }
    }
}

/// What kind of failure an engine error is: the engine module's
/// [`EngineFailure`] when it is one; anything else (the binary cannot be
/// started) counts as a crash. `on_clock` is whether the engine was
/// searching on its clock: a fixed-nodes search that never answers has no
/// clock to lose on, and is a protocol error, as is a timeout between moves.
fn classify(error: &anyhow::Error, on_clock: bool) -> Termination {
    match error.downcast_ref::<EngineFailure>() {
        Some(EngineFailure::Timeout) if on_clock => Termination::TimeLoss,
        Some(EngineFailure::Timeout) | Some(EngineFailure::Protocol(_)) => Termination::ProtocolError,
        Some(EngineFailure::Exited) | None => Termination::Crash,
    }
}

impl GameSettings {
    /// White's and Black's time controls, with the first engine on `first_engine_plays`.
    pub fn seat_tcs(&self, first_engine_plays: Color) -> [TimeControl; 2] {
        match first_engine_plays {
            Color::White => [self.tc, self.tc_b],
            Color::Black => [self.tc_b, self.tc],
        }
    }
}

/// Plays one game from `opening`, `players[0]` with White, each side at its
/// time control of `seat_tcs` (White's, Black's). Returns `None` when
/// `stop` is raised before the game ends: an unfinished game has no result.
pub fn play_game(
    players: [&mut Player; 2],
    seat_tcs: [TimeControl; 2],
    opening: &Opening,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Option<PlayedGame> {
    let [white, black] = players;
    let mut game = PlayedGame {
        opening: opening.clone(),
        white: white.name.clone(),
        black: black.name.clone(),
        moves: Vec::new(),
        result: GameResult::Draw,
        termination: Termination::Checkmate,
        failure: None,
    };
    let mut players = [white, black];

    for color in [Color::White, Color::Black] {
        let player = &mut players[color as usize];
        if let Err(error) = player.new_game() {
            let kind = classify(&error, false);
            let detail = format!("{} failed before the game: {error:#}", player.name);
            return Some(game.lost_by(color, kind, detail));
        }
    }

    let position_prefix = opening.position_command();
    let mut uci_moves: Vec<String> = Vec::new();
    let mut board = opening.board.clone();
    let mut history: Vec<Board> = Vec::new();
    // The match's plan has checked the pair of time controls.
    let mut budget = MoveBudget::for_sides(seat_tcs[0], seat_tcs[1]).expect("checked time controls");
    let nodes_a_move = seat_tcs[0].nodes();
    let mut adjudicator = ScoreAdjudicator::new(settings.resign, settings.draw);

    // A book position may already be over.
    if let Some((result, termination)) = rules_verdict(&board, &history) {
        return Some(game.ended(result, termination));
    }
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mover = board.side_to_move();
        let player = &mut players[mover as usize];
        let name = player.name.clone();
        let position = if uci_moves.is_empty() {
            position_prefix.clone()
        } else {
            format!("{position_prefix} moves {}", uci_moves.join(" "))
        };
        let go = budget.go_command(mover);
        let deadline = budget.deadline(mover, settings.time_margin);
        let searched = player.start().and_then(|engine| engine.go(&position, &go, deadline));
        let output = match searched {
            Ok(output) => output,
            Err(error) => {
                // Whatever the engine does next (a late `bestmove`), it is no
                // longer in step with the runner: start it afresh next game.
                player.discard();
                let on_clock = nodes_a_move.is_none();
                let kind = classify(&error, on_clock);
                let detail = match (kind, seat_tcs[mover as usize].nodes()) {
                    (Termination::TimeLoss, _) => {
                        format!("{name} loses on time: no move within {} ms", deadline.as_millis())
                    }
                    (_, Some(nodes)) if matches!(error.downcast_ref(), Some(EngineFailure::Timeout)) => {
                        format!("{name} failed: no move within {} s at {nodes} nodes", deadline.as_secs())
                    }
                    _ => format!("{name} failed: {error:#}"),
                };
                return Some(game.lost_by(mover, kind, detail));
            }
        };
        let on_clock = budget.remaining(mover).unwrap_or_default();
        if budget.charge(mover, output.elapsed, settings.time_margin) == ClockVerdict::Flagged {
            let detail = format!(
                "{name} loses on time: {} ms used with {} ms on the clock",
                output.elapsed.as_millis(),
                on_clock.as_millis()
            );
            return Some(game.lost_by(mover, Termination::TimeLoss, detail));
        }
        let mv = match move_from_uci(&board, &output.bestmove) {
            Ok(mv) => mv,
            Err(error) => {
                let detail = format!("{name} plays an illegal move: {error} (position {board})");
                return Some(game.lost_by(mover, Termination::IllegalMove, detail));
            }
        };
        let score = output.score();
        let depth = output.last_info().map(|info| info.depth);
        game.moves.push(PlayedMove { mv, score, depth, elapsed: output.elapsed });
        uci_moves.push(move_to_uci(&board, mv));
        let move_number = board.fullmove_number() as u32;
        history.push(board.clone());
        board.play_unchecked(mv);
        // The rules come first: a mate is a mate even when the scores agree on it.
        let verdict = rules_verdict(&board, &history).or_else(|| adjudicator.update(mover, score, move_number, &board));
        if let Some((result, termination)) = verdict {
            return Some(game.ended(result, termination));
        }
    }
}

impl PlayedGame {
    fn ended(mut self, result: GameResult, termination: Termination) -> PlayedGame {
        self.result = result;
        self.termination = termination;
        self
    }

    fn lost_by(mut self, loser: Color, kind: Termination, detail: String) -> PlayedGame {
        let engine = if loser == Color::White { self.white.clone() } else { self.black.clone() };
        self.failure = Some(Failure { engine, kind, detail });
        self.ended(GameResult::loss_for(loser), kind)
    }
}
