"""Independent, slow, obviously-correct reference for the exact voyage evaluation.

Written from the rules and the evaluation contract alone (docs/rules.md and
docs/numbers.md: parts 1 to 3, the wealth objective and budgets included), using
only the standard library.  It exists so that tests can check the
fast engine against it; clarity is preferred over speed everywhere except for
two deliberate devices:

* Every die outcome of every remaining roll is enumerated with
  ``itertools.product``; outcomes that lead to the *same* next situation are
  merged (their weights added) before recursing, and every stage is memoised
  with ``functools.lru_cache`` on hashable immutable sub-states
  (positions, crews, pirates still on the ship).

* Expectations are kept as exact *integers* scaled by 216 per remaining roll
  (a roll of k moving boats has 6**k equally likely outcomes, each of weight
  216 // 6**k, so the weights of one roll always sum to 216).  A value "before
  roll r" is therefore the true expectation multiplied by 216 ** (4 - r).
  Decisions only ever compare values of the same stage, hence of the same
  scale, so comparing scaled integers is the same as comparing the exact
  expectations.  The public functions divide back and return ``Fraction``s.

Public interface::

    evaluate_reference(state) -> {"spots", "boats", "incomes", "payoffs"}
    income_reference(state)   -> {owner: Fraction}
    boat_table_reference(state) -> {good: {"port", "shipyard", "plundered"}}
"""

import copy
from fractions import Fraction
from functools import cache
from itertools import product

# --------------------------------------------------------------------------
# Rule constants (docs/rules.md)
# --------------------------------------------------------------------------

GOODS = ("ginseng", "nutmeg", "silk", "jade")  # canonical good order
SEAT_COSTS = {
    "ginseng": (1, 2, 3),
    "nutmeg": (2, 3, 4),
    "silk": (3, 4, 5),
    "jade": (3, 4, 5, 5),
}
CARGO_VALUE = {"ginseng": 18, "nutmeg": 24, "silk": 30, "jade": 36}

LAST_SPACE = 13  # positions 0..13; moving past 13 reaches Manila
ARRIVED = "arrived"

PORT_SPOTS = ("port_a", "port_b", "port_c")
SHIPYARD_SPOTS = ("shipyard_a", "shipyard_b", "shipyard_c")
SLOT_PAYOUT = (6, 8, 15)  # slot A, B, C (port and shipyard alike)
INSURER_PAYS = {0: 0, 1: 6, 2: 14, 3: 29}  # total, by number of boats in shipyard
PIRATE_SPOTS = ("pirate_1", "pirate_2")

SPOT_COSTS = {
    "port_a": 4,
    "port_b": 3,
    "port_c": 2,
    "shipyard_a": 4,
    "shipyard_b": 3,
    "shipyard_c": 2,
    "pirate_1": 5,
    "pirate_2": 5,
    "pilot_small": 2,
    "pilot_large": 5,
    "insurance": -10,
}
NON_CARGO_SPOTS = PORT_SPOTS + SHIPYARD_SPOTS + PIRATE_SPOTS + ("pilot_small", "pilot_large", "insurance")

ROLL_WEIGHT = 216  # total weight of one roll (6**3)

PRICE_STEPS = (0, 5, 10, 20, 30)  # the black market track

MANILA = "manila"
SHIPYARD = "shipyard"

# Where a boat stands after the last roll, as far as the ending is concerned.
CAT_ARRIVED = "arrived"
CAT_ON_13 = "on13"
CAT_ELSEWHERE = "elsewhere"


# --------------------------------------------------------------------------
# Dice
# --------------------------------------------------------------------------


def advance(position, steps):
    """Move a boat `steps` spaces (steps may be negative for pilots; callers
    check for < 0).  Past space 13 the boat reaches Manila."""
    assert position != ARRIVED
    new = position + steps
    return ARRIVED if new > LAST_SPACE else new


def _all_rolls(positions):
    """Yield (new_positions, weight) for EVERY die outcome of one roll: each
    boat not yet arrived moves by its own fair die.  Weights sum to 216."""
    moving = [i for i, p in enumerate(positions) if p != ARRIVED]
    weight = ROLL_WEIGHT // 6 ** len(moving)
    for dice in product(range(1, 7), repeat=len(moving)):
        new = list(positions)
        for boat, die in zip(moving, dice):
            new[boat] = advance(positions[boat], die)
        yield tuple(new), weight


