//! hypermut-smv (under construction).
