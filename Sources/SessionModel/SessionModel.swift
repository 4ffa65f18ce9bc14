// The model layer: value types and the pure tab-list rules of SEMANTICS.md.
