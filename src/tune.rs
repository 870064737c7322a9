//! Tunables: each margin, depth limit and bonus is declared once, in its
//! technique's file, as `<TECHNIQUE>_<ROLE>: default, min, max, step;`.
//! That one declaration gives the constant the search reads, the UCI option
//! (`RAZOR_MARGIN_1` is `RazorMargin1`) and the OpenBench SPSA line
//! (`name, int, value, min, max, c_end, r_end`).
//!
//! In a normal build a tunable reads as the technique set's constant and
//! folds away. With the `tune` feature it is a runtime value: a UCI `spin`
//! option. The `cfg_if!` below is the only place the `tune` feature is read.
//!
//! A variant file's `[tunables]` (`ReverseFutilityDepthMargin = 75`) sets
//! values without an option: a build of that variant's features gets them
//! from `$PRUNELAB_TUNABLES` (`ReverseFutilityDepthMargin=75,...`, which the
//! lab and `ci/honesty.sh` set from the file; build.rs generates
//! [`BUILT_TUNABLES`]) as its constants, and the variants build, which
//! carries every variant's search, sets them when it searches as that
//! variant (the technique set's `TUNED`, see [`select_variant_values`]).

/// OpenBench's SPSA learning rate for every tunable.
const SPSA_R_END: f64 = 0.002;

/// The longest UCI name a tunable may have.
const MAX_NAME: usize = 48;

/// A tunable's UCI name from its constant's name: `RAZOR_MARGIN_1` gives
/// `RazorMargin1`, at compile time.
const fn camel_case(constant: &str) -> ([u8; MAX_NAME], usize) {
    let bytes = constant.as_bytes();
    let mut name = [0u8; MAX_NAME];
    let mut length = 0;
    let mut word_start = true;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if byte == b'_' {
            word_start = true;
        } else {
            assert!(length < MAX_NAME, "tunable name too long");
            name[length] = if word_start { byte } else { byte.to_ascii_lowercase() };
            length += 1;
            word_start = false;
        }
        i += 1;
    }
    (name, length)
}

/// Whether this build exposes tunables as options.
pub const TUNING: bool = cfg!(feature = "tune");

/// The environment variable that gives a build of one feature set its
/// tunable values (read by build.rs): `NAME=value,...`.
pub const TUNABLES_VARIABLE: &str = "PRUNELAB_TUNABLES";

// `(name, value)`: the values `$PRUNELAB_TUNABLES` named when build.rs ran.
include!(concat!(env!("OUT_DIR"), "/built_tunables.rs"));

cfg_if::cfg_if! {
    if #[cfg(any(feature = "tune", all(feature = "variants", prunelab_tuned_variants)))] {
        use std::sync::atomic::{AtomicI32, Ordering};

        /// Whether a tunable's value can change at run time: by an option
        /// (`tune`) or by the variant searched as (the variants build, once
        /// some variant sets values: `prunelab_tuned_variants`, build.rs).
        const RUNTIME_VALUES: bool = true;

        /// The option's value once set, else the value of the variant the
        /// variants build searches as; until then each technique set reads
        /// its own configured value, so a tuning build searches every variant
        /// (the matrix's, in one test binary) as its normal build does.
        #[derive(Debug)]
        struct Setting {
            option: AtomicI32,
            variant: AtomicI32,
        }

        /// No `setoption` yet, or no value of the variant's.
        const UNSET: i32 = i32::MIN;

        impl Setting {
            const fn new() -> Self {
                Setting { option: AtomicI32::new(UNSET), variant: AtomicI32::new(UNSET) }
            }
            fn value_or(&self, configured: i32) -> i32 {
                match (self.option.load(Ordering::Relaxed), self.variant.load(Ordering::Relaxed)) {
                    (UNSET, UNSET) => configured,
                    (UNSET, value) | (value, _) => value,
                }
            }
            fn set(&self, value: i32, name: &str) -> Result<(), String> {
                if !TUNING {
                    return Err(format!("{name} is a tunable; build with the `tune` feature to set it"));
                }
                self.option.store(value, Ordering::Relaxed);
                Ok(())
            }
            fn set_variant_value(&self, value: Option<i32>) {
                self.variant.store(value.unwrap_or(UNSET), Ordering::Relaxed);
            }
        }
    } else {
        /// Whether a tunable's value can change at run time.
        const RUNTIME_VALUES: bool = false;

        /// No runtime value: the search reads the technique set's constant.
        #[derive(Debug)]
        struct Setting;

        impl Setting {
            const fn new() -> Self {
                Setting
            }
            #[inline(always)]
            fn value_or(&self, configured: i32) -> i32 {
                configured
            }
            fn set(&self, _value: i32, name: &str) -> Result<(), String> {
                Err(format!("{name} is a tunable; build with the `tune` feature to set it"))
            }
            fn set_variant_value(&self, _value: Option<i32>) {}
        }
    }
}

