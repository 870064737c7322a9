//! Cargo.toml's profiles: the settings CI's build times rest on.

/// Cargo compiles a build script's dependencies with the profile's
/// `build-override` settings (opt-level 0 and 256 codegen units unless
/// given), the code's own with the profile's. Where the two agree, a crate
/// both use (the variant files' TOML reader's winnow, indexmap, hashbrown)
/// is compiled once: so `ci` and `lab-tool` give their build scripts the
/// codegen units and the opt-level 0 their dependencies have, and a change
/// to one must be made to the other.
#[test]
fn build_scripts_share_the_dependencies_settings() {
    let manifest: toml::Table = include_str!("../Cargo.toml").parse().expect("Cargo.toml parses");
    let profiles = manifest["profile"].as_table().expect("Cargo.toml has profiles");
    for name in ["ci", "lab-tool"] {
        let profile = profiles[name].as_table().unwrap_or_else(|| panic!("no [profile.{name}]"));
        let build_override = profile
            .get("build-override")
            .and_then(toml::Value::as_table)
            .unwrap_or_else(|| panic!("no [profile.{name}.build-override]"));
        assert_eq!(
            build_override.get("codegen-units"),
            profile.get("codegen-units"),
            "[profile.{name}.build-override]'s codegen-units differ from [profile.{name}]'s"
        );
        assert_eq!(build_override.get("opt-level"), None, "[profile.{name}.build-override] keeps opt-level 0");
        let dependencies = &profile["package"]["*"];
        assert_eq!(dependencies.get("opt-level"), Some(&toml::Value::Integer(0)), "[profile.{name}.package.\"*\"]");
    }
}
