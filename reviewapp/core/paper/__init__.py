"""One paper across many logbooks: claims aligned across teams, classes, and the authors' answers."""