/// Whether `wanted` names the tunable of constant `constant`: the constant's
/// name itself, or its UCI name in any case (UCI names are case-insensitive).
const fn names_tunable(wanted: &str, constant: &str) -> bool {
    if crate::techniques::same(wanted, constant) {
        return true;
    }
    let (name, length) = camel_case(constant);
    let wanted = wanted.as_bytes();
    if wanted.len() != length {
        return false;
    }
    let mut i = 0;
    while i < length {
        if wanted[i].to_ascii_lowercase() != name[i].to_ascii_lowercase() {
            return false;
        }
        i += 1;
    }
    true
}

/// The value `values` give the tunable of `constant`, if any.
const fn value_named(values: &[(&str, i32)], constant: &str) -> Option<i32> {
    let mut i = 0;
    while i < values.len() {
        if names_tunable(values[i].0, constant) {
            return Some(values[i].1);
        }
        i += 1;
    }
    None
}

#[derive(Debug)]
pub struct Tunable {
    /// The constant's name, `RAZOR_MARGIN_1`.
    pub constant: &'static str,
    name: [u8; MAX_NAME],
    name_length: usize,
    /// The declared default, or the value the build was given.
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's final perturbation size (`c_end`).
    pub step: i32,
    /// The value `$PRUNELAB_TUNABLES` gave this build, which replaces the
    /// technique set's own.
    built: Option<i32>,
    setting: Setting,
}

impl Tunable {
    /// A tunable named after its constant (`RAZOR_MARGIN_1`), with the
    /// value `$PRUNELAB_TUNABLES` gives it when it gives one.
    pub const fn new(constant: &'static str, default: i32, min: i32, max: i32, step: i32) -> Self {
        Self::built_with(BUILT_TUNABLES, constant, default, min, max, step)
    }

    /// A tunable with the value `built` (`(name, value)` pairs) gives it.
    const fn built_with(
        built: &[(&str, i32)],
        constant: &'static str,
        default: i32,
        min: i32,
        max: i32,
        step: i32,
    ) -> Self {
        assert!(min <= default && default <= max && step > 0, "tunable default outside its range");
        let built = value_named(built, constant);
        if let Some(value) = built {
            assert!(min <= value && value <= max, "a value in $PRUNELAB_TUNABLES is outside its tunable's min..=max");
        }
        let (name, name_length) = camel_case(constant);
        let default = match built {
            Some(value) => value,
            None => default,
        };
        Tunable { constant, name, name_length, default, min, max, step, built, setting: Setting::new() }
    }

    /// The UCI option name, `<Technique><Role>`.
    pub fn name(&self) -> &str {
        std::str::from_utf8(&self.name[..self.name_length]).expect("constant names are ASCII")
    }

    /// Whether `wanted` is its constant's name or its UCI name.
    pub fn is_named(&self, wanted: &str) -> bool {
        names_tunable(wanted, self.constant)
    }

    /// The value the search uses: `configured` (the technique set's
    /// constant) in a normal build unless the build was given one, the
    /// option's or the variant's current value where they can change.
    #[inline(always)]
    pub fn value_or(&self, configured: i32) -> i32 {
        let configured = match self.built {
            Some(value) => value,
            None => configured,
        };
        self.setting.value_or(configured)
    }

    /// The value of a tunable whose default does not depend on the phase.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.value_or(self.default)
    }

    /// Sets the option (tuning builds only), refusing values out of range.
    pub fn set(&self, value: i32) -> Result<(), String> {
        if value < self.min || value > self.max {
            return Err(format!("{} must be in {}..={}, got {value}", self.name(), self.min, self.max));
        }
        self.setting.set(value, self.name())
    }

    pub fn uci_option(&self) -> String {
        format!("option name {} type spin default {} min {} max {}", self.name(), self.default, self.min, self.max)
    }

    pub fn spsa_line(&self) -> String {
        format!("{}, int, {}, {}, {}, {}, {}", self.name(), self.default, self.min, self.max, self.step, SPSA_R_END)
    }
}

