"""Tom Tube: two astronauts build tubes on a hexagonal board of space triangles and drift through them
to their solar modules and home (specs/tomtube.md; the model of research/tomtube.md §3 and §5)."""
