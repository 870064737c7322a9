//! The engine's build script (`build.rs` calls [`generate`]): reads
//! `variants/*.toml`, the one place they are read, and generates three
//! files in `$OUT_DIR`:
//!
//! - `variant_sources.rs`: every file's value tree (or why it is not TOML)
//!   and the folder's digest, included by `src/variants/mod.rs`, which
//!   validates and resolves them: `variants::load()`.
//! - `variant_sets.rs`: one technique-set type per variant, so the variant
//!   matrix runs every variant in one build (`VARIANT_SEARCHES`), and a
//!   test that needs a few names them (`variant_set!("full")`), compiling
//!   only their searches. It is included by the tests, not by the library,
//!   so the engine binary does not compile a search per variant.
//!   Implications are resolved by `Techniques::of` at compile time; a
//!   variant whose chain is broken gets no set (the library reports why
//!   when it loads the variants). It also lists every variant's whole
//!   search (`SELECTABLE`) for the variants build, which the library
//!   includes under the `variants` feature, and the variant that build
//!   searches as by default: `$PRUNELAB_VARIANT` (the Makefile's
//!   `VARIANT`), else `baseline`.
//! - `variant_names.rs`: every variant's name, generations, features and
//!   tunable values (its parents' included, as written), so a binary names
//!   itself (`features::variant_label`) without loading every variant file.
//! - `built_tunables.rs`: the tunable values `$PRUNELAB_TUNABLES` gives a
//!   build of one feature set (`ReverseFutilityDepthMargin=75,...`), which
//!   the lab, the Makefile and `ci/honesty.sh` set from a variant file's
//!   `[tunables]`: `tune::BUILT_TUNABLES`, the build's constants. In the
//!   variants build each variant's set carries its own instead
//!   (`technique_set!(.., tunables [..])`).
//!
//! It is a crate of its own, not the build script itself, because cargo
//! compiles a build script with its package's features: `ci/check-features.sh`
//! checks the engine with each feature, and recompiled only `build.rs`'s
//! call, not this generator, per feature.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use variant_file::{Source, Value};

/// The Makefile's `VARIANT`: the variants build's default variant.
const DEFAULT_VARIANT_VAR: &str = "PRUNELAB_VARIANT";

/// A build of one feature set's tunable values: `NAME=value,...`.
const TUNABLES_VAR: &str = "PRUNELAB_TUNABLES";

/// The features whose searches the library's tests compile, when not all
/// (`ci/check-technique.sh` names the new technique's): see
/// `feature_search_cfgs`.
const FEATURE_SEARCHES_VAR: &str = "PRUNELAB_FEATURE_SEARCHES";

/// Writes the generated files for the package being built (its folder is
/// the working directory) and tells cargo when to run again.
pub fn generate() {
    println!("cargo:rerun-if-changed=variants");
    println!("cargo:rerun-if-env-changed={DEFAULT_VARIANT_VAR}");
    let dir = Path::new("variants");
    let sources = read_sources(dir);
    let digest = variant_file::folder_digest(dir).unwrap_or(0);
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let out_dir = Path::new(&out_dir);
    std::fs::write(out_dir.join("variant_sources.rs"), sources_code(&sources, digest)).unwrap();
    let default_variant = std::env::var(DEFAULT_VARIANT_VAR).unwrap_or_default();
    let default_variant = if default_variant.trim().is_empty() { "baseline" } else { default_variant.trim() };
    std::fs::write(out_dir.join("variant_sets.rs"), variant_sets(&sources, default_variant)).unwrap();
    std::fs::write(out_dir.join("variant_names.rs"), variant_names(&sources)).unwrap();
    std::fs::write(out_dir.join("built_tunables.rs"), built_tunables()).unwrap();
    tuned_variants_cfg(&sources);
    feature_search_cfgs();
}

/// `prunelab_tuned_variants` when some variant sets tunable values: only
/// then does the variants build read tunables at run time (its search as
/// such a variant sets them), so until one exists its margins stay
/// constants folded into each search.
fn tuned_variants_cfg(sources: &[Source]) {
    println!("cargo:rustc-check-cfg=cfg(prunelab_tuned_variants)");
    let tables = sources.iter().filter_map(|source| source.table.as_ref().ok());
    if tables.into_iter().any(|table| own_tunables(table).map_or(true, |values| !values.is_empty())) {
        println!("cargo:rustc-cfg=prunelab_tuned_variants");
    }
}

/// `$PRUNELAB_TUNABLES` (`NAME=value,...`) as `BUILT_TUNABLES`. The library
/// checks each name and range (`tune::built_values`, a const assert).
fn built_tunables() -> String {
    println!("cargo:rerun-if-env-changed={TUNABLES_VAR}");
    let given = std::env::var(TUNABLES_VAR).unwrap_or_default();
    let pairs = parse_tunables(&given).unwrap_or_else(|error| panic!("{TUNABLES_VAR}: {error}"));
    if !pairs.is_empty() && std::env::var_os("CARGO_FEATURE_VARIANTS").is_some() {
        panic!(
            "{TUNABLES_VAR} is for a build of one feature set; the variants build takes each variant's values from \
             its file's [tunables]"
        );
    }
    format!(
        "// Generated by build.rs from ${TUNABLES_VAR}.\n\
         /// The tunable values this build was given (`${TUNABLES_VAR}`), by the names given.\n\
         pub const BUILT_TUNABLES: &[(&str, i32)] = &{};\n",
        tunables_code(&pairs)
    )
}

