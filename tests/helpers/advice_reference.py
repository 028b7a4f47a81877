"""Independent brute-force reference for advice (positions: a voyage state plus a
moment), written from the contract in docs/advice.md.

Placement: every sequence of choices of the players still to move in the round is
enumerated (decline, or every legal spot); every end of round is valued by the plain
reference evaluation (reference.py), and each mover keeps the first choice of highest
payoff minus cost (decline first, then the canonical spot order): max^n by brute force.
Pilots and boarding: every move is enumerated here and each resulting voyage is valued
by the reference.
"""

import copy

from helpers.reference import GOODS, SEAT_COSTS, _expected_vector, accomplices_held, legal_spots, named_owners

LIMIT = {3: 4}  # accomplices per player by player count (default 3)


def _split(position):
    state = {k: v for k, v in position.items() if k != "moment"}
    state.setdefault("spots", {})
    return state, position["moment"]


def _layout(state, names):
    owners = named_owners(state)
    return owners + [n for n in names if n not in owners]


def placement_reference(position):
    state, moment = _split(position)
    order, to_move = moment["order"], moment["to_move"]
    limit = LIMIT.get(state.get("players"), 3)
    hands = moment.get("accomplices", {})
    declined = moment.get("declined", [])

    def hand(p):
        return hands.get(p, max(0, limit - accomplices_held(state, p)))

    later = order[order.index(to_move) :]
    movers = [p for p in later if p == to_move or (p not in declined and hand(p) > 0)]
    layout = _layout(state, order)
    leaves = {}

    def payoffs(st):
        key = repr(st)
        if key not in leaves:
            leaves[key] = _expected_vector(st, layout)[0]
        return leaves[key]

    def options(st, m):
        return [("decline", 0, st)] + legal_spots(st, m)

    def solve(st, i):
        """(payoffs at the end, line) of the best play from turn i on."""
        if i == len(movers):
            return payoffs(st), []
        m = movers[i]
        best = None
        for name, cost, new in options(st, m):
            pay, line = solve(new, i + 1)
            if best is None or pay[m] - cost > best[0]:
                best = (pay[m] - cost, pay, [[m, name]] + line)
        return best[1], best[2]

    m = movers[0]
    results = {name: (cost, solve(new, 1)) for name, cost, new in options(state, m)}
    declined_value = results["decline"][1][0][m]
    table = {
        name: {"cost": cost, "expected_net": pay[m] - cost - declined_value}
        for name, (cost, (pay, _line)) in results.items()
    }
    best = None
    for name, entry in table.items():
        if best is None or entry["expected_net"] > table[best]["expected_net"]:
            best = name
    pay, line = results[best][1]
    return {
        "to_move": m,
        "options": table,
        "best": best,
        "line": [[m, best]] + line,
        "payoffs": {o: pay[o] for o in layout},
    }


# --- pilots --------------------------------------------------------------------------


def _moved(state, moves):
    new = copy.deepcopy(state)
    for good, delta in moves:
        pos = new["boats"][good]["position"]
        if pos == "arrived" or pos + delta < 0:
            return None
        new["boats"][good]["position"] = "arrived" if pos + delta > 13 else pos + delta
    return new


def _pilot_moves(goods, large):
    """(name, moves) in the canonical order of the rules."""
    out = [("none", [])]
    for g in goods:
        for d in (1, -1, 2, -2) if large else (1, -1):
            out.append((f"{g}{d:+d}", [(g, d)]))
    if large:
        for i, a in enumerate(goods):
            for b in goods[i + 1 :]:
                for da, db in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                    out.append((f"{a}{da:+d} {b}{db:+d}", [(a, da), (b, db)]))
    return out


def _decide(decider, options, layout):
    """options: [(name, payoffs, reply)] -> the contract's answer for the decider."""
    first = options[0][1][decider]
    best = None
    for name, pay, reply in options:
        if best is None or pay[decider] > best[1][decider]:
            best = (name, pay, reply)
    return {
        "to_move": decider,
        "options": {name: {"cost": 0, "expected_net": pay[decider] - first} for name, pay, _ in options},
        "best": best[0],
        "line": [[decider, best[0]]] + best[2],
        "payoffs": {o: best[1][o] for o in layout},
    }


def pilot_reference(position):
    state, moment = _split(position)
    layout = _layout(state, [])
    goods = [g for g in GOODS if g in state["boats"]]

    def decide(st, spot):
        decider = st["spots"][spot]
        options = []
        for name, moves in _pilot_moves(goods, spot == "pilot_large"):
            new = _moved(st, moves)
            if new is None:
                continue
            del new["spots"][spot]
            if spot == "pilot_small" and "pilot_large" in new["spots"]:
                reply = decide(new, "pilot_large")
                options.append((name, reply["payoffs"], reply["line"][:1]))
            else:
                options.append((name, _expected_vector(new, layout)[0], []))
        return _decide(decider, options, layout)

    return decide(state, moment["kind"])


# --- boarding -------------------------------------------------------------------------


def boarding_reference(position):
    state, moment = _split(position)
    layout = _layout(state, [])
    goods = [g for g in GOODS if g in state["boats"]]
    variant = (state.get("rules") or {}).get("pirate_variant", False)

    def leave(st, spot):
        if spot == "pirate_1":
            st["spots"].pop("pirate_1")
            if "pirate_2" in st["spots"]:
                st["spots"]["pirate_1"] = st["spots"].pop("pirate_2")
        else:
            st["spots"].pop("pirate_2")

    def decide(st, spot, guard, last):
        pirate = st["spots"][spot]
        on13 = [g for g in goods if st["boats"][g]["position"] == 13]
        free = [g for g in on13 if len(st["boats"][g]["crew"]) < len(SEAT_COSTS[g])]
        choices = [("stay", st, None)]
        for g in on13:
            crew = st["boats"][g]["crew"]
            if g in free:
                new = copy.deepcopy(st)
                new["boats"][g]["crew"].append(pirate)
                leave(new, spot)
                choices.append((f"board {g}", new, (g, len(crew))))
            elif variant and not free:
                for seat in reversed(range(len(crew))):
                    if (g, seat) == guard:
                        continue
                    new = copy.deepcopy(st)
                    new["boats"][g]["crew"][seat] = pirate
                    leave(new, spot)
                    choices.append((f"board {g} displace {seat + 1}", new, (g, seat)))
        options = []
        for name, new, taken in choices:
            next_spot = "pirate_2" if taken is None else "pirate_1"
            if not last and next_spot in new["spots"]:
                reply = decide(new, next_spot, taken, True)
                options.append((name, reply["payoffs"], reply["line"][:1]))
            else:
                options.append((name, _expected_vector(new, layout)[0], []))
        return _decide(pirate, options, layout)

    to_move = moment.get("to_move", state["spots"]["pirate_1"])
    protected = moment.get("protected")
    guard = (protected["good"], protected["seat"] - 1) if protected else None
    if to_move != state["spots"]["pirate_1"]:
        return decide(state, "pirate_2", None, True)
    return decide(state, "pirate_1", guard, guard is not None or "pirate_2" not in state["spots"])


def advice_reference(position):
    kind = position["moment"]["kind"]
    if kind == "placement":
        return placement_reference(position)
    if kind.startswith("pilot"):
        return pilot_reference(position)
    return boarding_reference(position)
