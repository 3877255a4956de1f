"""LAN play (issue 4): the versioned JSON protocol, the authoritative host of any game whose spec
allows it, the threaded client and the client's ``RemoteMatch``, what a game's own screen reads."""