/// `NAME=value,NAME=value` (spaces allowed around each).
fn parse_tunables(text: &str) -> Result<Vec<(String, i32)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').ok_or_else(|| format!("`{pair}` is not NAME=value"))?;
            let value = value.trim().parse().map_err(|_| format!("`{pair}`: `{}` is not an integer", value.trim()))?;
            Ok((name.trim().to_string(), value))
        })
        .collect()
}

/// `[("NAME", value), ...]`.
fn tunables_code(pairs: &[(String, i32)]) -> String {
    let items: Vec<String> = pairs.iter().map(|(name, value)| format!("({name:?}, {value})")).collect();
    format!("[{}]", items.join(", "))
}

/// The library's tests compile one search per catalogue feature
/// (`prune::feature_searches`), most of their build time. With
/// `$PRUNELAB_FEATURE_SEARCHES` naming some features, they compile those
/// only: `prunelab_feature_searches_only` and one
/// `prunelab_feature_search = "<name>"` each.
fn feature_search_cfgs() {
    println!("cargo:rerun-if-env-changed={FEATURE_SEARCHES_VAR}");
    println!("cargo:rustc-check-cfg=cfg(prunelab_feature_searches_only)");
    println!("cargo:rustc-check-cfg=cfg(prunelab_feature_search, values(any()))");
    let named = std::env::var(FEATURE_SEARCHES_VAR).unwrap_or_default();
    let names: Vec<&str> = named.split([' ', ',']).filter(|name| !name.is_empty()).collect();
    if names.is_empty() {
        return;
    }
    println!("cargo:rustc-cfg=prunelab_feature_searches_only");
    for name in names {
        println!("cargo:rustc-cfg=prunelab_feature_search=\"{name}\"");
    }
}

fn read_sources(dir: &Path) -> Vec<Source> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|dir| dir.filter_map(|entry| entry.ok().map(|entry| entry.path())).collect())
        .unwrap_or_default();
    paths.retain(|path| path.extension().is_some_and(|ext| ext == "toml"));
    paths.sort();
    paths
        .iter()
        .map(|path| {
            println!("cargo:rerun-if-changed={}", path.display());
            let table = std::fs::read_to_string(path)
                .map_err(|error| error.to_string())
                .and_then(|text| variant_file::read(&text));
            Source { path: format!("variants/{}", path.file_name().unwrap().to_string_lossy()), table }
        })
        .collect()
}

fn sources_code(sources: &[Source], digest: u64) -> String {
    let mut code = String::from("// Generated by build.rs from variants/*.toml.\n");
    writeln!(code, "/// The digest of `variants/` when this build read it.\npub const SOURCES_DIGEST: u64 = {digest};")
        .unwrap();
    code.push_str(
        "/// Every file of `variants/`, as this build read it.\npub fn sources() -> Vec<Source> {\n    vec![\n",
    );
    for source in sources {
        let table = match &source.table {
            Ok(value) => format!("Ok({})", value.to_code()),
            Err(error) => format!("Err({error:?}.into())"),
        };
        writeln!(code, "        Source {{ path: {:?}.into(), table: {table} }},", source.path).unwrap();
    }
    code.push_str("    ]\n}\n");
    code
}

/// A string or list of strings under `key` of a value tree's table.
fn strings<'a>(table: &'a Value, key: &str) -> Vec<&'a str> {
    let Value::Table(entries) = table else { return Vec::new() };
    match entries.iter().find(|(name, _)| name == key).map(|(_, value)| value) {
        Some(Value::String(text)) => vec![text.as_str()],
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| if let Value::String(text) = item { Some(text.as_str()) } else { None })
            .collect(),
        _ => Vec::new(),
    }
}

/// Every variant's features, its parents' included, by name; `None` when
/// its parent chain is broken.
fn chain_features<'a>(tables: &[&'a Value], name: &str) -> Option<Vec<&'a str>> {
    let mut features = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let mut current = name.to_string();
    loop {
        if seen.contains(&current.as_str()) {
            return None;
        }
        let table = tables.iter().find(|table| strings(table, "name") == [current.as_str()])?;
        features.extend(strings(table, "features"));
        seen.push(strings(table, "name")[0]);
        match strings(table, "extends").first() {
            Some(parent) => current = parent.to_string(),
            None => return Some(features),
        }
    }
}

