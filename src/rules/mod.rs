//! Rulesets as data: orthogonal settings (ko, suicide, scoring, seki tax,
//! handicap bonus, ties, komi...) and the named presets that bundle them,
//! with the `RU[]` spellings found in real archives. The board, the replay
//! and the count ask the settings, never a preset's name (KataGo's
//! `Rules` is the model). See ../shared/RULES.md for the sources.

use serde::Serialize;

pub mod katago;

/// Which earlier positions a move may not recreate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum KoRule {
    /// Only the immediate retake of a single-stone ko is illegal.
    Simple,
    /// No earlier whole-board arrangement of stones may recur.
    Positional,
    /// No earlier arrangement with the same player to move may recur.
    Situational,
}

/// Whether a move may leave its own chain without liberty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Suicide {
    Forbidden,
    /// Several stones may commit suicide, a single stone may not (New Zealand).
    MultiStoneOnly,
    Allowed,
}

/// How the final score is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    /// Territory plus prisoners (Japanese, Korean).
    Territory,
    /// Stones plus surrounded empty points (Chinese, AGA, NZ, Tromp-Taylor, Ing).
    Area,
}

/// Compensation White gets for Black's handicap stones under area scoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandicapBonus {
    None,
    /// One point per handicap stone (Chinese).
    PerStone,
    /// One point per handicap stone after the first (AGA).
    PerStoneLessOne,
}

/// Which points a territory count takes from the groups that own them
/// (KataGo's `taxRule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tax {
    /// Every eye counts, those of groups in seki too.
    None,
    /// The eyes of groups in seki count for nobody (Japanese Art. 8).
    Seki,
    /// As `Seki`, and every living group also gives up 2 points, for the
    /// two eyes it needs to live (KataGo's `taxALL`).
    All,
}

/// Which eyes of groups in seki the seki tax takes (with [`Tax::Seki`]
/// and [`Tax::All`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SekiEyeRule {
    /// Every empty region a chain in seki borders (Japanese Art. 8), the
    /// seki found once the dame are filled (Art. 9: a ten-thousand-year
    /// ko left open is one).
    AnyChainInSeki,
    /// Only regions whose every bordering chain is in seki (touches a seki
    /// dame): an eye a chain with its own life also borders counts; the
    /// seki found as the board stands. This is what KGS's results show.
    EveryChainInSeki,
}

/// Which necessary connections a territory count makes: a point where a
/// chain must connect once the dame are filled (commentary to Art. 9) is
/// not territory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Connections {
    /// Every one, an open ko among them (Japanese rules).
    Every,
    /// All but those a single dame forces: a chain whose only liberties
    /// are one point of its own territory and one dame either colour can
    /// fill keeps that point. This is what KGS's results show.
    ExceptOneDame,
    /// None: every point one colour surrounds is its territory (only to
    /// check whether a record's count left them out).
    Ignored,
}

/// Who wins when the totals are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ties {
    /// A draw (jigo).
    Draw,
    /// A win for White (rules that give ties to White).
    White,
}

/// The `--seki-eyes` setting: a shorthand that overrides [`Rules::tax`]
/// and [`Rules::seki_eye_rule`] together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum SekiEyes {
    /// Japanese Art. 8: the eyes of groups in seki count for nobody
    /// (`Tax::Seki`, any chain in seki).
    None,
    /// They count, as under area scoring (`Tax::None`).
    Count,
    /// As KGS's results show: an eye counts for nobody only when every
    /// chain around it touches a seki dame, seki being found as the board
    /// stands (`Tax::Seki`, every chain).
    Kgs,
}

impl SekiEyes {
    /// Sets the settings this shorthand stands for.
    pub fn apply(self, rules: &mut Rules) {
        (rules.tax, rules.seki_eye_rule) = match self {
            SekiEyes::None => (Tax::Seki, SekiEyeRule::AnyChainInSeki),
            SekiEyes::Count => (Tax::None, rules.seki_eye_rule),
            SekiEyes::Kgs => (Tax::Seki, SekiEyeRule::EveryChainInSeki),
        };
    }
}

