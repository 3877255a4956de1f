"""LAN play (issue 4): the versioned JSON protocol, the authoritative host of any game whose spec
allows it, the threaded client and, for turn-based games, the client's ``RemoteMatch``."""
