//! Python arguments turned into the library's options: rules, parsing,
//! scoring, walking. Names and values are those of the command line's
//! flags (`rules="chinese"`, `ko="situational"`, `dead_stones="dd,pq"`).

use std::path::PathBuf;

use kifu::batch::{Shard, Walk};
use kifu::diag::{Code, Policy};
use kifu::replay::RuleOverrides;
use kifu::rules::{Connections, KoRule, PRESETS, Rules, SekiEyes, Suicide, Ties};
use kifu::score::{DeadStones, ScoreOptions};
use kifu::sgf::{self, ParseOptions, charset};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};

/// A file to read, or the bytes of one.
pub enum Input {
    Path(PathBuf),
    Bytes(Vec<u8>),
}

impl Input {
    /// `bytes`-like objects are data; `str` and `os.PathLike` are paths.
    pub fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Input> {
        if let Ok(bytes) = obj.cast::<PyBytes>() {
            return Ok(Input::Bytes(bytes.as_bytes().to_vec()));
        }
        if let Ok(bytes) = obj.cast::<PyByteArray>() {
            return Ok(Input::Bytes(bytes.to_vec()));
        }
        if obj.is_instance_of::<PyMemoryView>() {
            let bytes = obj.py().get_type::<PyBytes>().call1((obj,))?;
            return Ok(Input::Bytes(bytes.cast::<PyBytes>()?.as_bytes().to_vec()));
        }
        match obj.extract::<PathBuf>() {
            Ok(path) => Ok(Input::Path(path)),
            Err(_) => Err(PyTypeError::new_err(format!("expected a path (str or os.PathLike) or bytes, not {}", obj.get_type().name()?))),
        }
    }
}

/// One path or several: a `str`/`os.PathLike`, or an iterable of them.
pub fn paths(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if obj.is_instance_of::<PyString>() || obj.hasattr("__fspath__")? {
        return Ok(vec![obj.extract()?]);
    }
    let mut out = Vec::new();
    for item in obj.try_iter().map_err(|_| PyTypeError::new_err("paths: expected a path or an iterable of paths"))? {
        out.push(item?.extract::<PathBuf>().map_err(|_| PyTypeError::new_err("paths: each item must be a str or os.PathLike"))?);
    }
    Ok(out)
}

fn bad_value(what: &str, value: &str, choices: &str) -> PyErr {
    PyValueError::new_err(format!("{what}={value:?}: expected {choices}"))
}

/// The presets' names, from the library's list so a new preset is named.
fn preset_names() -> String {
    PRESETS.iter().map(|rules| rules.name).collect::<Vec<_>>().join(", ")
}

/// `rules`, `ko`, `suicide`: as `--rules`, `--ko`, `--suicide`.
pub fn rule_overrides(rules: Option<&str>, ko: Option<&str>, suicide: Option<&str>) -> PyResult<RuleOverrides> {
    let rules = match rules {
        None => None,
        Some(name) => Some(Rules::preset(name).ok_or_else(|| bad_value("rules", name, &preset_names()))?),
    };
    let ko = match ko {
        None => None,
        Some("simple") => Some(KoRule::Simple),
        Some("positional") => Some(KoRule::Positional),
        Some("situational") => Some(KoRule::Situational),
        Some(other) => return Err(bad_value("ko", other, "simple, positional or situational")),
    };
    let suicide = match suicide {
        None => None,
        Some("forbidden") => Some(Suicide::Forbidden),
        Some("multi-stone-only") => Some(Suicide::MultiStoneOnly),
        Some("allowed") => Some(Suicide::Allowed),
        Some(other) => return Err(bad_value("suicide", other, "forbidden, multi-stone-only or allowed")),
    };
    Ok(RuleOverrides { rules, ko, suicide, ..RuleOverrides::default() })
}

/// `encoding`, `max_nodes`, `max_variations`: as the flags.
pub fn parse_options(encoding: Option<&str>, max_nodes: Option<usize>, max_variations: Option<usize>) -> PyResult<ParseOptions> {
    let encoding = match encoding {
        None => None,
        Some(name) => Some(charset::encoding_for_label(name).ok_or_else(|| PyValueError::new_err(format!("encoding={name:?}: unknown charset")))?),
    };
    Ok(ParseOptions { encoding, limits: sgf::Limits { max_nodes, max_variations } })
}

