//! `kifu.Diagnostic`: one problem found, with the fields of the JSON
//! output (`kifu check --format jsonl`) as attributes.

use kifu::diag;
use kifu::report::escape::Escaped;
use pyo3::prelude::*;
use serde::Serialize;

/// A problem found in a record: the fields of `kifu check --format jsonl`.
///
/// ``code`` (stable, e.g. ``"ko"``), ``severity`` (``"error"``,
/// ``"warning"`` or ``"info"``), ``message``, ``line`` and ``column``
/// (1-based, columns in characters), ``game`` (0-based index of the game in
/// its file, or None), and for moves ``move`` (1-based), ``color``
/// (``"B"``/``"W"``), ``point`` (SGF letters as written) and ``variation``
/// (child indices at each branch point, ``[]`` for the main line).
/// ``file`` names the file, when there is one. ``to_dict()`` gives the JSON
/// object itself.
#[pyclass(module = "kifu", frozen)]
pub struct Diagnostic {
    inner: diag::Diagnostic,
    file: Option<String>,
}

impl Diagnostic {
    /// A located diagnostic of the file `file`.
    pub fn new(inner: diag::Diagnostic, file: Option<&str>) -> Diagnostic {
        Diagnostic { inner, file: file.map(str::to_string) }
    }

    pub fn inner(&self) -> &diag::Diagnostic {
        &self.inner
    }
}

/// The JSON object: `file`, then the diagnostic's fields (as the CLI
/// writes them).
#[derive(Serialize)]
struct Json<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(flatten)]
    diagnostic: &'a diag::Diagnostic,
}

#[pymethods]
impl Diagnostic {
    #[getter]
    fn code(&self) -> &'static str {
        self.inner.code.name()
    }

    #[getter]
    fn severity(&self) -> &'static str {
        self.inner.severity.as_str()
    }

    #[getter]
    fn message(&self) -> &str {
        &self.inner.message
    }

    #[getter]
    fn line(&self) -> u32 {
        self.inner.line
    }

    #[getter]
    fn column(&self) -> u32 {
        self.inner.column
    }

    #[getter]
    fn game(&self) -> Option<usize> {
        self.inner.game
    }

    #[getter(r#move)]
    fn move_number(&self) -> Option<u32> {
        self.inner.move_number
    }

    #[getter]
    fn color(&self) -> Option<&'static str> {
        self.inner.color
    }

    #[getter]
    fn point(&self) -> Option<&str> {
        self.inner.point.as_deref()
    }

    #[getter]
    fn variation(&self) -> Option<Vec<u32>> {
        self.inner.variation.clone()
    }

    #[getter]
    fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    /// The diagnostic as the JSON object ``kifu check --format jsonl``
    /// prints: absent fields are left out.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = serde_json::to_value(Json { file: self.file.as_deref(), diagnostic: &self.inner })
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        crate::options::json_to_py(py, &value)
    }

    /// ``file:line:column: severity[code]: message``, as the CLI's text
    /// output: what comes from the record escaped (``\x1b``), so printing
    /// it never sends a terminal control characters.
    pub fn __str__(&self) -> String {
        let d = &self.inner;
        let file = self.file.as_deref().map(|f| format!("{}:", Escaped(f))).unwrap_or_default();
        let game = d.game.map(|g| format!(" (game {})", g + 1)).unwrap_or_default();
        format!("{file}{}:{}: {}[{}]: {}{game}", d.line, d.column, d.severity, d.code, Escaped(&d.message))
    }

    fn __repr__(&self) -> String {
        format!("<kifu.Diagnostic {}>", self.__str__())
    }
}
