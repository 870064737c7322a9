//! The pruning decisions along one line: what `lab blame` reads to name the
//! decision that threw a solution away, and the replay that proves it.
//!
//! A line is a sequence of moves from the root (`trace <moves>` over UCI,
//! usually another variant's principal variation). At every node the line
//! leads to, the search records what it decided there: a node pruned or
//! reduced, the line's next move skipped, extended, reduced or searched (with
//! the window and the score), a beta cutoff before the line's move came up,
//! a transposition-table cutoff, a stand pat. Each event names the technique
//! and feature and the numbers it compared.
//!
//! A replay may also not take some of those decisions (`trace <moves>
//! suppress razoring@2`): a [`Suppression`] names a technique (a registry
//! name, its file) and the line's node, or every node of the line. The
//! search's steps ask [`Worker::overrules`] after each technique's hook decides,
//! and a decision it overrules is recorded, then followed by a `not-taken`
//! event, and the search goes on as if the technique had let the node or
//! the move be.
//!
//! What the technique searched to decide has already run, and stays: null
//! move's null-move search and verification search
//! (`prune/null_move.rs`), razoring's quiescence probe
//! (`prune/razoring.rs`), ProbCut's quiescence and reduced searches and
//! the TT entry it stores for a capture that cuts (`prune/probcut.rs`),
//! and singular extension's search without the TT move
//! (`prune/singular.rs`). Their nodes count toward the limit, and their
//! TT entries, histories and killers stay, as in the untraced search. This
//! is deliberate: the decision exists only once those searches have run,
//! and the `not-taken` event that proves a replay met the decision (which
//! `lab blame` requires of a cause) can only follow it. Skipping them
//! would suppress the technique wherever it might have acted rather than
//! the decision it made.
//!
//! Nothing else changes: with nothing suppressed, or with a technique that
//! never decides on the line, the replay searches the untraced tree.
//!
//! This file is the one definition of the trace's words: the engine prints
//! events with [`TraceEvent`]'s `Display`, the lab reads them back with its
//! `FromStr`, and the two details the lab computes with ([`SearchedMove`],
//! [`TtCutoff`]) are written and read here too.
//!
//! Tracing is the compile-time feature `trace`, read once, below: without
//! it [`TRACING`] is `false`, the tracer holds nothing, and every call site's
//! `if self.traces(..)` and every `self.overrules(..)` folds away, arguments
//! and all. Recording never changes a search decision, so a traced search
//! visits exactly the nodes an untraced one does (`tests/trace.rs` checks it
//! on the matrix's positions).

use std::fmt;
use std::str::FromStr;

use cozy_chess::Move;

use crate::position::Position;
use crate::prune::TECHNIQUE_NAMES;
use crate::search::{PlyState, Worker};
use crate::techniques::TechniqueSet;
use crate::tt::Bound;

/// What happened at a node of the traced line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceKind {
    /// The node returned without searching its moves.
    NodePruned,
    /// The node is searched shallower.
    NodeReduced,
    /// The line's next move was skipped without a search.
    MoveSkipped,
    /// The line's next move's depth changed (extension or reduction).
    MoveDepth,
    /// The line's next move was searched (window, depth and score).
    MoveSearched,
    /// The node cut off before its move list reached the line's move.
    CutBefore,
    /// The transposition table settled the node.
    TtCutoff,
    /// Quiescence stood pat at the node.
    StandPat,
    /// The decision traced just before was not taken: the replay
    /// suppresses it.
    NotTaken,
}

impl TraceKind {
    pub const ALL: [TraceKind; 9] = [
        TraceKind::NodePruned,
        TraceKind::NodeReduced,
        TraceKind::MoveSkipped,
        TraceKind::MoveDepth,
        TraceKind::MoveSearched,
        TraceKind::CutBefore,
        TraceKind::TtCutoff,
        TraceKind::StandPat,
        TraceKind::NotTaken,
    ];