/// A variant file's own `[tunables]`, or why they cannot be compiled in
/// (a value that is no 32-bit integer; the library says so when it loads
/// the variants).
fn own_tunables(table: &Value) -> Option<Vec<(String, i32)>> {
    let Value::Table(entries) = table else { return Some(Vec::new()) };
    match entries.iter().find(|(key, _)| key == "tunables").map(|(_, value)| value) {
        None => Some(Vec::new()),
        Some(Value::Table(values)) => values
            .iter()
            .map(|(name, value)| match value {
                Value::Integer(number) => i32::try_from(*number).ok().map(|number| (name.clone(), number)),
                _ => None,
            })
            .collect(),
        Some(_) => None,
    }
}

/// Every variant's tunable values, its parents' included, the variant's own
/// first (the first a name matches wins); `None` when its chain is broken
/// or a value cannot be compiled in.
fn chain_tunables(tables: &[&Value], name: &str) -> Option<Vec<(String, i32)>> {
    let mut values = Vec::new();
    let mut current = name.to_string();
    for _ in 0..tables.len() {
        let table = tables.iter().find(|table| strings(table, "name") == [current.as_str()])?;
        values.extend(own_tunables(table)?);
        match strings(table, "extends").first() {
            Some(parent) => current = parent.to_string(),
            None => return Some(values),
        }
    }
    None
}

/// Every variant with an unbroken parent chain: its name, how many
/// generations the chain has (itself included), and its chain's features
/// and tunable values as written (implications unresolved).
fn variant_names(sources: &[Source]) -> String {
    let tables: Vec<&Value> = sources.iter().filter_map(|source| source.table.as_ref().ok()).collect();
    let mut rows = String::new();
    for table in &tables {
        let Some(name) = strings(table, "name").first().copied() else { continue };
        let Some(features) = chain_features(&tables, name) else { continue };
        let Some(tunables) = chain_tunables(&tables, name) else { continue };
        let generations = std::iter::successors(Some(name), |current| {
            let table = tables.iter().find(|table| strings(table, "name") == [*current])?;
            strings(table, "extends").first().copied()
        })
        .count();
        writeln!(rows, "    ({name:?}, {generations}, &{features:?}, &{}),", tunables_code(&tunables)).unwrap();
    }
    format!(
        "// Generated by build.rs from variants/*.toml.\n\
         /// Every variant's name, generations, features and tunable values (its parents' included).\n\
         pub const VARIANT_FEATURE_LISTS: &[(&str, usize, &[&str], &[(&str, i32)])] = &[\n{rows}];\n"
    )
}

fn variant_sets(sources: &[Source], default_variant: &str) -> String {
    let tables: Vec<&Value> = sources.iter().filter_map(|source| source.table.as_ref().ok()).collect();
    let mut names: Vec<&str> = tables.iter().filter_map(|table| strings(table, "name").first().copied()).collect();
    names.sort();
    names.dedup();
    let mut code = String::from("// Generated by build.rs from variants/*.toml.\n");
    let mut arms = String::new();
    let mut entries = String::new();
    let mut selectable = String::new();
    let mut with_sets = Vec::new();
    for (index, name) in names.iter().enumerate() {
        let Some(features) = chain_features(&tables, name) else { continue };
        let Some(tunables) = chain_tunables(&tables, name) else { continue };
        with_sets.push(*name);
        let list: Vec<String> = features.iter().map(|feature| format!("{feature:?}")).collect();
        let tunables = tunables_code(&tunables);
        writeln!(code, "prunelab::technique_set!(Variant{index}, [{}], tunables {tunables});", list.join(", "))
            .unwrap();
        writeln!(arms, "    ({name:?}) => {{ Variant{index} }};").unwrap();
        writeln!(entries, "    ({name:?}, prunelab::matrix::search_as::<Variant{index}>),").unwrap();
        writeln!(selectable, "    prunelab::variants::selectable::Selectable::of::<Variant{index}>({name:?}),")
            .unwrap();
    }
    if !with_sets.contains(&default_variant) {
        panic!(
            "{DEFAULT_VARIANT_VAR} (make VARIANT=): no variant `{default_variant}`; the variants are {}",
            with_sets.join(", ")
        );
    }
    // A test that needs a few variants names them with the macro, so only
    // their searches are compiled. The list is a const, not a static: a
    // static is compiled, with every variant's search, even where unused.
    writeln!(
        code,
        "/// One variant's technique-set type: `variant_set!(\"full\")`.\n\
         #[allow(unused_macros)]\n\
         macro_rules! variant_set {{\n{arms}    ($other:literal) => {{ compile_error!(concat!(\"no variant \", $other)) }};\n}}\n\
         /// Every variant's name and its search.\n\
         #[allow(dead_code)]\n\
         pub const VARIANT_SEARCHES: &[(&str, prunelab::matrix::SearchFn)] = &[\n{entries}];\n\
         /// Every variant's whole search, for the build that chooses one per search.\n\
         #[allow(dead_code)]\n\
         pub const SELECTABLE: &[prunelab::variants::selectable::Selectable] = &[\n{selectable}];\n\
         /// The variant that build searches as until its `Variant` option says otherwise.\n\
         #[allow(dead_code)]\n\
         pub const DEFAULT_VARIANT: &str = {default_variant:?};"
    )
    .unwrap();
    code
}
