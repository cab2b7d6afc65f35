//! (stub, being written) Rendering of comparison results.