    /// The kind's word in a trace line.
    pub fn name(self) -> &'static str {
        match self {
            TraceKind::NodePruned => "node-pruned",
            TraceKind::NodeReduced => "node-reduced",
            TraceKind::MoveSkipped => "move-skipped",
            TraceKind::MoveDepth => "move-depth",
            TraceKind::MoveSearched => "move-searched",
            TraceKind::CutBefore => "cut-before",
            TraceKind::TtCutoff => "tt-cutoff",
            TraceKind::StandPat => "stand-pat",
            TraceKind::NotTaken => "not-taken",
        }
    }

    /// The kind a trace line names.
    pub fn from_name(name: &str) -> Option<TraceKind> {
        TraceKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// The technique name of the search's own decisions (TT cutoffs, stand pat,
/// cutoffs, quiescence's move choice, searched moves).
pub const SEARCH: &str = "search";

/// One decision at a node of the traced line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// The root iteration's depth.
    pub iteration: u32,
    /// Plies from the root: the line's first `ply` moves lead to the node.
    pub ply: usize,
    /// The node's remaining depth (0 in quiescence).
    pub depth: i32,
    pub kind: TraceKind,
    /// The technique's file (`razoring`), or [`SEARCH`] for the search's own.
    pub technique: String,
    /// The feature that decided (`razor-r1`), or `baseline`.
    pub feature: String,
    /// The numbers compared, in words.
    pub detail: String,
}

impl TraceEvent {
    /// Whether the search itself decided (not a pruning technique).
    pub fn is_search(&self) -> bool {
        self.technique == SEARCH
    }
}

/// `iter=9 ply=3 depth=2 node-pruned razoring razor-r1 | eval -412 + 500 <= alpha -50`:
/// what `info string trace` prints.
impl fmt::Display for TraceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "iter={} ply={} depth={} {} {} {} | {}",
            self.iteration,
            self.ply,
            self.depth,
            self.kind.name(),
            self.technique,
            self.feature,
            self.detail
        )
    }
}

/// Reads a trace line back, with or without its `info string trace ` prefix;
/// a line that does not read is refused with the line and what is wrong.
impl FromStr for TraceEvent {
    type Err = String;

    fn from_str(line: &str) -> Result<TraceEvent, String> {
        let text = line.trim();
        let text = text.strip_prefix("info string ").unwrap_or(text);
        let text = text.strip_prefix("trace ").unwrap_or(text);
        let parsed = (|| {
            let (head, detail) = text.split_once(" | ").ok_or("no ` | ` before the detail")?;
            let mut words = head.split_whitespace();
            let iteration = field(words.next(), "iter")?;
            let ply = field(words.next(), "ply")?;
            let depth = field(words.next(), "depth")?;
            let kind_name = words.next().ok_or("no kind")?;
            let kind = TraceKind::from_name(kind_name).ok_or_else(|| format!("unknown kind `{kind_name}`"))?;
            let technique = words.next().ok_or("no technique")?.to_string();
            let feature = words.next().ok_or("no feature")?.to_string();
            if let Some(extra) = words.next() {
                return Err(format!("unexpected `{extra}` before ` | `"));
            }
            Ok(TraceEvent { iteration, ply, depth, kind, technique, feature, detail: detail.trim().to_string() })
        })();
        parsed.map_err(|error: String| format!("cannot read trace line `{line}`: {error}"))
    }
}

/// `key=value` of a trace line's head.
fn field<T: FromStr>(word: Option<&str>, key: &str) -> Result<T, String> {
    let word = word.ok_or_else(|| format!("no `{key}=`"))?;
    let value = word
        .strip_prefix(key)
        .and_then(|rest| rest.strip_prefix('='))
        .ok_or_else(|| format!("`{word}` is not `{key}=...`"))?;
    number(value)
}

fn number<T: FromStr>(text: &str) -> Result<T, String> {
    text.trim().parse().map_err(|_| format!("`{text}` is not a number"))
}

