"""Many games in one process: the loop lives in the lab (`fibua.lab.engine`); kept here
under its old name for the tools and benchmarks that import it."""

from fibua.lab.engine import Seating, computers, play_games

__all__ = ["Seating", "computers", "play_games"]
