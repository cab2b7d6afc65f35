//! (stub, being written)
