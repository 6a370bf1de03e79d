"""What the real decoder page prints, read from the committed results/decoder-heads.json (never the model)."""