/// The text between `before` and `after`, after the first `before`.
fn between<'a>(text: &'a str, before: &str, after: &str) -> Result<&'a str, String> {
    let start = text.find(before).ok_or_else(|| format!("no `{before}`"))? + before.len();
    let rest = &text[start..];
    let end = rest.find(after).ok_or_else(|| format!("no `{after}` after `{before}`"))?;
    Ok(&rest[..end])
}

/// A searched line move, the detail of a `move-searched` event: `move 26
/// searched to depth 7 (first reduced by 2, then re-searched at full
/// depth), window (16, 136): score -1129`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchedMove {
    /// 1-based, counting every legal move so far, pruned ones included.
    pub move_number: usize,
    pub depth: i32,
    /// The late move reduction of the move's first search.
    pub reduction: i32,
    /// Whether a reduced search was repeated at full depth.
    pub researched: bool,
    pub alpha: i32,
    pub beta: i32,
    pub score: i32,
}

impl SearchedMove {
    /// Whether the move's last search had its full depth.
    pub fn full_depth(&self) -> bool {
        self.reduction == 0 || self.researched
    }
}

const RESEARCHED: &str = ", then re-searched at full depth";

impl fmt::Display for SearchedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let researched = if self.researched { RESEARCHED } else { "" };
        write!(
            f,
            "move {} searched to depth {} (first reduced by {}{researched}), window ({}, {}): score {}",
            self.move_number, self.depth, self.reduction, self.alpha, self.beta, self.score
        )
    }
}

impl FromStr for SearchedMove {
    type Err = String;

    fn from_str(detail: &str) -> Result<SearchedMove, String> {
        let parsed = (|| {
            let reduction_text = between(detail, "(first reduced by ", ")")?;
            let (reduction, researched) = match reduction_text.split_once(',') {
                Some((reduction, rest)) if format!(",{rest}") == RESEARCHED => (reduction, true),
                Some((_, rest)) => return Err(format!("unknown note `{}` after the reduction", rest.trim())),
                None => (reduction_text, false),
            };
            let window = between(detail, "window (", ")")?;
            let (alpha, beta) =
                window.split_once(',').ok_or_else(|| format!("window `{window}` is not (alpha, beta)"))?;
            let score = detail.rsplit_once("score ").ok_or("no `score`")?.1;
            Ok(SearchedMove {
                move_number: number(between(detail, "move ", " searched")?)?,
                depth: number(between(detail, "searched to depth ", " (")?)?,
                reduction: number(reduction)?,
                researched,
                alpha: number(alpha)?,
                beta: number(beta)?,
                score: number(score)?,
            })
        })();
        parsed.map_err(|error: String| format!("cannot read the searched move `{detail}`: {error}"))
    }
}

/// A TT cutoff, the detail of a `tt-cutoff` event: `Lower bound 1129 from
/// depth 4 (window 106, 107)` in the main search, `quiescence: Upper bound
/// -1129 (window -133, -132)` in quiescence, whose entries have no depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtCutoff {
    pub bound: Bound,
    pub score: i32,
    /// The stored entry's depth; `None` in quiescence.
    pub stored_depth: Option<i32>,
    pub alpha: i32,
    pub beta: i32,
}

const QUIESCENCE: &str = "quiescence: ";

fn bound_name(bound: Bound) -> &'static str {
    match bound {
        Bound::Lower => "Lower",
        Bound::Upper => "Upper",
        Bound::Exact => "Exact",
    }
}

impl fmt::Display for TtCutoff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (bound, score, alpha, beta) = (bound_name(self.bound), self.score, self.alpha, self.beta);
        match self.stored_depth {
            Some(depth) => write!(f, "{bound} bound {score} from depth {depth} (window {alpha}, {beta})"),
            None => write!(f, "{QUIESCENCE}{bound} bound {score} (window {alpha}, {beta})"),
        }
    }
}

impl FromStr for TtCutoff {
    type Err = String;

