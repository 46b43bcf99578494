"""Figures drawn with matplotlib's Agg and SVG backends (no display needed, no Qt), in a light and a dark theme."""
