//! Tunables: each margin, depth limit and bonus is declared once, in its
//! technique's file, as `<TECHNIQUE>_<ROLE>: default, min, max, step;`.
//! That one declaration gives the constant the search reads, the UCI option
//! (`RAZOR_MARGIN_1` is `RazorMargin1`) and the OpenBench SPSA line
//! (`name, int, value, min, max, c_end, r_end`).
//!
//! In a normal build a tunable reads as the technique set's constant and
//! folds away. With the `tune` feature it is a runtime value: a UCI `spin`
//! option. The `cfg_if!` below is the only place the `tune` feature is read.

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

cfg_if::cfg_if! {
    if #[cfg(feature = "tune")] {
        use std::sync::atomic::{AtomicI32, Ordering};

        /// Whether this build exposes tunables as options.
        pub const TUNING: bool = true;

        /// The option's value once set; until then each technique set reads
        /// its own configured value, so a tuning build searches every variant
        /// (the matrix's, in one test binary) as its normal build does.
        #[derive(Debug)]
        struct Setting(AtomicI32);

        /// No `setoption` yet.
        const UNSET: i32 = i32::MIN;

        impl Setting {
            const fn new() -> Self {
                Setting(AtomicI32::new(UNSET))
            }
            fn value_or(&self, configured: i32) -> i32 {
                match self.0.load(Ordering::Relaxed) {
                    UNSET => configured,
                    value => value,
                }
            }
            fn set(&self, value: i32, _name: &str) -> Result<(), String> {
                self.0.store(value, Ordering::Relaxed);
                Ok(())
            }
        }
    } else {
        /// Whether this build exposes tunables as options.
        pub const TUNING: bool = false;

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
        }
    }
}

#[derive(Debug)]
pub struct Tunable {
    name: [u8; MAX_NAME],
    name_length: usize,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's final perturbation size (`c_end`).
    pub step: i32,
    setting: Setting,
}

impl Tunable {
    /// A tunable named after its constant (`RAZOR_MARGIN_1`).
    pub const fn new(constant: &str, default: i32, min: i32, max: i32, step: i32) -> Self {
        assert!(min <= default && default <= max && step > 0, "tunable default outside its range");
        let (name, name_length) = camel_case(constant);
        Tunable { name, name_length, default, min, max, step, setting: Setting::new() }
    }

    /// The UCI option name, `<Technique><Role>`.
    pub fn name(&self) -> &str {
        std::str::from_utf8(&self.name[..self.name_length]).expect("constant names are ASCII")
    }

    /// The value the search uses: `configured` (the technique set's constant)
    /// in a normal build, the option's current value in a tuning build.
    #[inline(always)]
    pub fn value_or(&self, configured: i32) -> i32 {
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
    fn every_compiled_tunable_has_a_unique_name() {
        let names: Vec<&str> = crate::techniques::Techniques::BASELINE.tunables().iter().map(|t| t.name()).collect();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "{name} twice");
        }
    }

    /// Every tunable a feature set reads: the baseline's and each feature's.
    fn declared() -> Vec<&'static Tunable> {
        use crate::techniques::Techniques;
        let mut all = Techniques::BASELINE.tunables();
        for feature in crate::features::CATALOGUE {
            all.extend(Techniques::from_features(&[feature.name]).unwrap().tunables());
        }
        all
    }

    /// The spans between backticks of every Markdown file of README.md and
    /// docs/, and of the technique files' docs, with their file.
    /// The book's chapter on another engine, whose option names are that
    /// engine's.
    const OTHER_ENGINES_CHAPTER: &str = "docs/seajay.md";

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
        // The chapter on SeaJay quotes SeaJay's own options.
        files.retain(|file| !file.ends_with(OTHER_ENGINES_CHAPTER));
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
