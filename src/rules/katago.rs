//! KataGo's rule strings, as KataGo writes them in `RU[]`: the compact form
//! (`koPOSITIONALscoreAREAtaxNONEsui1`), the JSON form
//! (`{"ko":"SIMPLE","scoring":"TERRITORY",...}`), and (in the aliases of
//! [`super`]) the bare names KataGo accepts. The grammar is KataGo's
//! (`Rules::parseRules` in cpp/game/rules.cpp); the code is kifu's.
//!
//! Compact form: keys with their values run together, in any order, each
//! at most once in practice (a later one wins, as in KataGo):
//! `ko` SIMPLE|POSITIONAL|SITUATIONAL, `score`/`scoring` AREA|TERRITORY,
//! `tax` NONE|SEKI|ALL, `sui` 0|1, `button` 0|1, `whb` 0|N|N-1, `fpok`
//! 0|1, `komi` a number. Settings not given are KataGo's defaults: simple
//! Tromp-Taylor (positional superko, area, multi-stone suicide legal), and
//! the seki tax of the scoring (territory: seki, area: none).

use super::{HandicapBonus, KoRule, Rules, Scoring, Suicide, Tax};

/// Reads `text` as a KataGo rule string: `None` when it is not one (a
/// name such as `Japanese`, or `Korean`, which starts with `ko` but not
/// with a KataGo value), `Some(Err)` naming what is wrong when it is one
/// that kifu cannot read (an unknown key or value).
pub fn parse(text: &str) -> Option<Result<Rules, String>> {
    let text = text.trim();
    if text.starts_with('{') {
        return Some(parse_json(text));
    }
    looks_compact(text).then(|| parse_compact(text))
}

/// Writes the settings KataGo's compact form has, as KataGo writes them
/// (`button`, `whb` and `fpok` only when not the default). A single-stone
/// suicide has no KataGo spelling: `Suicide::Allowed` is written `sui1`.
pub fn format(rules: &Rules) -> String {
    let ko = match rules.ko {
        KoRule::Simple => "SIMPLE",
        KoRule::Positional => "POSITIONAL",
        KoRule::Situational => "SITUATIONAL",
    };
    let score = match rules.scoring {
        Scoring::Area => "AREA",
        Scoring::Territory => "TERRITORY",
    };
    let tax = match rules.tax {
        Tax::None => "NONE",
        Tax::Seki => "SEKI",
        Tax::All => "ALL",
    };
    let sui = u8::from(rules.suicide != Suicide::Forbidden);
    let mut out = format!("ko{ko}score{score}tax{tax}sui{sui}");
    if rules.button {
        out.push_str("button1");
    }
    match rules.handicap_bonus {
        HandicapBonus::None => {}
        HandicapBonus::PerStone => out.push_str("whbN"),
        HandicapBonus::PerStoneLessOne => out.push_str("whbN-1"),
    }
    if rules.friendly_pass_ok {
        out.push_str("fpok1");
    }
    out
}

/// The compact keys, longest first where one starts another.
const KEYS: &[&str] = &["komi", "ko", "scoring", "score", "tax", "sui", "button", "whb", "fpok"];

