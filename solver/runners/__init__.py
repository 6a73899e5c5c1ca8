"""Running many adjudications: case files, validation of recorded games, benchmarks, the
process pool that never loses a task, and the invariants every phase keeps."""