/// A complete ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rules {
    /// The preset this was built from (for messages); overrides keep it.
    pub name: &'static str,
    pub ko: KoRule,
    pub suicide: Suicide,
    pub scoring: Scoring,
    pub handicap_bonus: HandicapBonus,
    /// A whole-board repetition is legal but may void the game (Japanese
    /// Art. 12): report it as `repeated-position`.
    pub repetition_voids: bool,
    /// Play after two passes is a normal resumption (Japanese Art. 9), so
    /// `move-after-end` is only info.
    pub resumption_allowed: bool,
    /// No dead-stone removal: the board is scored as it stands.
    pub dead_stones_removed: bool,
    /// What a territory count takes from the groups that own the points.
    pub tax: Tax,
    /// Which eyes the seki tax takes.
    pub seki_eye_rule: SekiEyeRule,
    /// Which necessary connections a territory count makes.
    pub connections: Connections,
    /// Who wins equal totals.
    pub ties: Ties,
    /// The komi in force when it does not come from the record (`--komi`);
    /// `None`: the record's `KM[]`, as `provenance::played_komi` reads it.
    pub komi: Option<f64>,
    /// The first player to pass takes a "button" worth half a point (AGA
    /// button variant; KataGo's `hasButton`).
    pub button: bool,
    /// Passing before the dead stones are captured is fine (area scoring;
    /// KataGo's `friendlyPassOk`). Informational: no count reads it.
    pub friendly_pass_ok: bool,
}

const JAPANESE: Rules = Rules {
    name: "japanese",
    ko: KoRule::Simple,
    suicide: Suicide::Forbidden,
    scoring: Scoring::Territory,
    handicap_bonus: HandicapBonus::None,
    repetition_voids: true,
    resumption_allowed: true,
    dead_stones_removed: true,
    tax: Tax::Seki,
    seki_eye_rule: SekiEyeRule::AnyChainInSeki,
    connections: Connections::Every,
    ties: Ties::Draw,
    komi: None,
    button: false,
    friendly_pass_ok: false,
};

const CHINESE: Rules = Rules {
    name: "chinese",
    ko: KoRule::Positional,
    suicide: Suicide::Forbidden,
    scoring: Scoring::Area,
    handicap_bonus: HandicapBonus::PerStone,
    repetition_voids: false,
    resumption_allowed: false,
    dead_stones_removed: true,
    tax: Tax::None,
    seki_eye_rule: SekiEyeRule::AnyChainInSeki,
    connections: Connections::Every,
    ties: Ties::Draw,
    komi: None,
    button: false,
    friendly_pass_ok: false,
};

/// Every preset, by its canonical name.
pub const PRESETS: &[Rules] = &[
    JAPANESE,
    Rules { name: "korean", ..JAPANESE },
    CHINESE,
    Rules { name: "aga", ko: KoRule::Situational, handicap_bonus: HandicapBonus::PerStoneLessOne, ..CHINESE },
    Rules { name: "new-zealand", ko: KoRule::Situational, suicide: Suicide::MultiStoneOnly, handicap_bonus: HandicapBonus::None, ..CHINESE },
    Rules { name: "tromp-taylor", suicide: Suicide::Allowed, handicap_bonus: HandicapBonus::None, dead_stones_removed: false, ..CHINESE },
    Rules { name: "ing", ko: KoRule::Situational, suicide: Suicide::Allowed, ..CHINESE },
    // KataGo's other named rules.
    Rules { name: "aga-button", ko: KoRule::Situational, handicap_bonus: HandicapBonus::PerStoneLessOne, button: true, ..CHINESE },
    Rules { name: "stone-scoring", ko: KoRule::Simple, tax: Tax::All, handicap_bonus: HandicapBonus::None, ..CHINESE },
    Rules { name: "ancient-territory", tax: Tax::All, ..JAPANESE },
];

/// `RU[]` spellings (lower-cased, spaces, '-' and '_' removed) and presets.
const ALIASES: &[(&str, &str)] = &[
    ("japanese", "japanese"),
    ("jp", "japanese"),
    ("jpn", "japanese"),
    ("japan", "japanese"),
    ("nihonkiin", "japanese"),
    ("korean", "korean"),
    ("kr", "korean"),
    ("kor", "korean"),
    ("chinese", "chinese"),
    ("cn", "chinese"),
    ("chn", "chinese"),
    ("china", "chinese"),
    ("aga", "aga"),
    ("american", "aga"),
    ("bga", "aga"),
    ("nz", "new-zealand"),
    ("newzealand", "new-zealand"),
    ("trompataylor", "tromp-taylor"),
    ("tromptaylor", "tromp-taylor"),
    ("tromp/taylor", "tromp-taylor"),
    ("tt", "tromp-taylor"),
    ("ing", "ing"),
    ("goe", "ing"),
    ("ingrules", "ing"),
    // KataGo's names (`Rules::parseRules`).
    ("chineseogs", "chinese"),
    ("chinesekgs", "chinese"),
    ("french", "aga"),
    ("agabutton", "aga-button"),
    ("stonescoring", "stone-scoring"),
    ("ancientarea", "stone-scoring"),
    ("ancientterritory", "ancient-territory"),
];

