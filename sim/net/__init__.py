"""LAN play (issue 4): the versioned JSON protocol, the authoritative host and the threaded client."""
