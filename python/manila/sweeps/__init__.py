"""The sweep layer: every start of a voyage enumerated, swept into tables, ranked, plotted.

The public names are re-exported by ``manila`` (and the plots by ``manila.plot``).
"""