/// The key a name is matched on: lower-cased, without spaces, `-`, `_`
/// and `.`. Every alias is ASCII and at most [`AliasKey::LEN`] bytes, so
/// only the key's ASCII start matters, and it is kept on the stack (an
/// `RU[]` is read for every game: no allocation for it).
struct AliasKey {
    bytes: [u8; AliasKey::LEN],
    /// Bytes of `bytes` in use: the key's start, up to its end, its first
    /// non-ASCII character or `LEN` bytes.
    len: usize,
    /// Whether `bytes[..len]` is the whole key.
    whole: bool,
}

impl AliasKey {
    const LEN: usize = 16;

    fn of(name: &str) -> AliasKey {
        let mut key = AliasKey { bytes: [0; AliasKey::LEN], len: 0, whole: false };
        for c in name.chars().filter(|c| !matches!(c, ' ' | '-' | '_' | '.')) {
            let pushed = if c.is_ascii() { key.push(c.to_ascii_lowercase()) } else { c.to_lowercase().all(|l| key.push(l)) };
            if !pushed {
                return key;
            }
        }
        key.whole = true;
        key
    }

    /// Appends `c`; `false` when it is not ASCII or the key is full, which
    /// ends the part of the key an alias can match.
    fn push(&mut self, c: char) -> bool {
        if !c.is_ascii() || self.len == AliasKey::LEN {
            return false;
        }
        self.bytes[self.len] = c as u8;
        self.len += 1;
        true
    }

    /// Whether the key is `alias` (ASCII).
    fn is(&self, alias: &str) -> bool {
        self.whole && &self.bytes[..self.len] == alias.as_bytes()
    }

    /// Whether the key starts with `alias` (ASCII, at most `LEN` bytes).
    fn starts_with(&self, alias: &str) -> bool {
        self.bytes[..self.len].starts_with(alias.as_bytes())
    }
}

impl Rules {
    /// The Japanese preset: what a game is replayed under when its `RU[]`
    /// does not decide (no look-up by name).
    pub const JAPANESE: Rules = JAPANESE;

    /// A preset by its canonical name or any alias.
    pub fn preset(name: &str) -> Option<Rules> {
        let key = AliasKey::of(name);
        let canonical = ALIASES.iter().find(|(alias, _)| key.is(alias)).map(|(_, c)| *c)?;
        PRESETS.iter().copied().find(|r| r.name == canonical)
    }

    /// Reads an `RU[]` value leniently: exact aliases first, then the first
    /// alias that starts the value (`Japanese 1989`, `TT--`, `Chinese (with
    /// superko)`).
    /// KataGo's rule strings (`koPOSITIONALscoreAREA...`, its JSON form)
    /// are read by [`katago::parse`]; one kifu cannot read is `None` here,
    /// and [`Rules::ru_problem`] says why.
    pub fn from_ru(ru: &str) -> Option<Rules> {
        // The servers' spellings as they write them (KGS: `Japanese` in
        // nine games of ten, `Chinese`): no key built, no list searched.
        // Each reads as the general way below reads it (a test says so).
        match ru {
            "Japanese" => return Some(JAPANESE),
            "Chinese" => return Some(CHINESE),
            _ => {}
        }
        if let Some(katago) = katago::parse(ru) {
            return katago.ok();
        }
        let key = AliasKey::of(ru);
        if let Some(&(_, canonical)) = ALIASES.iter().find(|(alias, _)| key.is(alias)) {
            return PRESETS.iter().copied().find(|r| r.name == canonical);
        }
        ALIASES
            .iter()
            .filter(|(alias, _)| alias.len() >= 2 && key.starts_with(alias))
            .max_by_key(|(alias, _)| alias.len())
            .and_then(|(_, c)| PRESETS.iter().copied().find(|r| r.name == *c))
    }

    /// Why `from_ru` cannot read `ru`, when it is a KataGo rule string with
    /// an unknown key or value.
    pub fn ru_problem(ru: &str) -> Option<String> {
        katago::parse(ru).and_then(Result::err)
    }

