//! Every variant's search in one binary, chosen once per search by name:
//! the `variants` build (`make`, `cargo build --features variants`), whose
//! UCI option `Variant` picks the search, so one commit can play any
//! variant against any other (an OpenBench test is one commit with
//! `Variant=razor-r1` in the dev options and `Variant=p003-3` in the base
//! options).
//!
//! Each variant's search is the one `tests/matrix.rs` snapshots: the same
//! generated technique-set type (`build.rs`), monomorphized, so it searches
//! exactly the nodes of the binary built with that variant's Cargo features
//! (`ci/honesty.sh --variants-build` proves it on every variant). A build of
//! one feature set (`cargo build --features ...`) has none of them and
//! searches with its compiled set.

use std::sync::atomic::AtomicBool;

use crate::features::CATALOGUE;
use crate::position::Position;
use crate::search::{IterationReport, SearchLimits, SearchResult, Searcher};
use crate::techniques::{TechniqueSet, Techniques};

/// Whether this binary carries every variant's search.
pub const VARIANTS_BUILD: bool = cfg!(feature = "variants");

/// A whole search with one technique set, as a plain function pointer.
pub type SearchWith =
    fn(&mut Searcher, &Position, &SearchLimits, &AtomicBool, &mut dyn FnMut(&IterationReport)) -> SearchResult;

/// A variant this build can search as.
#[derive(Clone, Copy, Debug)]
pub struct Selectable {
    pub name: &'static str,
    pub search: SearchWith,
    /// Its technique set, for its telemetry lines.
    pub techniques: Techniques,
    /// Its tunables' values, which its search sets (`TechniqueSet::TUNED`).
    pub tunables: &'static [(&'static str, i32)],
}

impl Selectable {
    /// The variant `name`, searching with technique set `T`.
    pub const fn of<T: TechniqueSet>(name: &'static str) -> Selectable {
        Selectable { name, search: Searcher::search_with::<T>, techniques: T::TECHNIQUES, tunables: T::TUNED }
    }
}

/// The variants build chooses every search's techniques by name, so a
/// pruning feature compiled in would be silently ignored: refused.
const fn no_pruning_feature_compiled() -> bool {
    let mut i = 0;
    while i < CATALOGUE.len() {
        if CATALOGUE[i].compiled {
            return false;
        }
        i += 1;
    }
    true
}

const _: () = assert!(
    !VARIANTS_BUILD || no_pruning_feature_compiled(),
    "the `variants` build chooses each search's techniques with the Variant option: build it without pruning \
     features (a single feature set is `cargo build --features ...`)"
);

#[cfg(feature = "variants")]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/variant_sets.rs"));
}

/// The variants this build can search as, by name; none in a build of one
/// feature set.
pub fn all() -> &'static [Selectable] {
    #[cfg(feature = "variants")]
    return generated::SELECTABLE;
    #[cfg(not(feature = "variants"))]
    return &[];
}

/// The variant a variants build searches as until told otherwise: the
/// Makefile's `VARIANT` when it was built (`make VARIANT=razor-r2`), else
/// `baseline`; `None` in a build of one feature set.
pub fn default_variant() -> Option<&'static Selectable> {
    #[cfg(feature = "variants")]
    return Some(find(generated::DEFAULT_VARIANT).expect("build.rs checks the default variant's name"));
    #[cfg(not(feature = "variants"))]
    return None;
}

/// The variant `name` of this build, or why there is none.
pub fn find(name: &str) -> Result<&'static Selectable, String> {
    if !VARIANTS_BUILD {
        return Err(format!(
            "this binary is one feature set ({}), not the variants build: `make` builds every variant's search \
             into one binary",
            crate::features::variant_label()
        ));
    }
    all().iter().find(|variant| variant.name == name).ok_or_else(|| {
        let names: Vec<&str> = all().iter().map(|variant| variant.name).collect();
        format!("no variant '{}' in this build; the variants are {}", crate::position::shorten(name), names.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(feature = "variants", ignore = "a build of one feature set's: cargo test --lib -- variants::selectable")]
    fn a_build_of_one_feature_set_has_no_variant_to_choose() {
        assert!(all().is_empty());
        assert!(default_variant().is_none());
        let error = find("razor-r1").unwrap_err();
        assert!(error.contains("not the variants build: `make` builds every variant"), "{error}");
    }

    #[test]
    #[cfg_attr(
        not(feature = "variants"),
        ignore = "the variants build's: cargo test --profile ci --lib --features variants -- --ignored variants::selectable"
    )]
    fn the_variants_build_has_every_variant_file() {
        let files = crate::variants::load().unwrap();
        let names: Vec<&str> = all().iter().map(|variant| variant.name).collect();
        let mut expected: Vec<&str> = files.iter().map(|variant| variant.name()).collect();
        expected.sort_unstable();
        assert_eq!(names, expected);
        assert!(find("razor-r9").unwrap_err().contains("no variant 'razor-r9' in this build"));
    }
}
