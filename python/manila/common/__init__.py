"""The base layer, shared by every other: errors, input limits, the progress bar."""