    fn from_str(detail: &str) -> Result<TtCutoff, String> {
        let parsed = (|| {
            let (text, quiescence) = match detail.strip_prefix(QUIESCENCE) {
                Some(rest) => (rest, true),
                None => (detail, false),
            };
            let (head, window) = text.split_once(" (window ").ok_or("no `(window `")?;
            let (alpha, beta) = window
                .strip_suffix(')')
                .and_then(|window| window.split_once(", "))
                .ok_or_else(|| format!("window `{window}` is not `alpha, beta)`"))?;
            let words: Vec<&str> = head.split_whitespace().collect();
            let bound = [Bound::Lower, Bound::Upper, Bound::Exact]
                .into_iter()
                .find(|&bound| words.first() == Some(&bound_name(bound)))
                .ok_or_else(|| format!("unknown bound `{}`", words.first().unwrap_or(&"")))?;
            let stored_depth = match (quiescence, &words[1..]) {
                (true, ["bound", _]) => None,
                (false, ["bound", _, "from", "depth", depth]) => Some(number(depth)?),
                _ => return Err("not `<bound> bound <score> from depth <depth>`".to_string()),
            };
            Ok(TtCutoff { bound, score: number(words[2])?, stored_depth, alpha: number(alpha)?, beta: number(beta)? })
        })();
        parsed.map_err(|error: String| format!("cannot read the TT cutoff `{detail}`: {error}"))
    }
}

/// A decision a replay does not take: every decision of `technique` at the
/// traced line's node `ply` plies from the root (in every iteration), or at
/// every node of the line. `razoring@2` and `razoring` over UCI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// A registry name: the technique's file (`razoring`, `move_count`).
    pub technique: &'static str,
    pub ply: Option<usize>,
}

impl Suppression {
    /// Whether it covers `technique`'s decisions at the line's node at `ply`.
    pub fn covers(&self, technique: &str, ply: usize) -> bool {
        self.technique == technique && self.ply.map_or(true, |at| at == ply)
    }
}

impl fmt::Display for Suppression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ply {
            Some(ply) => write!(f, "{}@{ply}", self.technique),
            None => f.write_str(self.technique),
        }
    }
}

impl FromStr for Suppression {
    type Err = String;

    fn from_str(text: &str) -> Result<Suppression, String> {
        let (name, ply) = match text.split_once('@') {
            Some((name, ply)) => (name, Some(number(ply).map_err(|error| format!("suppress {text}: {error}"))?)),
            None => (text, None),
        };
        let technique = TECHNIQUE_NAMES.iter().find(|&&technique| technique == name).ok_or_else(|| {
            format!("suppress {text}: `{name}` is no technique (the techniques: {})", TECHNIQUE_NAMES.join(", "))
        })?;
        Ok(Suppression { technique, ply })
    }
}

/// What `trace` asks of the next searches: the line, and the decisions on
/// it not to take.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceRequest {
    pub line: Vec<Move>,
    pub suppressions: Vec<Suppression>,
}

impl TraceRequest {
    /// `trace <moves> [suppress <technique>[@<ply>] ...]`: the moves, each
    /// legal in turn from `position`, then what not to take on their line
    /// (a ply no further than the line's end). No words: stop tracing.
    pub fn parse(position: &Position, words: &[String]) -> Result<TraceRequest, String> {
        let split = words.iter().position(|word| word == "suppress").unwrap_or(words.len());
        let (moves, suppressions) = (&words[..split], words.get(split + 1..).unwrap_or_default());
        let mut position = position.clone();
        let line = moves
            .iter()
            .map(|text| position.play_uci(text).map_err(|error| format!("trace: {error}")))
            .collect::<Result<Vec<_>, _>>()?;
        if split < words.len() && suppressions.is_empty() {
            return Err("trace: `suppress` names no technique".to_string());
        }
        let suppressions = suppressions
            .iter()
            .map(|text| text.parse::<Suppression>().map_err(|error| format!("trace: {error}")))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(beyond) =
            suppressions.iter().find(|suppression| suppression.ply.is_some_and(|ply| ply > line.len()))
        {
            return Err(format!("trace: suppress {beyond}: the line's last node is at ply {}", line.len()));
        }
        Ok(TraceRequest { line, suppressions })
    }
}