/// How to rescore: the `score` flags.
pub struct ScoreArgs<'a> {
    pub dead_stones: &'a str,
    pub komi: Option<f64>,
    pub handicap_bonus: Option<f64>,
    pub seki_eyes: Option<&'a str>,
    pub connections: Option<&'a str>,
    pub ties: &'a str,
    pub variation: Vec<u32>,
}

impl ScoreArgs<'_> {
    pub fn resolve(&self, rules: RuleOverrides) -> PyResult<ScoreOptions> {
        let dead_stones = self
            .dead_stones
            .parse::<DeadStones>()
            .map_err(|e| PyValueError::new_err(format!("dead_stones={:?}: {e} (auto, markup, estimate, none, or points like \"dd,pq\")", self.dead_stones)))?;
        let seki_eyes = match self.seki_eyes {
            None => None,
            Some("none") => Some(SekiEyes::None),
            Some("count") => Some(SekiEyes::Count),
            Some("kgs") => Some(SekiEyes::Kgs),
            Some(other) => return Err(bad_value("seki_eyes", other, "none, count or kgs")),
        };
        let connections = match self.connections {
            None => None,
            Some("every") => Some(Connections::Every),
            Some("kgs") => Some(Connections::ExceptOneDame),
            Some("none") => Some(Connections::Ignored),
            Some(other) => return Err(bad_value("connections", other, "every, kgs or none")),
        };
        let ties = match self.ties {
            "draw" => Ties::Draw,
            "white" => Ties::White,
            other => return Err(bad_value("ties", other, "draw or white")),
        };
        let rules = RuleOverrides { komi: self.komi, seki_eyes, connections, ties: Some(ties), ..rules };
        Ok(ScoreOptions { rules, dead_stones, handicap_bonus: self.handicap_bonus, variation: self.variation.clone(), ..Default::default() })
    }
}

/// `allow` and `deny` (codes, or `"warnings"` in `deny`): as the flags.
pub fn policy(allow: Vec<String>, deny: Vec<String>) -> PyResult<Policy> {
    let code = |name: &str| Code::from_name(name).ok_or_else(|| PyValueError::new_err(format!("unknown diagnostic code {name:?} (see docs/diagnostics.md)")));
    let mut policy = Policy::default();
    for name in deny {
        if name == "warnings" {
            policy.deny_warnings = true;
        } else {
            policy.deny.push(code(&name)?);
        }
    }
    for name in allow {
        policy.allow.push(code(&name)?);
    }
    Ok(policy)
}

/// How to find files: the walk flags.
pub struct WalkArgs {
    /// Besides those of the formats kifu reads.
    pub extensions: Vec<String>,
    pub hidden: bool,
    pub recursive: bool,
    pub max_bytes: Option<u64>,
    pub shard: Option<String>,
}

impl WalkArgs {
    pub fn resolve(self) -> PyResult<Walk> {
        let shard = match self.shard {
            None => None,
            Some(s) => Some(Shard::parse(&s).map_err(|e| PyValueError::new_err(format!("shard={s:?}: {e}")))?),
        };
        let mut walk = Walk::default();
        walk.extensions.extend(self.extensions.iter().map(|e| e.trim_start_matches('.').to_ascii_lowercase()));
        let max_bytes = self.max_bytes.unwrap_or(kifu::batch::DEFAULT_MAX_BYTES);
        Ok(Walk { hidden: self.hidden, recursive: self.recursive, max_bytes, shard, ..walk })
    }
}

/// Threads to use: `jobs`, or every core.
pub fn jobs(jobs: Option<usize>) -> usize {
    jobs.filter(|&j| j > 0).unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A JSON value (the library's serde output) as Python objects.
pub fn json_to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    use serde_json::Value;
    match value {
        Value::Null => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.into_bound_py_any(py),
            (None, Some(f)) => f.into_bound_py_any(py),
            _ => n.to_string().into_bound_py_any(py),
        },
        Value::String(s) => s.into_bound_py_any(py),
        Value::Array(items) => {
            let list = pyo3::types::PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            Ok(list.into_any())
        }
        Value::Object(map) => {
            let dict = pyo3::types::PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, json_to_py(py, v)?)?;
            }
            Ok(dict.into_any())
        }
    }
}
