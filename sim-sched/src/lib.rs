//! Dispatch: thread groups on a rayon pool.