@cache
def roll_outcomes(positions):
    """One roll, identical resulting positions merged: ((positions, weight), ...)."""
    merged = {}
    for new, weight in _all_rolls(positions):
        merged[new] = merged.get(new, 0) + weight
    return tuple(merged.items())


def final_category(position):
    if position == ARRIVED:
        return CAT_ARRIVED
    if position == LAST_SPACE:
        return CAT_ON_13
    return CAT_ELSEWHERE


@cache
def last_roll_outcomes(positions):
    """Roll 3, merged by what matters afterwards (arrived / on 13 / elsewhere)."""
    merged = {}
    for new, weight in _all_rolls(positions):
        key = tuple(final_category(p) for p in new)
        merged[key] = merged.get(key, 0) + weight
    return tuple(merged.items())


# --------------------------------------------------------------------------
# Vector helpers.  A "vector" is a tuple: one entry per owner (payoff: what the
# owner's decisions maximise), 3 entries per boat (port, shipyard, plundered
# indicators), then one entry per owner again (voyage income), all scaled integers.
# --------------------------------------------------------------------------


def weighted_sum(pairs, length):
    total = [0] * length
    for weight, vector in pairs:
        for k in range(length):
            total[k] += weight * vector[k]
    return tuple(total)


# --------------------------------------------------------------------------
# Input normalisation
# --------------------------------------------------------------------------


def _rules(state):
    rules = state.get("rules") or {}
    thirteen = rules.get("thirteen_after_last_roll", "port")
    variant = bool(rules.get("pirate_variant", False))
    return thirteen, variant


def _sailing_goods(state):
    """The three sailing goods in canonical order."""
    return tuple(g for g in GOODS if g in state["boats"])


def _spot_owner(state, spot):
    return (state.get("spots") or {}).get(spot)


def named_owners(state):
    """Every owner named in the state, in order of first appearance."""
    owners = []

    def note(name):
        if name is not None and name not in owners:
            owners.append(name)

    for good in _sailing_goods(state):
        for member in state["boats"][good]["crew"]:
            note(member)
    for spot in NON_CARGO_SPOTS:
        note(_spot_owner(state, spot))
    # spots not in the known list (should not happen) are still owners
    for _spot, owner in sorted((state.get("spots") or {}).items()):
        note(owner)
    note(state.get("player"))
    for owner in state.get("shares") or {}:
        note(owner)
    for owner in state.get("budget") or {}:
        note(owner)
    return owners


def fresh_owner(state):
    taken = set(named_owners(state))
    name = "__reference_fresh_player__"
    while name in taken:
        name += "_"
    return name


# --------------------------------------------------------------------------
# The exact voyage evaluation
# --------------------------------------------------------------------------


def _literal_rolls(positions):
    """Every die outcome of one roll, unmerged, each with its probability as a Fraction."""
    moving = sum(1 for p in positions if p != ARRIVED)
    for new, _weight in _all_rolls(positions):
        yield new, Fraction(1, 6**moving)


def _literal_last_rolls(positions):
    for new, weight in _literal_rolls(positions):
        yield tuple(final_category(p) for p in new), weight