/// Declares a technique's tunables and the list of them:
/// `RAZOR_MARGIN_1: default, min, max, step;`. The list is `TUNABLES`, or
/// the name given first (`tunables! { list CHAIN_TUNABLES; ... }`) when a
/// technique has one per style.
#[macro_export]
macro_rules! tunables {
    (list $list:ident; $( $(#[$doc:meta])* $ident:ident: $default:expr, $min:expr, $max:expr, $step:expr; )*) => {
        $(
            $(#[$doc])*
            pub static $ident: $crate::tune::Tunable =
                $crate::tune::Tunable::new(stringify!($ident), $default, $min, $max, $step);
        )*
        /// These tunables, in declaration order.
        pub static $list: &[&$crate::tune::Tunable] = &[$(&$ident),*];
    };
    ($( $(#[$doc:meta])* $ident:ident: $default:expr, $min:expr, $max:expr, $step:expr; )*) => {
        $crate::tunables!(list TUNABLES; $( $(#[$doc])* $ident: $default, $min, $max, $step; )*);
    };
}

/// The tunables of every technique compiled into this binary (in the
/// variants build, of its default variant).
pub fn compiled_tunables() -> Vec<&'static Tunable> {
    // The variants build's search is its default variant's until `Variant`
    // says otherwise: a tuning commit makes the tuned variant its default.
    match crate::variants::selectable::default_variant() {
        Some(variant) => variant.techniques.tunables(),
        None => crate::techniques::COMPILED.tunables(),
    }
}

/// Finds a compiled tunable by its option name (case-insensitive, as UCI).
pub fn find(name: &str) -> Option<&'static Tunable> {
    compiled_tunables().into_iter().find(|tunable| tunable.name().eq_ignore_ascii_case(name))
}

/// Every tunable a feature set can read: the baseline's and each feature's,
/// once each.
pub fn declared() -> Vec<&'static Tunable> {
    use crate::techniques::Techniques;
    let mut all = Techniques::BASELINE.tunables();
    for feature in crate::features::CATALOGUE {
        for tunable in Techniques::of(&[feature.name]).tunables() {
            if !all.iter().any(|known| std::ptr::eq(*known, tunable)) {
                all.push(tunable);
            }
        }
    }
    all
}

/// The first catalogue feature whose technique reads the tunable `name`.
fn feature_reading(name: &str) -> Option<&'static str> {
    let reads = |feature: &str| crate::techniques::Techniques::of(&[feature]).tunables();
    crate::features::CATALOGUE
        .iter()
        .map(|feature| feature.name)
        .find(|feature| reads(feature).iter().any(|tunable| tunable.is_named(name)))
}

/// Checks `(name, value)` pairs against the tunables a technique set
/// reads (`reads`): each must name one of them, by its UCI or constant
/// name, within its range. Returns the pairs under their UCI names, in
/// the order given.
pub fn check_values(values: &[(String, i64)], reads: &[&'static Tunable]) -> Result<Vec<(&'static str, i32)>, String> {
    let mut checked = Vec::new();
    for (name, value) in values {
        let Some(tunable) = reads.iter().find(|tunable| tunable.is_named(name)) else {
            let names: Vec<&str> = reads.iter().map(|tunable| tunable.name()).collect();
            return Err(match feature_reading(name) {
                Some(feature) => format!(
                    "`{name}` is read only with a technique this feature set does not compile (such as `{feature}`); \
                     its tunables: {}",
                    names.join(", ")
                ),
                None => format!("no tunable `{name}`; this feature set's tunables: {}", names.join(", ")),
            });
        };
        let in_range = i32::try_from(*value).ok().filter(|value| (tunable.min..=tunable.max).contains(value));
        let Some(value) = in_range else {
            return Err(format!("{} = {value} is outside its range {}..={}", tunable.name(), tunable.min, tunable.max));
        };
        if checked.iter().any(|(known, _)| *known == tunable.name()) {
            return Err(format!("{} is given twice", tunable.name()));
        }
        checked.push((tunable.name(), value));
    }
    Ok(checked)
}

/// The values `$PRUNELAB_TUNABLES` gave this build, checked against the
/// tunables its techniques read, under their UCI names.
pub fn built_values() -> Result<Vec<(&'static str, i32)>, String> {
    let given: Vec<(String, i64)> =
        BUILT_TUNABLES.iter().map(|(name, value)| (name.to_string(), i64::from(*value))).collect();
    check_values(&given, &crate::techniques::COMPILED.tunables())
        .map_err(|error| format!("this binary was built with PRUNELAB_TUNABLES naming {error}"))
}

/// Gives the tunables the values of the variant the variants build now
/// searches as (its technique set's `TUNED`), and every other tunable its
/// technique set's own. Nothing to do in a build of one feature set, whose
/// values are its constants.
pub fn select_variant_values(values: &[(&str, i32)]) {
    if !RUNTIME_VALUES {
        return;
    }
    static DECLARED: std::sync::OnceLock<Vec<&'static Tunable>> = std::sync::OnceLock::new();
    for tunable in DECLARED.get_or_init(declared) {
        tunable.setting.set_variant_value(value_named(values, tunable.constant));
    }
}

/// Whether two lists of `(name, value)` give every tunable the same value
/// (or none): a variant's values and a build's.
pub fn same_values(a: &[(&str, i32)], b: &[(&str, i32)]) -> bool {
    declared().iter().all(|tunable| value_named(a, tunable.constant) == value_named(b, tunable.constant))
}

/// Whether this build can search a technique set whose `TUNED` values
/// are not its constants (the variants and tuning builds).
pub const fn has_runtime_values() -> bool {
    RUNTIME_VALUES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_constant() {
        assert_eq!(Tunable::new("RAZOR_MARGIN_1", 300, 100, 600, 20).name(), "RazorMargin1");
        assert_eq!(Tunable::new("REVERSE_FUTILITY_DEPTH_MARGIN", 90, 50, 200, 10).name(), "ReverseFutilityDepthMargin");
        assert_eq!(Tunable::new("MOVE_COUNT_LIMIT_10", 54, 25, 100, 5).name(), "MoveCountLimit10");
    }

    #[test]
    fn spsa_line_has_openbench_fields() {
        let tunable = Tunable::new("RAZOR_MARGIN_1", 300, 100, 600, 20);
        assert_eq!(tunable.spsa_line(), "RazorMargin1, int, 300, 100, 600, 20, 0.002");
        assert_eq!(tunable.uci_option(), "option name RazorMargin1 type spin default 300 min 100 max 600");
        assert!(tunable.set(601).is_err());
        assert_eq!(tunable.value_or(300), 300);
    }

    #[test]
    fn a_built_value_replaces_the_default_by_either_name() {
        // The static null-move margin, given `values`.
        let margin =
            |values: &[(&str, i32)]| Tunable::built_with(values, "REVERSE_FUTILITY_DEPTH_MARGIN", 90, 50, 200, 10);
        let by_uci_name = margin(&[("reversefutilitydepthmargin", 75)]);
        assert_eq!((by_uci_name.default, by_uci_name.get(), by_uci_name.value_or(120)), (75, 75, 75));
        assert_eq!(by_uci_name.spsa_line(), "ReverseFutilityDepthMargin, int, 75, 50, 200, 10, 0.002");
        assert_eq!(margin(&[("REVERSE_FUTILITY_DEPTH_MARGIN", 60)]).value_or(120), 60);
        let other = margin(&[("RazorMargin1", 60)]);
        assert_eq!((other.default, other.value_or(120)), (90, 120));
    }

    #[test]
    #[should_panic(expected = "a value in $PRUNELAB_TUNABLES is outside its tunable's min..=max")]
    fn a_built_value_out_of_range_is_refused() {
        Tunable::built_with(&[("ReverseFutilityDepthMargin", 201)], "REVERSE_FUTILITY_DEPTH_MARGIN", 90, 50, 200, 10);
    }

    #[test]
    fn values_are_checked_against_what_a_feature_set_reads() {
        use crate::techniques::Techniques;
        let values =
            |pairs: &[(&str, i64)]| pairs.iter().map(|(name, value)| (name.to_string(), *value)).collect::<Vec<_>>();
        let baseline = Techniques::BASELINE.tunables();
        assert_eq!(
            check_values(&values(&[("REVERSE_FUTILITY_DEPTH_MARGIN", 75), ("nullmovemindepth", 3)]), &baseline),
            Ok(vec![("ReverseFutilityDepthMargin", 75), ("NullMoveMinDepth", 3)])
        );
        let error = |pairs: &[(&str, i64)]| check_values(&values(pairs), &baseline).unwrap_err();
        assert_eq!(
            error(&[("ReverseFutilityDepthMargin", 201)]),
            "ReverseFutilityDepthMargin = 201 is outside its range 50..=200"
        );
        assert_eq!(
            error(&[("ReverseFutilityDepthMargin", 75), ("REVERSE_FUTILITY_DEPTH_MARGIN", 80)]),
            "ReverseFutilityDepthMargin is given twice"
        );
        let names: Vec<&str> = baseline.iter().map(|tunable| tunable.name()).collect();
        assert_eq!(
            error(&[("RazorMargin1", 300)]),
            format!(
                "`RazorMargin1` is read only with a technique this feature set does not compile (such as `razor-r1`); \
                 its tunables: {}",
                names.join(", ")
            )
        );
        assert_eq!(
            error(&[("NullMoveStaticMargin", 90)]),
            format!("no tunable `NullMoveStaticMargin`; this feature set's tunables: {}", names.join(", "))
        );
        assert!(same_values(&[("ReverseFutilityDepthMargin", 75)], &[("REVERSE_FUTILITY_DEPTH_MARGIN", 75)]));
        assert!(!same_values(&[("ReverseFutilityDepthMargin", 75)], &[]));
    }

    #[test]
    fn every_compiled_tunable_has_a_unique_name() {
        let names: Vec<&str> = crate::techniques::Techniques::BASELINE.tunables().iter().map(|t| t.name()).collect();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "{name} twice");
        }
    }

    /// The book's pages on another engine, whose option names are that
    /// engine's (SeaJay's `FutilityBase`, `NullMoveStaticMargin`).
    const OTHER_ENGINES_PAGES: [&str; 2] = ["docs/measured/seajay.md", "docs/own-engine.md"];

    /// The spans between backticks of every Markdown file of README.md and
    /// docs/, and of the technique files' docs, with their file.

    fn quoted_spans() -> Vec<(String, String)> {
        fn walk(dir: &std::path::Path, extension: &str, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, extension, out);
                } else if path.extension().is_some_and(|ext| ext == extension) {
                    out.push(path);
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = vec![root.join("README.md")];
        walk(&root.join("docs"), "md", &mut files);
        walk(&root.join("src/prune"), "rs", &mut files);
        for page in OTHER_ENGINES_PAGES {
            assert!(root.join(page).is_file(), "{page} moved: name its new place in OTHER_ENGINES_PAGES");
        }
        files.retain(|file| !OTHER_ENGINES_PAGES.iter().any(|page| file.ends_with(page)));
        let mut spans = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            // Code blocks' lines count whole, prose's spans between backticks.
            for line in text.lines() {
                let line = line.trim().trim_start_matches("//!").trim_start_matches("///").trim();
                spans.push((line.to_string(), file.display().to_string()));
                spans.extend(
                    line.split('`').skip(1).step_by(2).map(|span| (span.to_string(), file.display().to_string())),
                );
            }
        }
        spans
    }

    /// `line` with its default, the field after `default` or the third
    /// comma-separated one, replaced by `default`.
    fn with_default(line: &str, default: i32) -> String {
        if line.starts_with("option name ") {
            let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
            if let Some(at) = words.iter().position(|word| word == "default") {
                if at + 1 < words.len() {
                    words[at + 1] = default.to_string();
                }
            }
            words.join(" ")
        } else {
            let mut fields: Vec<String> = line.split(", ").map(str::to_string).collect();
            if fields.len() > 2 {
                fields[2] = default.to_string();
            }
            fields.join(", ")
        }
    }

    /// The book and the technique files name only options the engine
    /// declares: each SPSA line (`RazorMargin1, int, 300, ...`) and `spin`
    /// option line is a declared tunable's, its range and step and all
    /// (`uci` and `spsa` print them so), and each option name the book
    /// quotes is a declared tunable's. The default is not compared: some
    /// tunables' defaults are those of the features a binary is built with,
    /// and the book shows a variant's binary.
    #[test]
    fn the_book_names_only_declared_options() {
        let declared = declared();
        let roles = ["Margin", "Base", "Bonus", "Threshold", "Limit", "Depth", "Reduction", "Factor", "Divisor"];
        let mut checked = 0;
        for (span, file) in quoted_spans() {
            if span.contains(", int, ") && span.starts_with(|c: char| c.is_ascii_uppercase()) {
                let line = span.trim_end_matches('`');
                assert!(
                    declared.iter().any(|tunable| with_default(line, tunable.default) == tunable.spsa_line()),
                    "{file}: `{line}` is no tunable's SPSA line"
                );
                checked += 1;
            } else if span.starts_with("option name ") && span.contains(" type spin ") {
                assert!(
                    declared.iter().any(|tunable| with_default(&span, tunable.default) == tunable.uci_option()),
                    "{file}: `{span}` is no tunable's option"
                );
                checked += 1;
            } else if file.ends_with(".md")
                && span.chars().all(|c| c.is_ascii_alphanumeric())
                && span.starts_with(|c: char| c.is_ascii_uppercase())
                && roles.iter().any(|role| span.trim_end_matches(|c: char| c.is_ascii_digit()).ends_with(role))
                && span.chars().filter(char::is_ascii_uppercase).count() > 1
            {
                assert!(declared.iter().any(|tunable| tunable.name() == span), "{file}: `{span}` is no tunable");
                checked += 1;
            }
        }
        assert!(checked >= 10, "only {checked} option names found");
    }
}
