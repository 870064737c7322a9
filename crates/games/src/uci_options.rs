//! UCI options a participant carries: `uci:PATH@Name=value,Name=value`, or
//! a variant of another engine (`variants/<engine>/`). Every setting is
//! checked against the `option` lines the engine prints after `uci` before
//! anything runs: an option it does not offer, a spin out of its range, a
//! check that is not `true`/`false` or a combo value not among its `var`s
//! is an error naming it and listing what the engine offers.
//!
//! Names and values are percent-decoded (`%20` a space, `%2C` a comma,
//! `%3D` an equals sign, `%40` an at sign, `%25` a percent sign), so a name
//! with spaces (`Move%20Overhead=30`) passes a shell unquoted.

use std::fmt;

use anyhow::{anyhow, bail, Result};
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, CONTROLS};

/// Options the lab sets itself, from its own flags: a participant setting
/// them would be measured under another setting than the run's.
const THE_LABS_OWN: [(&str, &str); 2] =
    [("Hash", "the run's --hash sets it"), ("SearchStats", "the lab sets it when it reads telemetry")];

/// What is escaped when a setting is written back into a spec.
const ESCAPED: &AsciiSet = &CONTROLS.add(b' ').add(b',').add(b'=').add(b'@').add(b'%');

/// One option to set: `setoption name <name> value <value>`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Setting {
    pub name: String,
    pub value: String,
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", utf8_percent_encode(&self.name, ESCAPED), utf8_percent_encode(&self.value, ESCAPED))
    }
}

fn decode(text: &str, what: &str) -> Result<String> {
    percent_decode_str(text)
        .decode_utf8()
        .map(|decoded| decoded.into_owned())
        .map_err(|_| anyhow!("{what} `{text}`: its %-escapes do not decode to UTF-8"))
}

/// Reads `Name=value,Name=value`; a name given twice is an error.
pub fn parse_settings(text: &str) -> Result<Vec<Setting>> {
    let mut settings: Vec<Setting> = Vec::new();
    for item in text.split(',') {
        let Some((name, value)) = item.split_once('=') else {
            bail!("option `{item}`: write Name=value (several joined by commas; %20 for a space, %2C for a comma)")
        };
        let name = decode(name.trim(), "option name")?;
        if name.is_empty() {
            bail!("option `{item}`: the name is empty");
        }
        if settings.iter().any(|setting| setting.name.eq_ignore_ascii_case(&name)) {
            bail!("option `{name}` is set twice");
        }
        settings.push(Setting { name, value: decode(value, "option value")? });
    }
    Ok(settings)
}

/// What kind of option an engine offers, with what it accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check,
    Spin {
        min: i64,
        max: i64,
    },
    Combo(Vec<String>),
    String,
    Button,
    /// A type UCI does not define: any value is passed on.
    Other(String),
}

/// One `option name <name> type <type> ...` line of the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: String,
    pub kind: OptionKind,
    /// The `default` field as written, if the line has one.
    pub default: Option<String>,
}

/// The keywords of an `option` line after its type: each takes the words
/// up to the next keyword (a combo's `var` may hold spaces).
const KEYWORDS: [&str; 4] = ["default", "min", "max", "var"];

impl OptionSpec {
    /// Reads an `option` line; `None` for any other line.
    pub fn parse(line: &str) -> Option<OptionSpec> {
        let rest = line.trim().strip_prefix("option name ")?;
        let (name, after) = match rest.find(" type ") {
            Some(at) => (&rest[..at], &rest[at + " type ".len()..]),
            None => (rest, ""),
        };
        let mut words = after.split_whitespace();
        let kind_word = words.next().unwrap_or("").to_ascii_lowercase();
        let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
        for word in words {
            match KEYWORDS.iter().find(|keyword| **keyword == word) {
                Some(keyword) => fields.push((keyword, Vec::new())),
                None => {
                    if let Some((_, values)) = fields.last_mut() {
                        values.push(word);
                    }
                }
            }
        }
        let field = |key: &str| fields.iter().find(|(name, _)| *name == key).map(|(_, words)| words.join(" "));
        let kind = match kind_word.as_str() {
            "check" => OptionKind::Check,
            "spin" => OptionKind::Spin {
                min: field("min").and_then(|text| text.parse().ok()).unwrap_or(i64::MIN),
                max: field("max").and_then(|text| text.parse().ok()).unwrap_or(i64::MAX),
            },
            "combo" => OptionKind::Combo(
                fields.iter().filter(|(key, _)| *key == "var").map(|(_, words)| words.join(" ")).collect(),
            ),
            "string" => OptionKind::String,
            "button" => OptionKind::Button,
            other => OptionKind::Other(other.to_string()),
        };
        Some(OptionSpec { name: name.trim().to_string(), kind, default: field("default") })
    }

    /// The option as the error lists show it: `RazorMargin1 (spin 100..800)`.
    fn describe(&self) -> String {
        let what = match &self.kind {
            OptionKind::Check => "check true/false".to_string(),
            OptionKind::Spin { min, max } => format!("spin {min}..{max}"),
            OptionKind::Combo(vars) => format!("combo {}", vars.join("/")),
            OptionKind::String => "string".to_string(),
            OptionKind::Button => "button".to_string(),
            OptionKind::Other(kind) => kind.clone(),
        };
        format!("{} ({what})", self.name)
    }

