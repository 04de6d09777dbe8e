"""The `fibua` command line: terminal play, logs and replays, scenarios, maps and odds."""
