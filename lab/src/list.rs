//! `lab list`: what the variants are.

use anyhow::Result;

use crate::lab::table::Table;
use crate::lab::Lab;
use crate::variants::grammar::Planned;

pub fn command(lab: &Lab) -> Result<()> {
    if lab.global.json {
        let rows: Vec<_> = lab
            .variants
            .iter()
            .map(|variant| {
                serde_json::json!({
                    "name": variant.name(),
                    "description": variant.file.description,
                    "extends": variant.file.extends,
                    "own_features": variant.file.features,
                    "features": variant.features,
                    "source": variant.file.source,
                    "claims": variant.plan().claims.iter().map(|claim| serde_json::json!({"key": claim.key(), "claim": claim.text()})).collect::<Vec<_>>(),
                    "sprt": variant.plan().sprt.as_ref().map(|sprt| serde_json::json!({"bounds": [sprt.bounds.0, sprt.bounds.1], "tc": sprt.tc, "hash": sprt.hash_mb})),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    let mut table =
        Table::new().left("variant").left("extends").left("adds").left("source").left("claimed effect").left("SPRT");
    for variant in &lab.variants {
        let adds = variant.adds();
        let adds = if adds.is_empty() { "-".to_string() } else { adds.join(" ") };
        let claims: Vec<String> = variant.plan().claims.iter().map(|claim| claim.text()).collect();
        table.push([
            variant.name().to_string(),
            variant.file.extends.as_deref().unwrap_or("-").to_string(),
            adds,
            if variant.file.source.is_empty() { "-" } else { &variant.file.source }.to_string(),
            if claims.is_empty() { "-".to_string() } else { claims.join("; ") },
            variant.plan().sprt.as_ref().map_or("-".to_string(), |sprt| {
                let hash = sprt.hash_mb.map_or(String::new(), |mb| format!(", Hash {mb}"));
                format!("[{}, {}] at {}{hash}", sprt.bounds.0, sprt.bounds.1, sprt.tc)
            }),
        ]);
    }
    print!("{table}");
    lab.say(&format!("{} variants; `lab list --json` gives every feature each one compiles in", lab.variants.len()));
    Ok(())
}
