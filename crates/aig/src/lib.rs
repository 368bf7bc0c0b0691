//! hypermut-aig (under construction).
