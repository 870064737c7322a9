//! The engine's trace lines (`info string trace ...`, from a build with the
//! `trace` feature) read back into events, with the engine's own
//! definitions (`prunelab::trace`): the line, the kinds, and the two details
//! the blame computes with (a searched move's reduction, window and score; a
//! TT cutoff's bound). A line or a detail that does not read is an error,
//! not a guess.

use anyhow::{anyhow, Result};
pub use prunelab::trace::{SearchedMove, TraceEvent, TraceKind as Kind, TtCutoff};

/// The events of one search's `info string` texts, in search order: the
/// texts that start with `trace `; any other text is not the trace's.
pub fn events_of(strings: &[String]) -> Result<Vec<TraceEvent>> {
    strings
        .iter()
        .filter(|text| text.starts_with("trace "))
        .map(|text| text.parse().map_err(|error| anyhow!("{error}")))
        .collect()
}

/// The searched move of a `move-searched` event.
pub fn searched_move(event: &TraceEvent) -> Result<SearchedMove> {
    event.detail.parse().map_err(|error| anyhow!("{error}, in `{event}`"))
}

/// The TT cutoff of a `tt-cutoff` event.
pub fn tt_cutoff(event: &TraceEvent) -> Result<TtCutoff> {
    event.detail.parse().map_err(|error| anyhow!("{error}, in `{event}`"))
}

/// An event in results files: its trace line, as the engine printed it.
pub mod as_line {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    use super::TraceEvent;

    pub fn serialize<S: Serializer>(event: &TraceEvent, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(event)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<TraceEvent, D::Error> {
        String::deserialize(deserializer)?.parse().map_err(D::Error::custom)
    }

    /// An optional event: its line, or `null`.
    pub mod optional {
        use serde::{de::Error, Deserialize, Deserializer, Serializer};

        use super::TraceEvent;

        pub fn serialize<S: Serializer>(event: &Option<TraceEvent>, serializer: S) -> Result<S::Ok, S::Error> {
            match event {
                Some(event) => serializer.collect_str(event),
                None => serializer.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<TraceEvent>, D::Error> {
            Option::<String>::deserialize(deserializer)?.map(|line| line.parse().map_err(D::Error::custom)).transpose()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(searched_move(&events[0]).unwrap().score, -1129);
        let broken = vec!["trace iter=1 ply=x depth=1 stand-pat search baseline | d".to_string()];
        let error = events_of(&broken).unwrap_err().to_string();
        assert!(error.contains("ply=x"), "{error}");
    }

    #[test]
    fn a_detail_that_does_not_read_names_its_event() {
        let event: TraceEvent =
            "iter=2 ply=1 depth=3 tt-cutoff search baseline | Sideways bound 3 from depth 1 (window 1, 2)"
                .parse()
                .unwrap();
        let error = tt_cutoff(&event).unwrap_err().to_string();
        assert!(error.contains("Sideways") && error.contains("iter=2 ply=1"), "{error}");
    }

    #[test]
    fn events_in_results_files_are_their_trace_lines() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct Holder {
            #[serde(with = "as_line")]
            event: TraceEvent,
        }
        let line = "iter=8 ply=2 depth=4 node-pruned futility futility-node | node futility at depth 4: eval -1129 + margin 390 <= alpha 16: returns the eval";
        let holder = Holder { event: line.parse().unwrap() };
        let json = serde_json::to_string(&holder).unwrap();
        assert_eq!(json, format!("{{\"event\":\"{line}\"}}"));
        assert_eq!(serde_json::from_str::<Holder>(&json).unwrap(), holder);
        assert!(serde_json::from_str::<Holder>("{\"event\":\"iter=8 nonsense\"}").is_err());
    }
}