def _expected_vector(state, owners, literal=False):
    """Exact expectations for `state`: (incomes by owner, boat table).

    `owners` fixes the income vector layout (must contain every owner named
    in the state; may contain more, who then simply get 0).

    With `literal`, every die outcome is enumerated on its own with Fraction
    probabilities (no merging, no integer scaling): the brute force exactly as
    specified, much slower, used to measure the engine against it.
    """
    rolls = _literal_rolls if literal else roll_outcomes
    last_rolls = _literal_last_rolls if literal else last_roll_outcomes
    thirteen, variant = _rules(state)
    goods = _sailing_goods(state)
    assert len(goods) == 3
    seats = tuple(len(SEAT_COSTS[g]) for g in goods)
    values = tuple(CARGO_VALUE[g] for g in goods)
    index = {owner: k for k, owner in enumerate(owners)}
    n_owners = len(owners)
    length = n_owners + 3 * 3 + n_owners

    # Part 3: under "wealth" a good ending in Manila moves one step up the
    # price track, and every share of it gains that much for its holder.
    wealth = state.get("objective", "income") == "wealth"
    prices = state.get("prices") or {}
    holdings = state.get("shares") or {}

    def rise(good):
        price = prices.get(good, 0)
        return PRICE_STEPS[PRICE_STEPS.index(price) + 1] - price

    port_owners = tuple(_spot_owner(state, s) for s in PORT_SPOTS)
    shipyard_owners = tuple(_spot_owner(state, s) for s in SHIPYARD_SPOTS)
    insurer = _spot_owner(state, "insurance")
    small_pilot = _spot_owner(state, "pilot_small")
    large_pilot = _spot_owner(state, "pilot_large")

    # ---------------- settlement ----------------
    def settle(destinations, plundered, crews, pirates):
        """Voyage income (integers: every share divides exactly) + boat flags."""
        income = [0] * n_owners

        def pay(owner, amount):
            income[index[owner]] += amount

        for b in range(3):
            if plundered[b]:
                # crew get nothing; pirates on the ship split the cargo
                assert values[b] % len(pirates) == 0
                for pirate in pirates:
                    pay(pirate, values[b] // len(pirates))
            elif destinations[b] == MANILA and crews[b]:
                assert values[b] % len(crews[b]) == 0
                for member in crews[b]:  # one share per seat held
                    pay(member, values[b] // len(crews[b]))

        in_manila = sum(1 for d in destinations if d == MANILA)
        in_shipyard = 3 - in_manila
        for slot in range(3):
            if in_manila >= slot + 1 and port_owners[slot] is not None:
                pay(port_owners[slot], SLOT_PAYOUT[slot])
            if in_shipyard >= slot + 1 and shipyard_owners[slot] is not None:
                pay(shipyard_owners[slot], SLOT_PAYOUT[slot])
        if insurer is not None:
            pay(insurer, -INSURER_PAYS[in_shipyard])

        flags = []
        for b in range(3):
            flags += [
                int(destinations[b] == MANILA and not plundered[b]),
                int(destinations[b] == SHIPYARD and not plundered[b]),
                int(plundered[b]),
            ]
        payoff = list(income)
        if wealth:
            for b in range(3):
                if destinations[b] == MANILA:  # plundered and sent there included
                    for owner, held in holdings.items():
                        payoff[index[owner]] += held.get(goods[b], 0) * rise(goods[b])
        return tuple(payoff) + tuple(flags) + tuple(income)

    # ---------------- after roll 3 ----------------
    @cache
    def ending(categories, crews, pirates):
        """Value (scale 1) once roll 3 has been made."""
        on13 = [b for b in range(3) if categories[b] == CAT_ON_13]
        base = [MANILA if c == CAT_ARRIVED else SHIPYARD for c in categories]
        if pirates and on13:
            plundered = tuple(b in on13 for b in range(3))
            captain = index[pirates[0]]
            best = None
            # Manila before shipyard, boats in good order, first boat most significant
            for choice in product((MANILA, SHIPYARD), repeat=len(on13)):
                destinations = list(base)
                for b, d in zip(on13, choice):
                    destinations[b] = d
                vector = settle(destinations, plundered, crews, pirates)
                if best is None or vector[captain] > best[captain]:
                    best = vector
            return best
        destinations = list(base)
        for b in on13:
            destinations[b] = MANILA if thirteen == "port" else SHIPYARD
        return settle(destinations, (False, False, False), crews, pirates)

    @cache
    def roll_3(positions, crews, pirates):
        """Value before roll 3, pilots done (scale 216)."""
        return weighted_sum(
            ((weight, ending(categories, crews, pirates)) for categories, weight in last_rolls(positions)),
            length,
        )

    # ---------------- pilots ----------------
    def moved(positions, moves):
        """Apply {boat: delta}; None if not allowed (arrived boat, below 0)."""
        new = list(positions)
        for boat, delta in moves:
            if positions[boat] == ARRIVED:
                return None
            if positions[boat] + delta < 0:
                return None
            new[boat] = advance(positions[boat], delta)
        return tuple(new)

    def small_pilot_options(positions):
        options = [positions]  # no move
        for boat in range(3):
            for delta in (+1, -1):
                new = moved(positions, [(boat, delta)])
                if new is not None:
                    options.append(new)
        return options

    def large_pilot_options(positions):
        options = [positions]  # no move
        for boat in range(3):
            for delta in (+1, -1, +2, -2):
                new = moved(positions, [(boat, delta)])
                if new is not None:
                    options.append(new)
        for i in range(3):
            for j in range(i + 1, 3):
                for di, dj in ((+1, +1), (+1, -1), (-1, +1), (-1, -1)):
                    new = moved(positions, [(i, di), (j, dj)])
                    if new is not None:
                        options.append(new)
        return options

    def best_option(owner, vectors):
        """First vector maximising owner's income (strict > scanning in order)."""
        k = index[owner]
        best = None
        for vector in vectors:
            if best is None or vector[k] > best[k]:
                best = vector
        return best

    @cache
    def large_pilot_stage(positions, crews, pirates):
        if large_pilot is None:
            return roll_3(positions, crews, pirates)
        return best_option(large_pilot, (roll_3(p, crews, pirates) for p in large_pilot_options(positions)))

    @cache
    def small_pilot_stage(positions, crews, pirates):
        if small_pilot is None:
            return large_pilot_stage(positions, crews, pirates)
        return best_option(
            small_pilot, (large_pilot_stage(p, crews, pirates) for p in small_pilot_options(positions))
        )

    # ---------------- boarding (after roll 2) ----------------
    def boarding_options(positions, crews, pirate, protected_seat):
        """[(new_crews, seat_taken)] for boarding options other than staying."""
        options = []
        on13 = [b for b in range(3) if positions[b] == LAST_SPACE]
        with_free_seat = [b for b in on13 if len(crews[b]) < seats[b]]
        for b in with_free_seat:
            new = list(crews)
            new[b] = crews[b] + (pirate,)
            options.append((tuple(new), (b, len(crews[b]))))
        if variant and not with_free_seat:
            for b in on13:  # all full here
                for seat in reversed(range(len(crews[b]))):  # rearmost first
                    if (b, seat) == protected_seat:
                        continue
                    new = list(crews)
                    new[b] = crews[b][:seat] + (pirate,) + crews[b][seat + 1 :]
                    options.append((tuple(new), (b, seat)))
        return options

    def second_pirate_decides(positions, crews, on_ship, second, protected_seat):
        """`second` is the last pirate in `on_ship` (or None)."""
        stay = small_pilot_stage(positions, crews, on_ship)
        if second is None:
            return stay
        candidates = [stay]
        for new_crews, _seat in boarding_options(positions, crews, second, protected_seat):
            candidates.append(small_pilot_stage(positions, new_crews, on_ship[:-1]))
        return best_option(second, candidates)

    @cache
    def after_roll_2(positions, crews, pirates):
        if not pirates or LAST_SPACE not in positions:
            return small_pilot_stage(positions, crews, pirates)
        first = pirates[0]
        second = pirates[1] if len(pirates) > 1 else None
        candidates = [second_pirate_decides(positions, crews, pirates, second, None)]
        for new_crews, seat in boarding_options(positions, crews, first, None):
            # the captain left the ship; pirate_2 (if any) becomes captain
            candidates.append(second_pirate_decides(positions, new_crews, pirates[1:], second, seat))
        return best_option(first, candidates)

    # ---------------- rolls 1 and 2 ----------------
    @cache
    def before_roll(r, positions, crews, pirates):
        """Value before roll r (scale 216 ** (4 - r))."""
        if r == 3:
            return small_pilot_stage(positions, crews, pirates)
        if r == 2:
            after = after_roll_2
        else:

            def after(p, c, q):  # after roll 1 nothing happens
                return before_roll(2, p, c, q)

        return weighted_sum(
            ((weight, after(new, crews, pirates)) for new, weight in rolls(positions)), length
        )

    # ---------------- top level ----------------
    positions = tuple(state["boats"][g]["position"] for g in goods)
    crews = tuple(tuple(state["boats"][g]["crew"]) for g in goods)
    pirates = tuple(o for o in (_spot_owner(state, s) for s in PIRATE_SPOTS) if o is not None)
    r = state["next_roll"]
    scaled = before_roll(r, positions, crews, pirates)
    scale = 1 if literal else ROLL_WEIGHT ** (4 - r)
    exact = [Fraction(x, scale) for x in scaled]
    payoffs = {owner: exact[index[owner]] for owner in owners}
    incomes = {owner: exact[n_owners + 9 + index[owner]] for owner in owners}
    boats = {}
    for b, good in enumerate(goods):
        port, shipyard, plundered = exact[n_owners + 3 * b : n_owners + 3 * b + 3]
        boats[good] = {"port": port, "shipyard": shipyard, "plundered": plundered}
    return payoffs, incomes, boats


def income_reference(state):
    """Expected voyage income of every owner named in the state."""
    _payoffs, incomes, _boats = _expected_vector(state, named_owners(state))
    return incomes


def payoff_reference(state):
    """Expected payoff (income, plus share gains under "wealth") of every owner named."""
    payoffs, _incomes, _boats = _expected_vector(state, named_owners(state))
    return payoffs


def boat_table_reference(state):
    """Per good: P(port, crew paid), P(shipyard, not plundered), P(plundered)."""
    _payoffs, _incomes, boats = _expected_vector(state, named_owners(state))
    return boats


# --------------------------------------------------------------------------
# Spot table
# --------------------------------------------------------------------------


def accomplices_held(state, player):
    seats = sum(state["boats"][g]["crew"].count(player) for g in _sailing_goods(state))
    spots = sum(1 for owner in (state.get("spots") or {}).values() if owner == player)
    return seats + spots


def legal_spots(state, player):
    """[(spot_id, cost, state_with_the_accomplice)] in canonical order, within the
    player's budget; a blind passenger (rule 12) may take any free spot but
    insurance and pays everything they have."""
    free = free_spots(state, player)
    budget = (state.get("budget") or {}).get(player)
    if budget is None:
        return free
    paying = [entry for entry in free if entry[0] != "insurance"]
    if paying and min(cost for _spot, cost, _new in paying) > budget:
        return [(spot, budget, new) for spot, _cost, new in paying]
    return [entry for entry in free if entry[1] <= budget]


def free_spots(state, player):
    """[(spot_id, cost, state_with_the_accomplice)] in canonical order, budget aside."""
    limit = 4 if state.get("players") == 3 else 3
    if accomplices_held(state, player) >= limit:
        return []
    result = []
    for good in _sailing_goods(state):
        crew = state["boats"][good]["crew"]
        if len(crew) < len(SEAT_COSTS[good]):
            new = copy.deepcopy(state)
            new["boats"][good]["crew"].append(player)
            result.append((good, SEAT_COSTS[good][len(crew)], new))
    for spot in NON_CARGO_SPOTS:
        if _spot_owner(state, spot) is not None:
            continue
        if spot == "pirate_2" and _spot_owner(state, "pirate_1") is None:
            continue
        new = copy.deepcopy(state)
        new["spots"] = dict(new.get("spots") or {})
        new["spots"][spot] = player
        result.append((spot, SPOT_COSTS[spot], new))
    return result


def evaluate_reference(state, literal=False):
    player = state.get("player")
    if player is None:
        player = fresh_owner(state)
    owners = named_owners(state)
    layout = owners + ([player] if player not in owners else [])

    payoffs, incomes, boats = _expected_vector(state, layout, literal)
    spots = {}
    for spot, cost, with_spot in legal_spots(state, player):
        payoffs_with, _, _ = _expected_vector(with_spot, layout, literal)
        spots[spot] = {
            "cost": cost,
            "expected_net": payoffs_with[player] - payoffs[player] - cost,
        }
    return {
        "spots": spots,
        "boats": boats,
        "incomes": {owner: incomes[owner] for owner in owners},
        "payoffs": {owner: payoffs[owner] for owner in owners},
    }


# --------------------------------------------------------------------------
# Sanity checks
# --------------------------------------------------------------------------

if __name__ == "__main__":
    import time

    def make_state(next_roll, positions, crews=None, spots=None, rules=None, **extra):
        crews = crews or {}
        state = {
            "next_roll": next_roll,
            "boats": {g: {"position": p, "crew": list(crews.get(g, []))} for g, p in positions.items()},
            "spots": dict(spots or {}),
        }
        if rules is not None:
            state["rules"] = rules
        state.update(extra)
        return state

    # 1. pass / on-13 probabilities with three rolls left
    passes = [35, 56, 81, 108, 135, 160]
    on13 = [21, 25, 27, 27, 25, 21]
    for s in range(6):
        for rule in ("shipyard", "port"):
            st = make_state(
                1,
                {"ginseng": s, "nutmeg": 0, "silk": 0},
                rules={"thirteen_after_last_roll": rule, "pirate_variant": False},
            )
            table = boat_table_reference(st)["ginseng"]
            want = Fraction(passes[s] + (on13[s] if rule == "port" else 0), 216)
            assert table["port"] == want, (s, rule, table)
            assert table["plundered"] == 0
            assert sum(table.values()) == 1

    # 2. the worked example of docs/numbers.md
    example = make_state(1, {"ginseng": 3, "silk": 2, "nutmeg": 4})
    t0 = time.perf_counter()
    result = evaluate_reference(example)
    t_example = time.perf_counter() - t0
    assert result["spots"]["ginseng"]["expected_net"] == Fraction(41, 4)
    assert result["spots"]["port_a"]["expected_net"] == Fraction(41, 24)
    arrive = {g: result["boats"][g]["port"] for g in ("ginseng", "nutmeg", "silk")}
    assert arrive == {"ginseng": Fraction(135, 216), "nutmeg": Fraction(160, 216), "silk": Fraction(108, 216)}
    p_k = [Fraction(0)] * 4  # independent boats
    for outcome in product((0, 1), repeat=3):  # 1 = shipyard
        pr = Fraction(1)
        for good, in_yard in zip(("ginseng", "nutmeg", "silk"), outcome):
            pr *= (1 - arrive[good]) if in_yard else arrive[good]
        p_k[sum(outcome)] += pr
    insurance = result["spots"]["insurance"]["expected_net"]
    assert insurance == 10 - 6 * p_k[1] - 14 * p_k[2] - 29 * p_k[3]
    assert abs(float(insurance) - 2.1226851) < 1e-7, float(insurance)
    assert result["incomes"] == {}
    assert result["spots"]["pirate_1"]["cost"] == 5
    assert "pirate_2" not in result["spots"]
    assert set(result["spots"]) == {
        "ginseng",
        "nutmeg",
        "silk",
        *PORT_SPOTS,
        *SHIPYARD_SPOTS,
        "pirate_1",
        "pilot_small",
        "pilot_large",
        "insurance",
    }

    # 3. pilots: small pilot pushes its own boat from 12 onto 13 (it then
    #    surely arrives), under the "shipyard" reading without it 1/6 fails.
    st = make_state(
        3,
        {"ginseng": 12, "nutmeg": 0, "silk": 0},
        crews={"ginseng": ["red"]},
        spots={"pilot_small": "red"},
        rules={"thirteen_after_last_roll": "shipyard"},
    )
    assert income_reference(st)["red"] == 18
    st["spots"] = {}
    assert income_reference(st)["red"] == 15

    # 4. plunder: a lone pirate at roll 3 with a boat on 12 (arrives unless
    #    it rolls 1 -> 13) and nothing else of its own: income 18/6 = 3.
    st = make_state(
        3, {"ginseng": 12, "nutmeg": 0, "silk": 0}, crews={"ginseng": ["red"]}, spots={"pirate_1": "blue"}
    )
    inc = income_reference(st)
    assert inc == {"red": 15, "blue": 3}, inc
    boats = boat_table_reference(st)
    assert boats["ginseng"] == {"port": Fraction(5, 6), "shipyard": 0, "plundered": Fraction(1, 6)}

    # 5. the captain sends a plundered boat where his own spots profit.
    #    ginseng on 12 arrives (5/6) or is plundered on 13 (1/6); the other
    #    two boats from 0 surely end in the shipyard.
    st = make_state(3, {"ginseng": 12, "nutmeg": 0, "silk": 0}, spots={"pirate_1": "blue", "port_a": "blue"})
    inc = income_reference(st)
    assert inc["blue"] == Fraction(5, 6) * 6 + Fraction(1, 6) * (18 + 6), inc
    st["spots"] = {"pirate_1": "blue", "shipyard_c": "blue"}
    inc = income_reference(st)
    assert inc["blue"] == Fraction(1, 6) * (18 + 15), inc
    assert boat_table_reference(st)["ginseng"]["plundered"] == Fraction(1, 6)

    # 6. boarding after roll 2: boat on 12 before roll 2 lands on 13 w.p. 1/6
    st = make_state(
        2,
        {"ginseng": 12, "nutmeg": 0, "silk": 0},
        crews={"ginseng": ["red", "red", "red"]},
        spots={"pirate_1": "blue"},
        rules={"thirteen_after_last_roll": "port", "pirate_variant": True},
    )
    inc = income_reference(st)
    # on 13 after roll 2 (1/6): full boat, variant: blue displaces a red seat
    # (rearmost first; all equal) and the boat surely arrives: blue 6, red 12.
    assert inc["blue"] == Fraction(1, 6) * 6
    assert inc["red"] == Fraction(5, 6) * 18 + Fraction(1, 6) * 12
    st["rules"]["pirate_variant"] = False
    inc = income_reference(st)
    # base rules: blue stays, boat surely leaves 13 in roll 3 -> no plunder
    assert inc == {"red": 18, "blue": 0}, inc

    # 7. probabilities always sum to 1 and have denominators dividing 6**9
    complex_state = make_state(
        2,
        {"jade": 9, "nutmeg": 11, "silk": 7},
        crews={"jade": ["red", "blue"], "nutmeg": ["green"], "silk": ["blue", "red", "red"]},
        spots={
            "pirate_1": "green",
            "pirate_2": "red",
            "pilot_small": "blue",
            "pilot_large": "green",
            "insurance": "red",
            "port_b": "blue",
            "shipyard_a": "green",
        },
        player="blue",
    )
    t0 = time.perf_counter()
    inc2 = income_reference(complex_state)
    boats2 = boat_table_reference(complex_state)
    t_roll2 = time.perf_counter() - t0
    for table in boats2.values():
        assert sum(table.values()) == 1
        assert all((6**9) % v.denominator == 0 for v in table.values())

    roll3_state = copy.deepcopy(complex_state)
    roll3_state["next_roll"] = 3
    for good, position in {"jade": 12, "nutmeg": 11, "silk": 8}.items():
        roll3_state["boats"][good]["position"] = position
    t0 = time.perf_counter()
    income_reference(roll3_state)
    boat_table_reference(roll3_state)
    t_roll3 = time.perf_counter() - t0

    roll1_state = dict(complex_state, next_roll=1)
    roll1_state["boats"] = {
        "jade": {"position": 3, "crew": ["red", "blue"]},
        "nutmeg": {"position": 4, "crew": ["green"]},
        "silk": {"position": 2, "crew": ["blue", "red", "red"]},
    }
    t0 = time.perf_counter()
    income_reference(roll1_state)
    boat_table_reference(roll1_state)
    t_roll1 = time.perf_counter() - t0

    t0 = time.perf_counter()
    full1 = evaluate_reference(
        make_state(
            1,
            {"ginseng": 3, "silk": 2, "nutmeg": 4},
            crews={"ginseng": ["red"]},
            spots={"pirate_1": "green", "pilot_small": "blue", "pilot_large": "green"},
            player="red",
        )
    )
    t_full1 = time.perf_counter() - t0

    print("all sanity checks passed")
    print("timings (incomes + boat table, each recomputed from scratch):")
    print(f"  next_roll 3, both pilots, two pirates : {t_roll3:.3f} s")
    print(f"  next_roll 2, both pilots, two pirates : {t_roll2:.3f} s")
    print(f"  next_roll 1, both pilots, two pirates : {t_roll1:.3f} s")
    print(f"  full evaluate, docs/numbers.md example: {t_example:.3f} s")
    print(f"  full evaluate, next_roll 1 + pilots   : {t_full1:.3f} s ({len(full1['spots'])} spots)")
