"""Buildings: an order-dice WWII skirmish with intact buildings and bunkers (inches).

The pure parts only for now (tables, forces, procedures, the bag, odds): the RuleSet that
registers the game comes with its state and turn.
"""
