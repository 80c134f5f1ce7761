"""Table profiles (TOML): marker positions and zones in table millimetres."""
