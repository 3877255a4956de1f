"""Tokami: sticks piled on an X-shaped frame (specs/tokami.md)."""
