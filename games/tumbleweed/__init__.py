"""Tumbleweed (Mike Zapawa, 2020): stacks that see along hex lines (specs/tumbleweed.md).

``rules`` holds the engine (a fast mutable ``Engine`` for search and the immutable ``TumbleweedRules``
for ``Match``), ``notation`` the AbstractPlay-style cell names, move text and game records, ``ai`` the
bots, ``selfplay`` and ``bench`` the headless tools; ``rules.md`` is the in-app rules text.
"""
