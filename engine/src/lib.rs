//! The engine front-end.
