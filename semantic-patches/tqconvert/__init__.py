"""convert's stages, one module each (semantic-patches/convert runs them)."""
