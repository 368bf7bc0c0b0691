//! hypermut-hyper (under construction).