cfg_if::cfg_if! {
    if #[cfg(feature = "trace")] {
        /// Whether this build records trace events.
        pub const TRACING: bool = true;

        /// The traced line, what not to take on it, and what the search
        /// recorded along it.
        #[derive(Clone, Debug, Default)]
        pub struct Tracer {
            request: TraceRequest,
            events: Vec<TraceEvent>,
            iteration: u32,
        }

        impl Tracer {
            pub const fn new() -> Self {
                Tracer { request: TraceRequest { line: Vec::new(), suppressions: Vec::new() }, events: Vec::new(), iteration: 0 }
            }

            /// Traces the request's line from the next search's root (an
            /// empty line: nothing).
            pub fn set(&mut self, request: TraceRequest) {
                self.request = request;
            }

            pub(crate) fn start_iteration(&mut self, depth: i32) {
                self.iteration = u32::try_from(depth).unwrap_or(0);
            }

            fn iteration(&self) -> u32 {
                self.iteration
            }

            /// The line's move at `ply`, when the line goes that far.
            fn line_move(&self, ply: usize) -> Option<Move> {
                self.request.line.get(ply).copied()
            }

            /// Whether the moves played from the root to `ply` are the line's.
            fn follows(&self, stack: &[PlyState], ply: usize) -> bool {
                ply <= self.request.line.len()
                    && stack[..ply].iter().zip(&self.request.line).all(|(state, mv)| state.current_move == Some(*mv))
            }

            fn suppresses(&self, technique: &str, ply: usize) -> bool {
                self.request.suppressions.iter().any(|suppression| suppression.covers(technique, ply))
            }

            fn record(&mut self, event: TraceEvent) {
                self.events.push(event);
            }

            /// The event recorded last, if `technique` recorded it at `ply`.
            fn last_decision(&self, technique: &str, ply: usize) -> Option<&TraceEvent> {
                self.events.last().filter(|event| event.technique == technique && event.ply == ply)
            }

            /// The events of the last search, in search order.
            pub fn take_events(&mut self) -> Vec<TraceEvent> {
                std::mem::take(&mut self.events)
            }
        }
    } else {
        /// Whether this build records trace events.
        pub const TRACING: bool = false;

        /// Nothing: this build has no `trace` feature.
        #[derive(Clone, Debug, Default)]
        pub struct Tracer;

        impl Tracer {
            pub const fn new() -> Self {
                Tracer
            }

            pub fn set(&mut self, _request: TraceRequest) {}

            pub(crate) fn start_iteration(&mut self, _depth: i32) {}

            fn iteration(&self) -> u32 {
                0
            }

            fn line_move(&self, _ply: usize) -> Option<Move> {
                None
            }

            fn follows(&self, _stack: &[PlyState], _ply: usize) -> bool {
                false
            }

            fn suppresses(&self, _technique: &str, _ply: usize) -> bool {
                false
            }

            fn record(&mut self, _event: TraceEvent) {}

            fn last_decision(&self, _technique: &str, _ply: usize) -> Option<&TraceEvent> {
                None
            }

            pub fn take_events(&mut self) -> Vec<TraceEvent> {
                Vec::new()
            }
        }
    }
}

