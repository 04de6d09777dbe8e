"""The session layer: what lies between a game and the people playing it, once for every
front end (the terminal, the server, the lab): the words a player reads (`narration`) and
the computer players' seeds (`computers`)."""
