"""Quick battles: a scenario no one has seen, made from a seed for any rule set (a town,
forces of equal points from the rule set's own lists, deployment zones on opposite edges,
objectives and a turn limit), written as a scenario file. See docs/quick.md."""
