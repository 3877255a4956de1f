"""Pure-Python core shared by every game: rules protocol, Match, records, hex grid, registry.

Nothing under ``sim.core`` imports pygame, reads the wall clock or touches global random state.
"""
