//! Rescoring finished games (work in progress: the counting lands with the
//! estimator and result parsing).

pub mod estimate;
pub mod result;
