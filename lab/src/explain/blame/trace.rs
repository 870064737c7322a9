//! The engine's trace lines (`info string trace ...`, from a build with the
//! `trace` feature) read back into events, and the numbers `lab blame`
//! needs from their details.
//!
//! A line is `iter=<root depth> ply=<p> depth=<node depth> <kind> <technique>
//! <feature> | <detail>`, as the engine's `TraceEvent` prints it. The details
//! are written for people; the few the analysis reads (a searched move's
//! reduction, window and score; a TT cutoff's bound) are parsed here, and a
//! detail that does not parse is an error, not a guess.

use std::fmt;

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};

/// What happened at a node of the traced line: the engine's own kinds, so
/// the words the engine prints and the lab reads are one table.
pub use prunelab::trace::TraceKind as Kind;

/// A kind in results files by its trace word (`node-pruned`).
mod kind_name {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    use super::Kind;

    pub fn serialize<S: Serializer>(kind: &Kind, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(kind.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Kind, D::Error> {
        let name = String::deserialize(deserializer)?;
        Kind::from_name(&name).ok_or_else(|| D::Error::custom(format!("unknown trace kind `{name}`")))
    }
}

/// The technique name of the search's own decisions (TT cutoffs, stand pat,
/// cutoffs, quiescence's move choice, searched moves).
pub const SEARCH: &str = "search";

/// One decision at a node of the traced line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// The root iteration's depth.
    pub iteration: u32,
    /// Plies from the root: the line's first `ply` moves lead to the node.
    pub ply: usize,
    /// The node's remaining depth (0 in quiescence).
    pub depth: i32,
    #[serde(with = "kind_name")]
    pub kind: Kind,
    /// The technique's file (`razoring`), or `search`.
    pub technique: String,
    /// The deciding feature (`razor-r1`), or `baseline`.
    pub feature: String,
    /// The numbers compared, in the engine's words.
    pub detail: String,
}

/// The line as the engine printed it (without `info string trace `).
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

fn field<T: std::str::FromStr>(word: Option<&str>, key: &str) -> Result<T> {
    let word = word.ok_or_else(|| anyhow!("no `{key}=`"))?;
    let value = word
        .strip_prefix(key)
        .and_then(|rest| rest.strip_prefix('='))
        .ok_or_else(|| anyhow!("`{word}` is not `{key}=...`"))?;
    value.parse().map_err(|_| anyhow!("`{word}`: not a number"))
}

impl TraceEvent {
    /// Parses one trace line, with or without its `info string trace ` prefix.
    pub fn parse(line: &str) -> Result<TraceEvent> {
        let text = line.trim();
        let text = text.strip_prefix("info string ").unwrap_or(text);
        let text = text.strip_prefix("trace ").unwrap_or(text);
        let (head, detail) = text.split_once(" | ").ok_or_else(|| anyhow!("trace line without ` | `: {line}"))?;
        let parsed = (|| {
            let mut words = head.split_whitespace();
            let iteration = field(words.next(), "iter")?;
            let ply = field(words.next(), "ply")?;
            let depth = field(words.next(), "depth")?;
            let kind_name = words.next().ok_or_else(|| anyhow!("no kind"))?;
            let kind = Kind::from_name(kind_name).ok_or_else(|| anyhow!("unknown kind `{kind_name}`"))?;
            let technique = words.next().ok_or_else(|| anyhow!("no technique"))?.to_string();
            let feature = words.next().ok_or_else(|| anyhow!("no feature"))?.to_string();
            if let Some(extra) = words.next() {
                bail!("unexpected `{extra}` before ` | `");
            }
            Ok(TraceEvent { iteration, ply, depth, kind, technique, feature, detail: detail.trim().to_string() })
        })();
        parsed.with_context(|| format!("cannot read trace line `{line}`"))
    }

    /// Whether the search itself decided (not a pruning technique).
    pub fn is_search(&self) -> bool {
        self.technique == SEARCH
    }
}

/// The events of one search's `info string` texts, in search order: the
/// texts that start with `trace `; any other text is not the trace's.
pub fn events_of(strings: &[String]) -> Result<Vec<TraceEvent>> {
    strings.iter().filter(|text| text.starts_with("trace ")).map(|text| TraceEvent::parse(text)).collect()
}

/// A searched line move, from a `move-searched` detail: `move 26 searched
/// to depth 7 (first reduced by 2[, then re-searched at full depth]), window
/// (16, 136): score -1129`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchedMove {
    pub move_number: u32,
    pub depth: i32,
    /// The late move reduction of the first search of the move.
    pub reduction: i32,
    /// Whether a reduced search was repeated at full depth.
    pub researched: bool,
    pub alpha: i32,
    pub beta: i32,
    pub score: i32,
}

impl SearchedMove {
    /// The depth the move's last search had: reduced unless re-searched.
    pub fn full_depth(&self) -> bool {
        self.reduction == 0 || self.researched
    }
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T> {
    text.trim().parse().map_err(|_| anyhow!("`{text}` is not a number"))
}

/// The text between `before` and `after`, after the first `before`.
fn between<'a>(text: &'a str, before: &str, after: &str) -> Result<&'a str> {
    let start = text.find(before).ok_or_else(|| anyhow!("no `{before}`"))? + before.len();
    let rest = &text[start..];
    let end = rest.find(after).ok_or_else(|| anyhow!("no `{after}` after `{before}`"))?;
    Ok(&rest[..end])
}

