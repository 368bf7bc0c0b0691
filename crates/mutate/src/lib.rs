//! hypermut-mutate (under construction).
