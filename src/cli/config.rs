//! `kifu.toml`: a repository's pinned checking policy.
//!
//! Found by walking up from the current folder (or named by `--config`).
//! Command-line flags win over it: `--rules` replaces `rules`, and `--allow`,
//! `--deny` and `--ext` add to its lists. Unknown keys are an error, so a
//! typo never silently loosens a policy.
//!
//! ```toml
//! [check]
//! rules = "japanese"            # when RU[] is absent or unknown too
//! deny = ["warnings"]           # or codes: "duplicate-game"
//! allow = ["unknown-property"]
//! extensions = ["sgf", "kifu"]  # besides sgf
//! ignore = ["drafts/", "*.tmp.sgf"]   # gitignore syntax, from this file's folder
//! hidden = false
//! max-bytes = 104857600
//! ```

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use serde::Deserialize;

pub const FILE_NAME: &str = "kifu.toml";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub check: CheckConfig,
    /// The folder holding the file: `ignore` patterns are relative to it.
    #[serde(skip)]
    pub dir: PathBuf,
    #[serde(skip)]
    pub path: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CheckConfig {
    pub rules: Option<String>,
    #[serde(default)]
    pub deny: Vec<String>,
    #[serde(default)]
    pub allow: Vec<String>,
    #[serde(default)]
    pub extensions: Vec<String>,
    #[serde(default)]
    pub ignore: Vec<String>,
    pub hidden: Option<bool>,
    pub max_bytes: Option<u64>,
}

impl Config {
    /// The explicit file, else the nearest `kifu.toml` from the current
    /// folder up, else the defaults.
    pub fn load(explicit: Option<&Path>) -> Result<Config, String> {
        let path = match explicit {
            Some(path) => Some(path.to_path_buf()),
            None => std::env::current_dir().ok().and_then(|dir| find_upwards(&dir)),
        };
        let Some(path) = path else { return Ok(Config::default()) };
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut config: Config = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let absolute = std::path::absolute(&path).unwrap_or_else(|_| path.clone());
        config.dir = absolute.parent().map(Path::to_path_buf).unwrap_or_default();
        config.path = Some(path);
        Ok(config)
    }

    /// Where a key was read, for messages: `path/kifu.toml: rules`.
    pub fn key(&self, key: &str) -> String {
        let file = self.path.as_deref().unwrap_or(Path::new(FILE_NAME));
        format!("{}: {key}", file.display())
    }

    /// The `ignore` patterns as a matcher rooted at the file's folder.
    pub fn ignore_matcher(&self) -> Result<Option<Gitignore>, String> {
        if self.check.ignore.is_empty() {
            return Ok(None);
        }
        let mut builder = GitignoreBuilder::new(&self.dir);
        for pattern in &self.check.ignore {
            builder.add_line(None, pattern).map_err(|e| format!("ignore pattern '{pattern}': {e}"))?;
        }
        builder.build().map(Some).map_err(|e| e.to_string())
    }
}

fn find_upwards(start: &Path) -> Option<PathBuf> {
    start.ancestors().map(|dir| dir.join(FILE_NAME)).find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_key_and_refuses_typos() {
        let config: Config = toml::from_str(
            "[check]\nrules = \"chinese\"\ndeny = [\"warnings\"]\nallow = [\"unknown-property\"]\nextensions = [\"kifu\"]\nignore = [\"old/\"]\nhidden = true\nmax-bytes = 10\n",
        )
        .unwrap();
        assert_eq!(config.check.rules.as_deref(), Some("chinese"));
        assert_eq!(config.check.max_bytes, Some(10));
        assert!(toml::from_str::<Config>("[check]\nrule = \"chinese\"\n").is_err());
    }

    #[test]
    fn ignore_patterns_are_relative_to_the_file() {
        let config = Config { check: CheckConfig { ignore: vec!["old/".into(), "*.tmp.sgf".into()], ..Default::default() }, dir: "/repo".into(), path: None };
        let matcher = config.ignore_matcher().unwrap().unwrap();
        assert!(matcher.matched("/repo/old", true).is_ignore());
        assert!(matcher.matched("/repo/games/a.tmp.sgf", false).is_ignore());
        assert!(!matcher.matched("/repo/games/a.sgf", false).is_ignore());
    }
}
