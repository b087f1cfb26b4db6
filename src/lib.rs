pub use sim_core;
pub use sim_mem;
