"""Per-target writers: each turns neutral type nodes (and text) into one target's syntax."""