pub fn searched_move(event: &TraceEvent) -> Result<SearchedMove> {
    let detail = &event.detail;
    let parsed = (|| {
        let reduction_text = between(detail, "(first reduced by ", ")")?;
        let (reduction, researched) = match reduction_text.split_once(',') {
            Some((reduction, rest)) if rest.trim() == "then re-searched at full depth" => (reduction, true),
            Some((_, rest)) => bail!("unknown note `{}` after the reduction", rest.trim()),
            None => (reduction_text, false),
        };
        let window = between(detail, "window (", ")")?;
        let (alpha, beta) = window.split_once(',').ok_or_else(|| anyhow!("window `{window}` is not (alpha, beta)"))?;
        let score = detail.rsplit_once("score ").ok_or_else(|| anyhow!("no `score`"))?.1;
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
    parsed.with_context(|| format!("cannot read the searched move of `{event}`"))
}

/// The bound of a TT cutoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is at least this (it failed high when stored).
    Lower,
    /// The score is at most this (it failed low when stored).
    Upper,
    Exact,
}

/// A TT cutoff, from its detail: `Lower bound 1129 from depth 4 (window
/// 106, 107)` in the main search, `quiescence: Upper bound -1129 (window
/// -133, -132)` in quiescence (whose entries have no depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtCutoff {
    pub bound: Bound,
    pub score: i32,
    /// The stored entry's depth; `None` in quiescence.
    pub stored_depth: Option<i32>,
}

pub fn tt_cutoff(event: &TraceEvent) -> Result<TtCutoff> {
    let detail = event.detail.strip_prefix("quiescence: ").unwrap_or(&event.detail);
    let parsed = (|| {
        let mut words = detail.split_whitespace();
        let bound = match words.next() {
            Some("Lower") => Bound::Lower,
            Some("Upper") => Bound::Upper,
            Some("Exact") => Bound::Exact,
            other => bail!("unknown bound `{}`", other.unwrap_or("")),
        };
        if words.next() != Some("bound") {
            bail!("no `bound`");
        }
        let score = number(words.next().unwrap_or(""))?;
        let stored_depth = match (words.next(), words.next(), words.next()) {
            (Some("from"), Some("depth"), Some(depth)) => Some(number(depth)?),
            _ => None,
        };
        Ok(TtCutoff { bound, score, stored_depth })
    })();
    parsed.with_context(|| format!("cannot read the TT cutoff of `{event}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_line_reads_back_into_its_event_and_prints_the_same() {
        let line = "info string trace iter=8 ply=2 depth=4 node-pruned futility futility-node | node futility at depth 4: eval -1129 + margin 390 <= alpha 16: returns the eval";
        let event = TraceEvent::parse(line).unwrap();
        assert_eq!(
            event,
            TraceEvent {
                iteration: 8,
                ply: 2,
                depth: 4,
                kind: Kind::NodePruned,
                technique: "futility".into(),
                feature: "futility-node".into(),
                detail: "node futility at depth 4: eval -1129 + margin 390 <= alpha 16: returns the eval".into(),
            }
        );
        assert_eq!(format!("info string trace {event}"), line);
        for kind in Kind::ALL {
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
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
            let error = format!("{:#}", TraceEvent::parse(line).unwrap_err());
            assert!(error.contains(line), "{error}");
        }
    }

    #[test]
    fn only_trace_texts_are_events() {
        let strings = vec![
            "razor: att=3 cut=1".to_string(),
            "trace iter=1 ply=0 depth=1 move-searched search baseline | move 52 searched to depth 0 (first reduced by 0), window (-133, 32000): score -1129".to_string(),
        ];
        let events = events_of(&strings).unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].kind, Kind::MoveSearched);
        assert!(events[0].is_search());
    }

    fn event(kind: Kind, detail: &str) -> TraceEvent {
        TraceEvent {
            iteration: 1,
            ply: 0,
            depth: 1,
            kind,
            technique: SEARCH.into(),
            feature: "baseline".into(),
            detail: detail.into(),
        }
    }

    #[test]
    fn searched_moves_give_their_reduction_window_and_score() {
        let plain = event(
            Kind::MoveSearched,
            "move 26 searched to depth 7 (first reduced by 2), window (16, 136): score -1129",
        );
        let read = searched_move(&plain).unwrap();
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
        let researched = event(
            Kind::MoveSearched,
            "move 3 searched to depth 8 (first reduced by 1, then re-searched at full depth), window (-91, -90): score -85",
        );
        let read = searched_move(&researched).unwrap();
        assert_eq!((read.reduction, read.researched, read.alpha, read.beta, read.score), (1, true, -91, -90, -85));
        assert!(read.full_depth());
        assert!(searched_move(&event(Kind::MoveSearched, "move 3 searched somehow")).is_err());
        assert!(searched_move(&event(
            Kind::MoveSearched,
            "move 3 searched to depth 8 (first reduced by 1, then something), window (1, 2): score 3"
        ))
        .is_err());
    }

    #[test]
    fn tt_cutoffs_give_their_bound_score_and_stored_depth() {
        let main = event(Kind::TtCutoff, "Lower bound 1129 from depth 4 (window 106, 107)");
        assert_eq!(tt_cutoff(&main).unwrap(), TtCutoff { bound: Bound::Lower, score: 1129, stored_depth: Some(4) });
        let quiescence = event(Kind::TtCutoff, "quiescence: Upper bound -1129 (window -133, -132)");
        assert_eq!(tt_cutoff(&quiescence).unwrap(), TtCutoff { bound: Bound::Upper, score: -1129, stored_depth: None });
        assert!(tt_cutoff(&event(Kind::TtCutoff, "Sideways bound 3 from depth 1")).is_err());
    }
}