/// A key followed by what only a KataGo value starts with: an upper-case
/// letter, a digit, or a sign (`komi-5`).
fn looks_compact(text: &str) -> bool {
    KEYS.iter().any(|key| text.strip_prefix(key).and_then(|rest| rest.chars().next()).is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-'))
}

/// The settings a KataGo rule string starts from.
fn defaults() -> Rules {
    Rules {
        name: "katago",
        ko: KoRule::Positional,
        suicide: Suicide::MultiStoneOnly,
        scoring: Scoring::Area,
        handicap_bonus: HandicapBonus::None,
        ..Rules::preset("chinese").expect("the chinese preset")
    }
}

/// Settings as read, before the defaults that depend on others.
struct Read {
    rules: Rules,
    tax_given: bool,
}

impl Read {
    fn new() -> Read {
        Read { rules: defaults(), tax_given: false }
    }

    /// Sets `key` to `value` (upper-case for names); `Err` names what is wrong.
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let r = &mut self.rules;
        let bad = || format!("{value:?} is not a value of KataGo's rule {key:?}");
        match key {
            "ko" => {
                r.ko = match value {
                    "SIMPLE" => KoRule::Simple,
                    "POSITIONAL" => KoRule::Positional,
                    "SITUATIONAL" => KoRule::Situational,
                    "SPIGHT" => return Err("KataGo's ko rule SPIGHT is not one kifu replays".to_string()),
                    _ => return Err(bad()),
                }
            }
            "score" | "scoring" => {
                r.scoring = match value {
                    "AREA" => Scoring::Area,
                    "TERRITORY" => Scoring::Territory,
                    _ => return Err(bad()),
                }
            }
            "tax" => {
                r.tax = match value {
                    "NONE" => Tax::None,
                    "SEKI" => Tax::Seki,
                    "ALL" => Tax::All,
                    _ => return Err(bad()),
                };
                self.tax_given = true;
            }
            // KataGo never allows a single-stone suicide.
            "sui" | "suicide" => r.suicide = if flag(value).ok_or_else(bad)? { Suicide::MultiStoneOnly } else { Suicide::Forbidden },
            "button" | "hasButton" => r.button = flag(value).ok_or_else(bad)?,
            "fpok" | "friendlyPassOk" => r.friendly_pass_ok = flag(value).ok_or_else(bad)?,
            "whb" | "whiteHandicapBonus" => {
                r.handicap_bonus = match value {
                    "0" => HandicapBonus::None,
                    "N" => HandicapBonus::PerStone,
                    "N-1" => HandicapBonus::PerStoneLessOne,
                    _ => return Err(bad()),
                }
            }
            // The komi is the record's KM[], as KataGo's own SGF reader
            // takes it: a komi in RU[] must be a number, and is not used.
            "komi" => {
                value.parse::<f64>().ok().filter(|k| k.is_finite()).ok_or_else(bad)?;
            }
            _ => return Err(format!("unknown KataGo rule {key:?}")),
        }
        Ok(())
    }

    /// The rules, with the defaults that depend on the scoring: the seki
    /// tax of territory scoring; and the territory count's other settings
    /// (a repetition may void the game, play may resume) from Japanese.
    fn finish(self) -> Rules {
        let mut rules = self.rules;
        if !self.tax_given {
            rules.tax = if rules.scoring == Scoring::Territory { Tax::Seki } else { Tax::None };
        }
        if rules.scoring == Scoring::Territory {
            rules.repetition_voids = Rules::JAPANESE.repetition_voids;
            rules.resumption_allowed = Rules::JAPANESE.resumption_allowed;
        }
        rules
    }
}

/// `0`/`1` (compact form), `false`/`true` (JSON), as KataGo reads them.
fn flag(value: &str) -> Option<bool> {
    match value {
        "1" | "TRUE" => Some(true),
        "0" | "FALSE" => Some(false),
        _ => None,
    }
}

fn parse_compact(text: &str) -> Result<Rules, String> {
    let mut read = Read::new();
    let mut rest = text;
    while !rest.is_empty() {
        let key = KEYS.iter().find(|k| rest.starts_with(*k)).ok_or_else(|| format!("unknown KataGo rule at {:?}", head(rest)))?;
        rest = rest[key.len()..].trim_start();
        let value = compact_value(key, rest).ok_or_else(|| format!("no value of KataGo's rule {key:?} at {:?}", head(rest)))?;
        read.set(key, value)?;
        rest = rest[value.len()..].trim_start();
    }
    Ok(read.finish())
}

/// The value at the start of `rest` for `key`: the longest of the key's
/// values that starts it (`N-1` before `N`), or the number after `komi`.
fn compact_value<'a>(key: &str, rest: &'a str) -> Option<&'a str> {
    let values: &[&str] = match key {
        "ko" => &["SIMPLE", "POSITIONAL", "SITUATIONAL", "SPIGHT"],
        "score" | "scoring" => &["AREA", "TERRITORY"],
        "tax" => &["NONE", "SEKI", "ALL"],
        "whb" => &["N-1", "N", "0"],
        "komi" => {
            let end = rest.find(|c: char| c.is_ascii_alphabetic() || c.is_whitespace()).unwrap_or(rest.len());
            return (end > 0).then(|| &rest[..end]);
        }
        _ => &["0", "1"],
    };
    values.iter().find(|v| rest.starts_with(*v)).map(|v| &rest[..v.len()])
}

/// The start of `text`, for messages.
fn head(text: &str) -> String {
    text.chars().take(16).collect()
}

