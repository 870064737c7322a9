//! A variant file's text as the shared value tree (`Value`, from
//! `source.rs`), by the `toml` crate. build.rs reads every
//! variant file with it; `tests/fuzz.rs` uses it too, so the parsers it
//! fuzzes are the ones a build uses.

use crate::Value;

/// The value tree of a variant file, or why it is not valid TOML.
pub fn read(text: &str) -> Result<Value, String> {
    // The error's text names the line and column; its bare message can be empty.
    let table: toml::Table = text.parse().map_err(|error: toml::de::Error| error.to_string().trim_end().to_string())?;
    Ok(value_of(toml::Value::Table(table)))
}

/// A TOML value as the shared value tree.
fn value_of(value: toml::Value) -> Value {
    match value {
        toml::Value::String(text) => Value::String(text),
        toml::Value::Integer(number) => Value::Integer(number),
        toml::Value::Float(number) => Value::Float(number),
        toml::Value::Boolean(flag) => Value::Boolean(flag),
        toml::Value::Datetime(date) => Value::Datetime(date.to_string()),
        toml::Value::Array(items) => Value::Array(items.into_iter().map(value_of).collect()),
        toml::Value::Table(table) => {
            Value::Table(table.into_iter().map(|(key, value)| (key, value_of(value))).collect())
        }
    }
}