    /// The value to send, as the engine spells it, or why `value` is not one
    /// this option takes.
    fn accept(&self, value: &str) -> Result<String, String> {
        match &self.kind {
            OptionKind::Check => match value {
                "true" | "false" => Ok(value.to_string()),
                _ => Err("not true or false".to_string()),
            },
            OptionKind::Spin { min, max } => match value.trim().parse::<i64>() {
                Ok(number) if (*min..=*max).contains(&number) => Ok(number.to_string()),
                Ok(_) => Err(format!("out of its range {min}..{max}")),
                Err(_) => Err(format!("not a whole number from {min} to {max}")),
            },
            OptionKind::Combo(vars) => vars
                .iter()
                .find(|var| var.eq_ignore_ascii_case(value))
                .cloned()
                .ok_or_else(|| format!("not among its values {}", vars.join(", "))),
            OptionKind::Button => Err("for a button, which takes no value (the lab sets values only)".to_string()),
            OptionKind::String | OptionKind::Other(_) => Ok(value.to_string()),
        }
    }
}

/// Checks `settings` against what `engine` (named so in errors) offers and
/// returns them as the engine spells them.
pub fn check(engine: &str, offered: &[OptionSpec], settings: &[Setting]) -> Result<Vec<Setting>> {
    let offers = || offered.iter().map(OptionSpec::describe).collect::<Vec<_>>().join(", ");
    settings
        .iter()
        .map(|setting| {
            if let Some((name, why)) = THE_LABS_OWN.iter().find(|(name, _)| name.eq_ignore_ascii_case(&setting.name)) {
                bail!("{engine}: option `{name}` is the lab's own ({why}); leave it out of the participant");
            }
            let Some(spec) = offered.iter().find(|spec| spec.name.eq_ignore_ascii_case(&setting.name)) else {
                bail!("{engine}: the engine has no option `{}`; it offers: {}", setting.name, offers());
            };
            let value = spec
                .accept(&setting.value)
                .map_err(|why| anyhow!("{engine}: option {}: `{}` is {why}", spec.describe(), setting.value))?;
            Ok(Setting { name: spec.name.clone(), value })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(line: &str) -> OptionSpec {
        OptionSpec::parse(line).unwrap()
    }

    #[test]
    fn option_lines_parse_with_their_ranges_and_values() {
        assert_eq!(
            spec("option name RazorMargin1 type spin default 274 min 100 max 800").kind,
            OptionKind::Spin { min: 100, max: 800 }
        );
        assert_eq!(
            spec("option name SEEPruning type combo default conservative var off var conservative var very aggressive"),
            OptionSpec {
                name: "SEEPruning".into(),
                kind: OptionKind::Combo(vec!["off".into(), "conservative".into(), "very aggressive".into()]),
                default: Some("conservative".into())
            }
        );
        assert_eq!(spec("option name Move Overhead type spin default 10 min 0 max 5000").name, "Move Overhead");
        assert_eq!(spec("option name DebugTrackedMoves type string default").kind, OptionKind::String);
        assert_eq!(OptionSpec::parse("id name x"), None);
    }

    #[test]
    fn settings_parse_percent_decoded_and_write_back() {
        let settings = parse_settings("UseRazoring=false,Move%20Overhead=30,Path=a%2Cb%3Dc").unwrap();
        assert_eq!(
            settings,
            [
                Setting { name: "UseRazoring".into(), value: "false".into() },
                Setting { name: "Move Overhead".into(), value: "30".into() },
                Setting { name: "Path".into(), value: "a,b=c".into() },
            ]
        );
        let written: Vec<String> = settings.iter().map(Setting::to_string).collect();
        assert_eq!(written.join(","), "UseRazoring=false,Move%20Overhead=30,Path=a%2Cb%3Dc");
        assert!(parse_settings("UseRazoring").unwrap_err().to_string().contains("write Name=value"));
        assert!(parse_settings("A=1,a=2").unwrap_err().to_string().contains("set twice"));
    }

    #[test]
    fn each_bad_setting_is_named_with_what_the_engine_offers() {
        let offered = [
            spec("option name UseRazoring type check default true"),
            spec("option name RazorMargin1 type spin default 274 min 100 max 800"),
            spec("option name SEEPruning type combo default off var off var conservative"),
        ];
        let error = |name: &str, value: &str| {
            check("uci:sj", &offered, &[Setting { name: name.into(), value: value.into() }]).unwrap_err().to_string()
        };
        assert_eq!(
            error("UseRazorin", "true"),
            "uci:sj: the engine has no option `UseRazorin`; it offers: UseRazoring (check true/false), \
             RazorMargin1 (spin 100..800), SEEPruning (combo off/conservative)"
        );
        assert_eq!(
            error("RazorMargin1", "90"),
            "uci:sj: option RazorMargin1 (spin 100..800): `90` is out of its range 100..800"
        );
        assert!(error("RazorMargin1", "x").contains("`x` is not a whole number from 100 to 800"));
        assert!(error("UseRazoring", "yes").contains("`yes` is not true or false"));
        assert!(error("SEEPruning", "wild").contains("not among its values off, conservative"));
        assert!(error("hash", "64").contains("`Hash` is the lab's own"));
        // Names are case-insensitive; the engine's spelling is sent.
        let accepted =
            check("uci:sj", &offered, &[Setting { name: "seepruning".into(), value: "Conservative".into() }]).unwrap();
        assert_eq!(accepted, [Setting { name: "SEEPruning".into(), value: "conservative".into() }]);
    }
}