    /// Whether a suicide of `stones` stones is legal.
    pub fn suicide_allowed(&self, stones: usize) -> bool {
        match self.suicide {
            Suicide::Forbidden => false,
            Suicide::MultiStoneOnly => stones > 1,
            Suicide::Allowed => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_spellings_read_as_the_general_way_reads_them() {
        for ru in ["Japanese", "Chinese"] {
            let key = AliasKey::of(ru);
            let canonical = ALIASES.iter().find(|(alias, _)| key.is(alias)).map(|(_, c)| *c).unwrap();
            assert!(katago::parse(ru).is_none());
            assert_eq!(Rules::from_ru(ru), PRESETS.iter().copied().find(|r| r.name == canonical));
        }
    }

    #[test]
    fn server_spellings() {
        for (ru, want) in [
            ("Japanese", "japanese"),
            ("JP", "japanese"),
            ("chinese", "chinese"),
            ("CN", "chinese"),
            ("AGA", "aga"),
            ("NZ", "new-zealand"),
            ("New Zealand", "new-zealand"),
            ("Tromp-Taylor", "tromp-taylor"),
            ("TT--", "tromp-taylor"),
            ("Tromp/Taylor", "tromp-taylor"),
            ("Korean", "korean"),
            ("GOE", "ing"),
            ("Ing", "ing"),
        ] {
            assert_eq!(Rules::from_ru(ru).map(|r| r.name), Some(want), "{ru}");
        }
        assert_eq!(Rules::from_ru("Stone Scoring").map(|r| r.name), Some("stone-scoring"));
        assert_eq!(Rules::from_ru("Chinese-OGS").map(|r| r.name), Some("chinese"));
        assert_eq!(Rules::from_ru("AGA-Button").map(|r| r.button), Some(true));
        assert_eq!(Rules::from_ru("koSIMPLEscoreTERRITORYsui0").map(|r| (r.name, r.scoring)), Some(("katago", Scoring::Territory)));
        assert_eq!(Rules::from_ru("koSIMPLEscoreAREAfoo1"), None);
        assert_eq!(Rules::ru_problem("koSIMPLEscoreAREAfoo1").as_deref(), Some(r#"unknown KataGo rule at "foo1""#));
        assert_eq!(Rules::ru_problem("Japanese"), None);
        assert_eq!(Rules::from_ru(""), None);
    }

    #[test]
    fn alias_keys_need_no_allocation_but_match_as_strings_did() {
        // Non-ASCII lower-cases: the Kelvin sign is a 'k'; 'İ' is not an 'i'.
        assert_eq!(Rules::from_ru("\u{212a}R").map(|r| r.name), Some("korean"));
        assert_eq!(Rules::from_ru("İng"), None);
        assert_eq!(Rules::from_ru("ingé"), Some(Rules::preset("ing").unwrap()));
        assert_eq!(Rules::preset("ingé"), None);
        // Longer than the key kept: a prefix still matches, the whole never.
        assert_eq!(Rules::from_ru("Tromp-Taylor with a long comment").map(|r| r.name), Some("tromp-taylor"));
        assert_eq!(Rules::preset("japanesejapanesejapanese"), None);
        assert_eq!(Rules::from_ru("japanesejapanesejapanese").map(|r| r.name), Some("japanese"));
        assert!(ALIASES.iter().all(|(alias, _)| alias.is_ascii() && alias.len() <= AliasKey::LEN));
    }

    #[test]
    fn seki_tax_by_scoring() {
        for rules in PRESETS {
            let want = match (rules.scoring, rules.name) {
                (_, "stone-scoring" | "ancient-territory") => Tax::All,
                (Scoring::Territory, _) => Tax::Seki,
                (Scoring::Area, _) => Tax::None,
            };
            assert_eq!(rules.tax, want, "{}", rules.name);
            assert!(rules.komi.is_none() && rules.button == (rules.name == "aga-button") && rules.ties == Ties::Draw, "{}", rules.name);
        }
    }

    #[test]
    fn seki_eyes_shorthand_sets_the_tax() {
        let mut rules = Rules::JAPANESE;
        SekiEyes::Kgs.apply(&mut rules);
        assert_eq!((rules.tax, rules.seki_eye_rule), (Tax::Seki, SekiEyeRule::EveryChainInSeki));
        SekiEyes::Count.apply(&mut rules);
        assert_eq!(rules.tax, Tax::None);
        SekiEyes::None.apply(&mut rules);
        assert_eq!((rules.tax, rules.seki_eye_rule), (Tax::Seki, SekiEyeRule::AnyChainInSeki));
        let mut chinese = Rules::preset("chinese").unwrap();
        SekiEyes::None.apply(&mut chinese);
        assert_eq!(chinese.tax, Tax::Seki);
    }

    #[test]
    fn preset_settings() {
        let nz = Rules::preset("new-zealand").unwrap();
        assert!(!nz.suicide_allowed(1) && nz.suicide_allowed(2));
        assert_eq!(Rules::preset("aga").unwrap().ko, KoRule::Situational);
        assert_eq!(Rules::preset("chinese").unwrap().ko, KoRule::Positional);
        assert_eq!(Rules::preset("japanese").unwrap().ko, KoRule::Simple);
    }
}
