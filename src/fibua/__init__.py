"""fibua: engine and computer umpire for WWII urban-combat wargames."""
