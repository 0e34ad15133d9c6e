//! kifu: a fast, trustworthy toolkit for Go game records in SGF.
//!
//! Data flows one way: bytes → [`sgf`] (decode, parse, the lossless model)
//! → [`json`] conversion, and (later stages) replay → score → report. Each
//! module knows nothing of the stages after it. Problems are reported as
//! [`diag::Diagnostic`] values with stable codes.

pub mod diag;
pub mod sgf;