fn parse_json(text: &str) -> Result<Rules, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not KataGo's JSON rules: {e}"))?;
    let object = value.as_object().ok_or("KataGo's JSON rules must be an object")?;
    let mut read = Read::new();
    for (key, value) in object {
        let text = match value {
            serde_json::Value::String(s) => s.trim().to_ascii_uppercase(),
            serde_json::Value::Bool(b) => b.to_string().to_ascii_uppercase(),
            serde_json::Value::Number(n) => n.to_string(),
            other => return Err(format!("{other} is not a value of KataGo's rule {key:?}")),
        };
        read.set(key, &text)?;
    }
    Ok(read.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn read(text: &str) -> Rules {
        parse(text).unwrap_or_else(|| panic!("{text} is not KataGo's")).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn compact_form() {
        let r = read("koPOSITIONALscoreAREAtaxNONEsui1");
        assert_eq!((r.ko, r.scoring, r.tax, r.suicide), (KoRule::Positional, Scoring::Area, Tax::None, Suicide::MultiStoneOnly));
        // The one KataGo string in the corpus.
        let r = read("koSIMPLEscoreAREAtaxSEKIsui0whbNfpok1");
        assert_eq!(
            (r.ko, r.tax, r.suicide, r.handicap_bonus, r.friendly_pass_ok),
            (KoRule::Simple, Tax::Seki, Suicide::Forbidden, HandicapBonus::PerStone, true)
        );
        let r = read("koSITUATIONALscoreTERRITORYsui0button1whbN-1komi6.5");
        assert_eq!((r.scoring, r.tax, r.button, r.handicap_bonus), (Scoring::Territory, Tax::Seki, true, HandicapBonus::PerStoneLessOne));
        assert!(r.repetition_voids && r.komi.is_none());
        assert_eq!(read("scoringTERRITORYtaxALL").tax, Tax::All);
        assert_eq!(read("komi-3koSIMPLE").ko, KoRule::Simple);
    }

    #[test]
    fn json_form() {
        let r = read(r#"{"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"hasButton":false,"whiteHandicapBonus":"0","friendlyPassOk":false,"komi":6.5}"#);
        assert_eq!((r.ko, r.scoring, r.tax, r.suicide), (KoRule::Simple, Scoring::Territory, Tax::Seki, Suicide::Forbidden));
        let r = read(r#"{"ko":"positional","tax":"ALL","suicide":true}"#);
        assert_eq!((r.ko, r.scoring, r.tax, r.suicide), (KoRule::Positional, Scoring::Area, Tax::All, Suicide::MultiStoneOnly));
    }

    #[test]
    fn not_katago() {
        for text in ["Japanese", "Korean", "korean", "Chinese", "AGA", "TT--", "Scoring: area", "", "kosher"] {
            assert!(parse(text).is_none(), "{text}");
        }
    }

    #[test]
    fn unknown_keys_and_values_are_named() {
        let error = |text: &str| parse(text).expect("KataGo's").expect_err("an error");
        assert_eq!(error("koSIMPLEscoreAREAfooBAR"), r#"unknown KataGo rule at "fooBAR""#);
        assert_eq!(error("koSUPER"), r#"no value of KataGo's rule "ko" at "SUPER""#);
        assert_eq!(error("koSPIGHTscoreAREA"), "KataGo's ko rule SPIGHT is not one kifu replays");
        assert_eq!(error("sui2"), r#"no value of KataGo's rule "sui" at "2""#);
        assert_eq!(error(r#"{"ko":"SIMPLE","colour":"blue"}"#), r#"unknown KataGo rule "colour""#);
        assert_eq!(error(r#"{"tax":"HALF"}"#), r#""HALF" is not a value of KataGo's rule "tax""#);
        assert!(error("{ko").starts_with("not KataGo's JSON rules"));
    }

    fn any_rules() -> impl Strategy<Value = Rules> {
        let ko = prop_oneof![Just(KoRule::Simple), Just(KoRule::Positional), Just(KoRule::Situational)];
        let scoring = prop_oneof![Just(Scoring::Area), Just(Scoring::Territory)];
        let tax = prop_oneof![Just(Tax::None), Just(Tax::Seki), Just(Tax::All)];
        let suicide = prop_oneof![Just(Suicide::Forbidden), Just(Suicide::MultiStoneOnly)];
        let bonus = prop_oneof![Just(HandicapBonus::None), Just(HandicapBonus::PerStone), Just(HandicapBonus::PerStoneLessOne)];
        (ko, scoring, tax, suicide, bonus, any::<bool>(), any::<bool>()).prop_map(|(ko, scoring, tax, suicide, handicap_bonus, button, friendly_pass_ok)| {
            Rules { ko, scoring, tax, suicide, handicap_bonus, button, friendly_pass_ok, ..defaults() }
        })
    }

    proptest! {
        /// Every setting KataGo's compact form can say survives a round trip.
        #[test]
        fn format_then_parse_keeps_the_settings(rules in any_rules()) {
            let text = format(&rules);
            let back = read(&text);
            prop_assert_eq!(
                (back.ko, back.scoring, back.tax, back.suicide, back.handicap_bonus, back.button, back.friendly_pass_ok),
                (rules.ko, rules.scoring, rules.tax, rules.suicide, rules.handicap_bonus, rules.button, rules.friendly_pass_ok),
                "{}", text
            );
            prop_assert_eq!(format(&back), text);
        }
    }
}
