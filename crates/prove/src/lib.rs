//! hypermut-prove (under construction).
