"""Positions for the advice benchmarks: four players to move from the start of a placement
round, nothing but crews held (and the first round of a voyage: nothing at all)."""

ORDER = " turn=a order=a,b,c,d"

POSITIONS = {
    "roll3_crews": "r3 ginseng@9:a nutmeg@11:b silk@10:c,d" + ORDER,
    "roll3_crews_wealth": (
        "r3 ginseng@9:a nutmeg@11:b silk@10:c,d wealth shares=a:silk2 "
        "shares=b:nutmeg1,ginseng1 prices=silk10" + ORDER
    ),
    "roll2_crews": "r2 ginseng@6:a nutmeg@8:b silk@7:c,d" + ORDER,
    "roll2_crews_wealth": (
        "r2 ginseng@6:a nutmeg@8:b silk@7:c,d wealth shares=a:silk2 "
        "shares=b:nutmeg1,ginseng1 prices=silk10" + ORDER
    ),
    "roll1_crews": "r1 ginseng@3:a nutmeg@4:b silk@2:c,d" + ORDER,
    "roll1_empty": "r1 ginseng@3 nutmeg@4 silk@2" + ORDER,
}

# The targets, one thread (seconds).
TARGETS = {1: 10.0, 2: 2.0, 3: 0.1}

# A position with three to move at next_roll 3, for the comparison with the reference.
THREE_TO_MOVE = "r3 ginseng@9:a nutmeg@11:b silk@10:c,d port_a=d pilot_small=a turn=b order=a,b,c,d"