impl<T: TechniqueSet> Worker<'_, T> {
    /// Whether the node at `ply` lies on the traced line.
    #[inline(always)]
    pub(crate) fn traces(&self, ply: usize) -> bool {
        TRACING && self.tracer.follows(&self.stack, ply)
    }

    /// Whether `mv`, at the node at `ply`, is the traced line's next move.
    #[inline(always)]
    pub(crate) fn traces_move(&self, ply: usize, mv: Move) -> bool {
        TRACING && self.tracer.line_move(ply) == Some(mv) && self.tracer.follows(&self.stack, ply)
    }

    /// The traced line's move at `ply`, for a node on the line.
    pub(crate) fn traced_move(&self, ply: usize) -> Option<Move> {
        self.tracer.line_move(ply)
    }

    /// Records a decision at the node at `ply` (callers check `traces`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn trace(
        &mut self,
        ply: usize,
        depth: i32,
        kind: TraceKind,
        technique: &'static str,
        feature: &'static str,
        detail: String,
    ) {
        let iteration = self.tracer.iteration();
        let (technique, feature) = (technique.to_string(), feature.to_string());
        self.tracer.record(TraceEvent { iteration, ply, depth, kind, technique, feature, detail });
    }

    /// Whether the replay overrules the decision `technique` just made (and
    /// traced) at the line's node at `ply`: a node pruned or reduced, a drop
    /// of the line's move. When it does, it records that the decision is
    /// not taken, and the caller goes on as if the technique had not
    /// decided.
    #[inline(always)]
    pub(crate) fn overrules(&mut self, technique: &'static str, ply: usize) -> bool {
        TRACING && self.tracer.suppresses(technique, ply) && self.traces(ply) && self.not_taken(technique, ply)
    }

    /// Whether the replay overrules the decision `technique` just made (and
    /// traced) about `mv` at the node at `ply`, when `mv` is the line's move:
    /// skipped, or its depth changed. A skip's request to drop the node's
    /// remaining quiet moves goes with it.
    #[inline(always)]
    pub(crate) fn overrules_move(&mut self, technique: &'static str, ply: usize, mv: Move) -> bool {
        if !(TRACING && self.tracer.suppresses(technique, ply) && self.traces_move(ply, mv)) {
            return false;
        }
        self.stack[ply].skip_quiets = None;
        self.not_taken(technique, ply)
    }

    /// Records that the decision traced last is not taken (always `true`).
    fn not_taken(&mut self, technique: &'static str, ply: usize) -> bool {
        let decision = self.tracer.last_decision(technique, ply).map(|event| (event.depth, event.feature.clone()));
        debug_assert!(decision.is_some(), "{technique} decided at ply {ply} of the traced line without tracing it");
        let (depth, feature) = decision.unwrap_or_default();
        let event = TraceEvent {
            iteration: self.tracer.iteration(),
            ply,
            depth,
            kind: TraceKind::NotTaken,
            technique: technique.to_string(),
            feature,
            detail: format!("the decision above is not taken: this replay suppresses {technique} here"),
        };
        self.tracer.record(event);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_line_reads_back_into_its_event_and_prints_the_same() {
        let line = "info string trace iter=8 ply=2 depth=4 node-pruned futility futility-node | node futility at depth 4: eval -1129 + margin 390 <= alpha 16: returns the eval";
        let event: TraceEvent = line.parse().unwrap();
        assert_eq!(
            event,
            TraceEvent {
                iteration: 8,
                ply: 2,
                depth: 4,
                kind: TraceKind::NodePruned,
                technique: "futility".into(),
                feature: "futility-node".into(),
                detail: "node futility at depth 4: eval -1129 + margin 390 <= alpha 16: returns the eval".into(),
            }
        );
        assert_eq!(format!("info string trace {event}"), line);
        for kind in TraceKind::ALL {
            assert_eq!(TraceKind::from_name(kind.name()), Some(kind));
        }
    }

    #[test]
    fn broken_lines_are_refused_with_the_line() {
        for line in [
            "iter=8 ply=2 depth=4 node-pruned futility futility-node no detail",
            "iter=8 ply=x depth=4 node-pruned futility futility-node | d",
            "iter=8 ply=2 depth=4 node-chopped futility futility-node | d",
            "iter=8 depth=4 ply=2 node-pruned futility futility-node | d",
            "iter=8 ply=2 depth=4 node-pruned futility | d",
            "iter=8 ply=2 depth=4 node-pruned futility futility-node extra | d",
        ] {
            let error = line.parse::<TraceEvent>().unwrap_err();
            assert!(error.contains(line), "{error}");
        }
    }

    #[test]
    fn searched_moves_print_and_read_back() {
        let plain = "move 26 searched to depth 7 (first reduced by 2), window (16, 136): score -1129";
        let read: SearchedMove = plain.parse().unwrap();
        assert_eq!(
            read,
            SearchedMove {
                move_number: 26,
                depth: 7,
                reduction: 2,
                researched: false,
                alpha: 16,
                beta: 136,
                score: -1129
            }
        );
        assert!(!read.full_depth());
        assert_eq!(read.to_string(), plain);
        let researched =
            "move 3 searched to depth 8 (first reduced by 1, then re-searched at full depth), window (-91, -90): score -85";
        let read: SearchedMove = researched.parse().unwrap();
        assert_eq!((read.reduction, read.researched, read.alpha, read.beta, read.score), (1, true, -91, -90, -85));
        assert!(read.full_depth());
        assert_eq!(read.to_string(), researched);
        assert!("move 3 searched somehow".parse::<SearchedMove>().is_err());
        let unknown = "move 3 searched to depth 8 (first reduced by 1, then something), window (1, 2): score 3";
        assert!(unknown.parse::<SearchedMove>().unwrap_err().contains("then something"));
    }

    #[test]
    fn tt_cutoffs_print_and_read_back() {
        let main = "Lower bound 1129 from depth 4 (window 106, 107)";
        let read: TtCutoff = main.parse().unwrap();
        assert_eq!(read, TtCutoff { bound: Bound::Lower, score: 1129, stored_depth: Some(4), alpha: 106, beta: 107 });
        assert_eq!(read.to_string(), main);
        let quiescence = "quiescence: Upper bound -1129 (window -133, -132)";
        let read: TtCutoff = quiescence.parse().unwrap();
        assert_eq!(read, TtCutoff { bound: Bound::Upper, score: -1129, stored_depth: None, alpha: -133, beta: -132 });
        assert_eq!(read.to_string(), quiescence);
        for broken in [
            "Sideways bound 3 from depth 1 (window 1, 2)",
            "Exact bound 3 from depth 1",
            "quiescence: Exact bound 3 from depth 1 (window 1, 2)",
            "Exact bound x from depth 1 (window 1, 2)",
        ] {
            assert!(broken.parse::<TtCutoff>().is_err(), "{broken}");
        }
    }

    #[test]
    fn suppressions_name_a_registered_technique_and_a_node_of_the_line() {
        let at_node: Suppression = "razoring@2".parse().unwrap();
        assert_eq!(at_node, Suppression { technique: "razoring", ply: Some(2) });
        assert_eq!(at_node.to_string(), "razoring@2");
        assert_eq!("move_count".parse::<Suppression>().unwrap().ply, None);
        let error = "razor@2".parse::<Suppression>().unwrap_err();
        assert!(error.contains("`razor` is no technique") && error.contains("razoring, futility"), "{error}");
        assert!("razoring@two".parse::<Suppression>().is_err());
        assert!(at_node.covers("razoring", 2) && !at_node.covers("razoring", 1) && !at_node.covers("futility", 2));
        assert!("razoring".parse::<Suppression>().unwrap().covers("razoring", 5));

        let start = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let words = |text: &str| text.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let request = TraceRequest::parse(&start, &words("e2e4 e7e5 suppress razoring@2 move_count")).unwrap();
        assert_eq!(request.line.len(), 2);
        assert_eq!(
            request.suppressions.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["razoring@2", "move_count"]
        );
        assert_eq!(TraceRequest::parse(&start, &[]).unwrap(), TraceRequest::default());
        for (text, error) in [
            ("e2e4 suppress razoring@2", "the line's last node is at ply 1"),
            ("e2e4 suppress", "names no technique"),
            ("e2e5", "trace: "),
            ("e2e4 suppress nothing", "`nothing` is no technique"),
        ] {
            let found = TraceRequest::parse(&start, &words(text)).unwrap_err();
            assert!(found.contains(error), "{text}: {found}");
        }
    }
}
