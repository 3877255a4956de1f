"""The pygame-ce application: one loop, a scene stack, the launcher and shared widgets."""
