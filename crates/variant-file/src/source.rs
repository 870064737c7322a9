//! What build.rs and the library share about variant files: the value tree
//! a file is read into, and the digest of the `variants/` folder.
//!
//! build.rs is the one reader of `variants/*.toml` (with the `toml` crate,
//! this crate's feature `toml`): it turns each file into a [`Value`] and writes the
//! values into the library as code. The library (`variants::load`) turns
//! them into variant files, refusing what is malformed, and resolves them.
//! This file uses only `std`, so the engine builds it without a TOML parser.

/// A TOML value as a variant file holds it; tables keep their keys sorted.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    String(String),
    Integer(i64),
    Float(f64),
    Boolean(bool),
    /// A date or time, as written (no variant key takes one).
    Datetime(String),
    Array(Vec<Value>),
    Table(Vec<(String, Value)>),
}

/// One file of `variants/`, as build.rs read it.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    /// Relative to the repository root: `variants/razor-r1.toml`.
    pub path: String,
    /// The file's value tree, or why it is not valid TOML.
    pub table: Result<Value, String>,
}

impl Value {
    /// What kind of value this is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::String(_) => "a string",
            Value::Integer(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Boolean(_) => "a boolean",
            Value::Datetime(_) => "a date",
            Value::Array(_) => "an array",
            Value::Table(_) => "a table",
        }
    }

    /// Rust code that builds this value (build.rs writes it into the library).
    pub fn to_code(&self) -> String {
        match self {
            Value::String(text) => format!("Value::String({text:?}.into())"),
            Value::Integer(number) => format!("Value::Integer({number})"),
            Value::Float(number) if number.is_nan() => "Value::Float(f64::NAN)".to_string(),
            Value::Float(number) if number.is_infinite() => {
                format!("Value::Float({}f64::INFINITY)", if *number < 0.0 { "-" } else { "" })
            }
            Value::Float(number) => format!("Value::Float({number:?})"),
            Value::Boolean(flag) => format!("Value::Boolean({flag})"),
            Value::Datetime(text) => format!("Value::Datetime({text:?}.into())"),
            Value::Array(items) => {
                let items: Vec<String> = items.iter().map(Value::to_code).collect();
                format!("Value::Array(vec![{}])", items.join(", "))
            }
            Value::Table(entries) => {
                let entries: Vec<String> =
                    entries.iter().map(|(key, value)| format!("({key:?}.into(), {})", value.to_code())).collect();
                format!("Value::Table(vec![{}])", entries.join(", "))
            }
        }
    }
}

/// FNV-1a over the `*.toml` files of a folder (names and contents, in name
/// order): the library compares the folder with what it was built from.
pub fn folder_digest(dir: &std::path::Path) -> std::io::Result<u64> {
    let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    paths.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for path in &paths {
        feed(path.file_name().unwrap_or_default().to_string_lossy().as_bytes());
        feed(&[0]);
        feed(&std::fs::read(path)?);
        feed(&[0]);
    }
    Ok(hash)
}
