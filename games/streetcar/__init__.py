"""Streetcar (after Stefan Dorra's *Linie 1*): lay track to link your terminals through your stops, then
race your tram home with push-your-luck dice (specs/streetcar.md)."""
