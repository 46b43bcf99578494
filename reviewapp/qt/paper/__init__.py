"""File > Open Paper: every logbook on one paper as a matrix, side-by-side evidence, authors' responses."""
