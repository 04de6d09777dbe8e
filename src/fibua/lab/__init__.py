"""The playtest lab: many games of a scenario, stored a row a game, with reports and
comparisons (`fibua lab run | report | compare`)."""
