"""Every rule of docs/rules.md in a scripted game situation.

Chance is scripted too: "deal silk" deals the next share, "roll 3-5-1" rolls the dice of
the sailing boats in good order (a boat in Manila rolls no die; its die reads 1).
"""

import itertools
from fractions import Fraction

import pytest

import manila
from helpers.reference import payoff_reference
from manila import _core
from manila.game import Game, IllegalActionError

# p0: ginseng, nutmeg; p1: ginseng, nutmeg; p2: silk, jade; p3: silk, jade.
DEAL = {
    3: ["ginseng", "nutmeg", "silk", "jade", "ginseng", "nutmeg"],
    4: ["ginseng", "nutmeg", "ginseng", "nutmeg", "silk", "jade", "silk", "jade"],
    5: ["ginseng", "nutmeg", "ginseng", "nutmeg", "silk", "jade", "silk", "jade", "ginseng", "nutmeg"],
}


# A voyage state about to make roll 3, for the rules a state reads.
LATE = {"next_roll": 3, "boats": {g: {"position": 12} for g in ("ginseng", "silk", "jade")}}


def new(players=4, rules=None, deal=None):
    state = Game(players, 0, rules).new_initial_state()
    for good in deal or DEAL[players]:
        state.apply_action("deal " + good)
    return state


def play(state, *actions):
    for a in actions:
        state.apply_action(a)


def snap(state):
    return state.to_dict()


def cash(state):
    return [p["cash"] for p in snap(state)["players"]]


def money(state):
    d = snap(state)
    return sum(p["cash"] for p in d["players"]) + d["bank"]


def no_bids(state):
    while state.phase == "auction":
        state.apply_action("pass")


def load(state, buy="buy nothing", leave="jade", start="start 5-4-0"):
    """Harbour master's duties: by default ginseng on 5, nutmeg on 4, silk on 0."""
    play(state, buy, f"leave {leave} home", start)


def rest_of_voyage(state, rolls=("roll 1-1-1",) * 3):
    """Everyone declines; the given rolls; ends at the next auction (or the game's end)."""
    rolls = list(rolls)
    while state.phase not in ("auction", "game_over"):
        if state.phase == "placement":
            state.apply_action("decline")
        elif state.is_chance_node():
            state.apply_action(rolls.pop(0))
        else:
            raise AssertionError(f"unexpected decision in {state.phase}")


def declines(state):
    """Everyone still placing declines."""
    while state.phase == "placement":
        state.apply_action("decline")


def rejects(state, action, *words):
    """The action is illegal, the reason names the rule, and nothing changed."""
    before, table = state.serialize(), snap(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)
    for w in words:
        assert w in info.value.reason, info.value.reason
    assert state.serialize() == before and snap(state) == table
    assert state.illegal_reason(action) == info.value.reason
    return info.value.reason


# ------------------------------------------------------------------ set-up
@pytest.mark.parametrize("players", [3, 4, 5])
def test_set_up(players):
    state = Game(players).new_initial_state()
    assert state.is_chance_node() and state.phase == "deal"
    assert state.chance_outcomes(exact=True) == [
        (state.game.action_id(f"deal {g}"), Fraction(1, 4)) for g in manila.GOODS
    ]
    state.apply_action("deal ginseng")
    odds = dict(state.chance_outcomes(exact=True))
    assert odds[state.game.action_id("deal ginseng")] == Fraction(2, 11)
    assert sum(odds.values()) == 1
    state = new(players)
    d = snap(state)
    assert [p["cash"] for p in d["players"]] == [30] * players and d["bank"] == 0
    assert all(sum(p["shares"].values()) == 2 for p in d["players"])
    assert sum(d["supply"].values()) == 20 - 2 * players
    for g in manila.GOODS:
        assert d["supply"][g] + sum(p["shares"][g] for p in d["players"]) == 5
    assert d["prices"] == dict.fromkeys(manila.GOODS, 0)
    assert state.phase == "auction" and state.current_player() == 0
    assert state.game.max_accomplices() == (4 if players == 3 else 3)


def test_the_tables_the_engine_exports_are_the_rules():
    # Python reads these from the engine; here they are stated from docs/rules.md instead.
    starts = [t for t in itertools.product(range(6), repeat=3) if sum(t) == 9]
    assert list(_core.START_SPACES) == starts == [tuple(_core.start_triple(k)) for k in range(len(starts))]
    assert [_core.accomplices_per_player(n) for n in (3, 4, 5)] == [4, 3, 3]
    assert _core.ACCOMPLICES == 3  # when the player count is not known
    assert Game(4).max_chance_outcomes() == 6**3
    # The price track 0, 5, 10, 20, 30: a share gains the next step's rise, nothing at the top.
    assert [_core.price_rise(p) for p in (0, 5, 10, 20, 30)] == [5, 5, 10, 10, 0]
    assert manila.VoyageState.from_dict({**LATE, "players": 3}).max_accomplices == 4
    assert manila.VoyageState.from_dict(LATE).max_accomplices == 3
    for bad in ({"pirate_variant": 1}, {"thirteen_after_last_roll": "sea"}, {"pilots": True}):
        # One reading of the rule options: the game and a voyage state say the same.
        with pytest.raises(ValueError) as game_error:
            Game(4, 0, bad)
        assert [p.line() for p in manila.validate({**LATE, "rules": bad})] == [str(game_error.value)]


def test_deal_only_from_the_shuffled_three_of_each_good():
    state = Game(4).new_initial_state()
    play(state, "deal jade", "deal jade", "deal jade")
    rejects(state, "deal jade", "no jade share is left")
    rejects(state, "bid 3", "chance")
    assert [a for a, _ in state.chance_outcomes()] == [
        state.game.action_id(f"deal {g}") for g in ("ginseng", "nutmeg", "silk")
    ]


# ------------------------------------------------------------------ rule 1: auction
def test_auction_bids_passes_and_payment():
    state = new()
    assert state.current_player() == 0  # the first auction is opened by player 0
    names = state.legal_action_names()
    assert names[0] == "pass" and names[1] == "bid 1" and "bid 54" in names and "bid 55" not in names
    play(state, "bid 5")
    rejects(state, "bid 5", "higher than the current bid of 5", "rule 1")
    rejects(state, "bid 55", "may not exceed cash plus 12 per unmortgaged share, 54", "rule 1")
    play(state, "bid 10", "pass")
    assert snap(state)["auction"]["bidding"] == [0, 1, 3]  # p2 passed: out of this auction
    play(state, "pass")
    assert state.current_player() == 0
    play(state, "pass")  # p1 is the last bidder
    d = snap(state)
    assert d["harbour_master"] == 1 and state.phase == "buy_share" and state.current_player() == 1
    assert cash(state) == [30, 20, 30, 30] and d["bank"] == 10


def test_no_bid_in_the_first_voyage_makes_player_0_harbour_master_for_free():
    state = new()
    no_bids(state)
    assert snap(state)["harbour_master"] == 0 and cash(state) == [30] * 4
    assert state.current_player() == 0 and state.phase == "buy_share"


def test_later_auctions_are_opened_by_the_harbour_master_who_keeps_the_office_without_bids():
    state = new()
    play(state, "pass", "bid 2", "pass", "pass")
    assert snap(state)["harbour_master"] == 1
    load(state)
    rest_of_voyage(state)
    assert state.voyage_number == 2 and state.current_player() == 1
    before = cash(state)
    no_bids(state)
    assert snap(state)["harbour_master"] == 1 and cash(state) == before


def test_bid_cap_counts_unmortgaged_shares_and_payment_forces_mortgages():
    state = new()

    def top():
        return max(int(n.split()[1]) for n in state.legal_action_names() if n.startswith("bid "))

    play(state, "mortgage")
    assert cash(state)[0] == 42 and snap(state)["players"][0]["mortgaged"] == 1
    assert state.current_player() == 0 and top() == 54
    play(state, "mortgage")
    assert top() == 54 and "mortgage" not in state.legal_action_names()
    play(state, "repay")
    assert cash(state)[0] == 39 and top() == 51
    play(state, "bid 51", "pass", "pass", "pass")
    p0 = snap(state)["players"][0]
    assert p0["cash"] == 0 and p0["mortgaged"] == 2  # 39 + 12 (forced) - 51
    assert money(state) == 120


# ------------------------------------------------------------------ rule 2: harbour master
def test_share_purchase_costs_max_of_5_and_the_price():
    state = new()
    no_bids(state)
    names = state.legal_action_names()
    assert names[-5:] == ["buy ginseng", "buy nutmeg", "buy silk", "buy jade", "buy nothing"]
    play(state, "buy silk")
    d = snap(state)
    assert d["players"][0]["shares"]["silk"] == 1 and d["supply"]["silk"] == 2
    assert cash(state)[0] == 25 and d["bank"] == 5
    assert state.phase == "choose_goods"
    # Two voyages in which every boat reaches Manila: the prices stand at 10.
    for _ in range(2):
        play(state, "leave jade home", "start 5-4-0")
        rest_of_voyage(state, ["roll 6-6-6", "roll 6-6-6", "roll 1-1-6"])
        no_bids(state)
        if state.voyage_number == 3:
            break
        play(state, "buy nothing")
    assert snap(state)["prices"] == {"ginseng": 10, "nutmeg": 10, "silk": 10, "jade": 0}
    before = cash(state)[0]
    play(state, "buy ginseng")
    assert cash(state)[0] == before - 10


def test_share_supply_runs_out():
    deal = ["jade", "jade", "jade", "ginseng", "nutmeg", "silk", "ginseng", "nutmeg"]
    state = new(deal=deal)
    assert snap(state)["supply"]["jade"] == 2
    for _ in range(2):
        no_bids(state)
        load(state, buy="buy jade", leave="ginseng")
        rest_of_voyage(state)
    no_bids(state)
    assert snap(state)["supply"]["jade"] == 0
    rejects(state, "buy jade", "no jade share is left in the supply", "rule 2a")


def test_goods_and_start_spaces():
    state = new()
    no_bids(state)
    play(state, "buy nothing")
    assert state.legal_action_names() == ["mortgage"] + [f"leave {g} home" for g in manila.GOODS]
    rejects(state, "start 5-4-0", "choose the good that stays home")
    play(state, "leave nutmeg home")
    starts = [n for n in state.legal_action_names() if n.startswith("start")]
    assert len(starts) == 25
    triples = [tuple(map(int, n.split()[1].split("-"))) for n in starts]
    assert all(sum(t) == 9 and all(0 <= x <= 5 for x in t) for t in triples)
    assert len(set(triples)) == 25
    assert state.action_to_string("start 5-4-0") == "start ginseng 5, silk 4, jade 0"
    play(state, "start 5-4-0")
    boats = snap(state)["boats"]
    assert {g: b["position"] for g, b in boats.items()} == {"ginseng": 5, "silk": 4, "jade": 0}


# ------------------------------------------------------------------ rules 3-4: placement
def test_placement_order_costs_spots_and_declining():
    state = new()
    play(state, "pass", "pass", "bid 1", "pass")
    assert snap(state)["harbour_master"] == 2
    load(state)
    assert state.current_player() == 2  # the harbour master places first
    play(state, "place ginseng")  # p2: seat 1
    assert state.current_player() == 3
    play(state, "place ginseng")  # p3: seat 2
    play(state, "place ginseng")  # p0: seat 3
    assert snap(state)["boats"]["ginseng"]["crew"] == [2, 3, 0]
    assert cash(state) == [27, 30, 28, 28]
    rejects(state, "place ginseng", "boat is full", "rule 4")
    rejects(state, "place pirate_2", "once pirate_1 is occupied", "rule 4")
    rejects(state, "place jade", "jade stays home")
    play(state, "place insurance")  # p1 receives 10
    assert cash(state)[1] == 40 and state.is_chance_node()  # one round before roll 1
    play(state, "roll 1-1-1")
    play(state, "decline")  # p2 places no more this voyage
    play(state, "place port_a", "place pirate_1")
    rejects(state, "place pirate_1", "taken by p0")
    play(state, "place pirate_2")
    assert cash(state) == [22, 35, 28, 24]
    play(state, "roll 1-1-1")
    # Round 3: p2 declined, so p3 starts; then p0, then p1.
    assert state.current_player() == 3
    play(state, "place nutmeg", "decline", "place shipyard_c")
    d = snap(state)
    assert [p["accomplices"] for p in d["players"]] == [2, 3, 1, 3]
    assert d["spots"] == {"port_a": 3, "pirate_1": 0, "pirate_2": 1, "shipyard_c": 1, "insurance": 1}
    assert state.is_chance_node() and money(state) == 120


def test_players_without_accomplices_are_skipped():
    state = new()
    no_bids(state)
    load(state)
    play(state, "place port_a", "decline", "decline", "decline", "roll 1-1-1")
    play(state, "place port_b", "roll 1-1-1")
    play(state, "place port_c")
    assert state.is_chance_node()  # p0's three accomplices are out; everyone else declined
    assert state.legal_action_names() and all(n.startswith("roll") for n in state.legal_action_names())


def test_three_players_have_four_accomplices_and_two_rounds_before_roll_1():
    state = new(3)
    no_bids(state)
    load(state)
    for spot in ("port_a", "port_b", "port_c", "shipyard_a", "shipyard_b", "shipyard_c"):
        assert not state.is_chance_node()
        play(state, "place " + spot)
    assert state.is_chance_node() and state.voyage_state()["next_roll"] == 1
    play(state, "roll 1-1-1", "place pilot_small", "place pilot_large", "place insurance", "roll 1-1-1")
    play(state, "place ginseng", "place ginseng", "place ginseng")
    assert [p["accomplices"] for p in snap(state)["players"]] == [4, 4, 4]
    assert state.phase == "small_pilot"  # nobody has an accomplice left


def test_four_players_have_one_round_before_roll_1():
    state = new(4)
    no_bids(state)
    load(state)
    play(state, "place port_a", "place port_b", "place port_c", "place shipyard_a")
    assert state.is_chance_node()


# ------------------------------------------------------------------ rule 5: rolls
def test_rolls_move_boats_and_boats_in_manila_roll_no_die():
    state = new()
    no_bids(state)
    load(state)
    play(state, "decline", "decline", "decline", "decline")
    outcomes = state.chance_outcomes(exact=True)
    assert len(outcomes) == 216 and {p for _, p in outcomes} == {Fraction(1, 216)}
    assert state.action_to_string("roll 6-6-6") == "roll ginseng 6, nutmeg 6, silk 6"
    play(state, "roll 6-6-6")
    assert {g: b["position"] for g, b in snap(state)["boats"].items()} == {
        "ginseng": 11,
        "nutmeg": 10,
        "silk": 6,
    }
    play(state, "roll 3-1-1")  # ginseng passes 13 (surplus lost) and takes port slot A
    d = snap(state)
    assert d["boats"]["ginseng"]["position"] == "arrived" and d["port"] == ["ginseng"]
    outcomes = state.chance_outcomes(exact=True)
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == 1
    rejects(state, "roll 2-1-1", "rolls no die", "rule 5")
    assert state.action_to_string("roll 1-2-3") == "roll nutmeg 2, silk 3"


# ------------------------------------------------------------------ rule 6: pirates
def boarding_setup(rules=None, roll2="roll 4-1-1", round2=("decline", "decline", "decline")):
    """p0 pirate_1, p1 pirate_2, p2 on ginseng; ginseng ends roll 2 on 13."""
    state = new(rules=rules)
    no_bids(state)
    load(state)
    play(state, "place pirate_1", "place pirate_2", "place ginseng", "decline", "roll 4-1-1", *round2, roll2)
    return state


def test_boarding_after_roll_2_captain_first():
    state = boarding_setup()
    assert state.phase == "boarding" and state.current_player() == 0
    assert state.legal_action_names() == ["mortgage", "stay", "board ginseng"]
    rejects(state, "board nutmeg", "only a boat that ended roll 2 on space 13")
    play(state, "board ginseng")  # the captain boards; p1 becomes captain
    d = snap(state)
    assert d["boats"]["ginseng"]["crew"] == [2, 0] and d["spots"] == {"pirate_1": 1}
    assert state.current_player() == 1 and state.legal_action_names()[-2:] == ["stay", "board ginseng"]
    play(state, "stay")
    assert state.is_chance_node()  # everyone declined: no placement round, no pilots
    assert state.voyage_state()["spots"] == {"pirate_1": "p1"}
    play(state, "roll 1-1-1")  # ginseng arrives; p2 and p0 share 18
    assert cash(state) == [30 - 5 + 9, 25, 30 - 1 + 9, 30]


def test_second_pirate_may_board_when_the_captain_stays():
    state = boarding_setup()
    play(state, "stay", "board ginseng")
    d = snap(state)
    assert d["boats"]["ginseng"]["crew"] == [2, 1] and d["spots"] == {"pirate_1": 0}


def test_no_boarding_without_pirates_or_free_seats():
    state = new()
    no_bids(state)
    load(state)
    play(state, "place ginseng", "place ginseng", "place ginseng", "place pirate_1", "roll 4-1-1")
    declines(state)
    play(state, "roll 4-1-1")  # ginseng (full) on 13: nothing to board under the base rules
    assert state.phase == "roll" and snap(state)["boats"]["ginseng"]["position"] == 13
    state = new()
    no_bids(state)
    load(state)
    play(state, "place ginseng", "decline", "decline", "decline", "roll 4-1-1")
    declines(state)
    play(state, "roll 4-1-1")
    assert state.phase == "roll"  # on 13 with no pirate: nothing happens


def displacement_setup():
    """pirate_variant: ginseng full (p1, p2, p3) on 13 after roll 2; p0 captain, p1 pirate_2."""
    state = new(rules={"pirate_variant": True})
    no_bids(state)
    load(state)
    play(state, "place pirate_1", "place ginseng", "place ginseng", "place ginseng", "roll 4-4-1")
    play(state, "decline", "place pirate_2", "decline", "place port_c", "roll 4-1-1")
    return state


def test_pirate_variant_displaces_crew_but_not_the_captain_who_just_boarded():
    state = displacement_setup()
    assert state.current_player() == 0
    assert [n for n in state.legal_action_names() if n != "mortgage"] == [
        "stay",
        "board ginseng, displacing seat 1",
        "board ginseng, displacing seat 2",
        "board ginseng, displacing seat 3",
    ]
    play(state, "board ginseng, displacing seat 3")  # p3 goes home, without a refund
    d = snap(state)
    assert d["boats"]["ginseng"]["crew"] == [1, 2, 0] and d["spots"]["pirate_1"] == 1
    assert d["players"][3]["accomplices"] == 1 and d["players"][3]["cash"] == 30 - 3 - 2
    assert state.current_player() == 1
    rejects(state, "board ginseng, displacing seat 3", "may not displace the captain who just boarded")
    play(state, "stay")
    # Round 3: the displaced accomplice may be placed again, e.g. on the freed pirate_2.
    play(state, "decline")
    assert state.current_player() == 3 and "place pirate_2" in state.legal_action_names()
    play(state, "place pirate_2")
    assert snap(state)["spots"]["pirate_2"] == 3


def test_pirate_variant_fills_free_seats_first():
    state = new(rules={"pirate_variant": True})
    no_bids(state)
    load(state)
    play(state, "place pirate_1", "place ginseng", "place ginseng", "place ginseng", "roll 4-4-1")
    play(state, "decline", "decline", "decline", "decline", "roll 4-5-1")  # nutmeg on 13 too, empty
    assert [n for n in state.legal_action_names() if n != "mortgage"] == ["stay", "board nutmeg"]
    rejects(state, "board ginseng, displacing seat 1", "still has a free seat")


def test_without_the_variant_a_full_boat_cannot_be_boarded():
    state = new()
    no_bids(state)
    load(state)
    play(state, "place pirate_1", "place ginseng", "place ginseng", "place ginseng", "roll 4-4-1")
    play(state, "decline", "decline", "decline", "decline", "roll 4-5-1")
    assert [n for n in state.legal_action_names() if n != "mortgage"] == ["stay", "board nutmeg"]
    rejects(state, "board ginseng, displacing seat 1", "pirate_variant")


def plunder_setup(rules=None, pirates=True):
    """ginseng (crew p2) ends roll 3 on 13; p3 on port_a; p0, p1 pirates (if `pirates`)."""
    state = new(rules=rules)
    no_bids(state)
    load(state)
    first = ("place pirate_1", "place pirate_2") if pirates else ("decline", "decline")
    play(state, *first, "place ginseng", "place port_a", "roll 1-1-1")
    declines(state)
    play(state, "roll 1-1-1")
    declines(state)
    play(state, "roll 6-1-1")
    return state


def test_plunder_to_manila():
    state = plunder_setup()
    assert state.phase == "plunder" and state.current_player() == 0
    assert [n for n in state.legal_action_names() if n != "mortgage"] == [
        "plunder: all to Manila",
        "plunder: ginseng to the shipyard",
    ]
    rejects(state, "plunder: nutmeg to the shipyard", "only boats plundered")
    assert state.voyage_state() is None  # roll 3 is over
    play(state, "plunder: all to Manila")
    d = snap(state)
    # The pirates split 18; the crew get nothing; the boat counts as arrived.
    assert cash(state) == [30 - 5 + 9, 30 - 5 + 9, 30 - 1, 30 - 4 + 6]
    assert d["prices"]["ginseng"] == 5 and d["last_settlement"]["port"] == ["ginseng"]
    assert d["last_settlement"]["plundered"] == ["ginseng"]


def test_plunder_to_the_shipyard():
    state = plunder_setup()
    play(state, "plunder: ginseng to the shipyard")
    d = snap(state)
    assert cash(state) == [34, 34, 29, 26]
    assert d["prices"]["ginseng"] == 0 and d["last_settlement"]["port"] == []


def test_a_single_pirate_takes_the_whole_cargo():
    state = new()
    no_bids(state)
    load(state)
    play(state, "place pirate_1", "place ginseng", "decline", "decline", "roll 1-1-1")
    play(state, "decline", "decline", "roll 1-1-1", "roll 6-1-1", "plunder: all to Manila")
    assert cash(state)[0] == 30 - 5 + 18


@pytest.mark.parametrize("option,to_port", [("port", True), ("shipyard", False)])
def test_thirteen_after_last_roll_without_pirates(option, to_port):
    state = plunder_setup(rules={"thirteen_after_last_roll": option}, pirates=False)
    d = snap(state)
    assert state.phase == "auction"  # no decision: the rule option decides
    assert d["prices"]["ginseng"] == (5 if to_port else 0)
    assert cash(state)[2] == 30 - 1 + (18 if to_port else 0)
    assert d["last_settlement"]["port"] == (["ginseng"] if to_port else [])


# ------------------------------------------------------------------ rule 7: pilots
def pilot_setup(roll2="roll 1-1-1"):
    """p0 small pilot, p1 large pilot; after two rolls."""
    state = new()
    no_bids(state)
    load(state)
    play(state, "place pilot_small", "place pilot_large", "decline", "decline", "roll 1-1-1")
    play(state, "decline", "decline", roll2)
    return state


def test_pilots_small_then_large():
    state = pilot_setup()
    assert state.phase == "small_pilot" and state.current_player() == 0
    assert [n for n in state.legal_action_names() if n != "mortgage"] == [
        "small pilot: none",
        "small pilot: ginseng +1",
        "small pilot: ginseng -1",
        "small pilot: nutmeg +1",
        "small pilot: nutmeg -1",
        "small pilot: silk +1",
        "small pilot: silk -1",
    ]
    assert state.voyage_state()["spots"] == {"pilot_small": "p0", "pilot_large": "p1"}
    play(state, "small pilot: silk -1")  # silk 2 -> 1
    assert state.phase == "large_pilot" and state.current_player() == 1
    assert state.voyage_state()["spots"] == {"pilot_large": "p1"}  # the small pilot has acted
    names = state.legal_action_names()
    assert len([n for n in names if n.startswith("large pilot")]) == 1 + 11 + 12
    rejects(state, "large pilot: silk -2", "below space 0", "rule 7")
    assert "large pilot: ginseng +1, silk -1" in names
    play(state, "large pilot: ginseng +1, silk -1")
    boats = snap(state)["boats"]
    assert {g: b["position"] for g, b in boats.items()} == {"ginseng": 8, "nutmeg": 6, "silk": 0}
    # A pilot can make positions no roll could reach: the evaluator JSON says so.
    data = state.voyage_state()
    assert data["spots"] == {} and data["strict"] is False
    manila.evaluate(data)
    assert state.is_chance_node()


def test_pilots_cannot_move_boats_in_manila_and_push_boats_into_manila():
    state = pilot_setup(roll2="roll 6-6-1")  # ginseng 12 + ... : 5+1+6 = 12, nutmeg 4+1+6 = 11
    boats = snap(state)["boats"]
    assert boats["ginseng"]["position"] == 12
    play(state, "small pilot: ginseng +1")  # pushed onto 13: no attack (there is none after pilots)
    play(state, "large pilot: ginseng +2")  # pushed past 13: in Manila, port slot A
    d = snap(state)
    assert d["boats"]["ginseng"]["position"] == "arrived" and d["port"] == ["ginseng"]
    assert len(state.chance_outcomes()) == 36


def test_a_boat_in_manila_cannot_be_piloted():
    state2 = new()
    no_bids(state2)
    load(state2)
    play(state2, "place pilot_small", "decline", "decline", "decline", "roll 6-1-1", "decline", "roll 6-1-1")
    assert snap(state2)["boats"]["ginseng"]["position"] == "arrived"
    assert not any("ginseng" in n for n in state2.legal_action_names())
    rejects(state2, "small pilot: ginseng +1", "in Manila and cannot be moved", "rule 7")


def test_pilots_with_no_boat_to_move_are_skipped():
    state = new()
    no_bids(state)
    load(state, start="start 3-3-3")
    play(state, "place pilot_large", "decline", "decline", "decline", "roll 6-6-6", "decline", "roll 6-6-6")
    # Every boat arrived: no pilot move, no roll 3; the voyage is settled.
    assert state.phase == "auction" and state.voyage_number == 2


# ------------------------------------------------------------------ rules 8-9: shipyard, profits
def test_ports_shipyards_crews_and_insurance():
    state = new()
    no_bids(state)
    load(state)
    play(state, "place port_a", "place port_b", "place shipyard_a", "place insurance", "roll 6-6-1")
    play(state, "place shipyard_c", "place silk", "decline", "decline", "roll 6-6-1")
    play(state, "decline", "decline", "roll 1-1-1")
    d = snap(state)
    # Two boats in Manila (port A and B pay), silk in the shipyard (slot A, from the insurer).
    assert d["last_settlement"]["port"] == ["ginseng", "nutmeg"]
    assert d["last_settlement"]["shipyard"] == ["silk"]
    assert cash(state) == [30 - 4 - 2 + 6, 30 - 3 - 3 + 8, 30 - 4 + 6, 30 + 10 - 6]
    assert d["last_settlement"]["income"] == [6, 8, 6, -6]
    assert d["last_settlement"]["insurance_due"] == 6 == d["last_settlement"]["insurance_paid"]
    assert d["prices"] == {"ginseng": 5, "nutmeg": 5, "silk": 0, "jade": 0}
    assert money(state) == 120


def test_crew_share_the_cargo_equally():
    state = new()
    no_bids(state)
    load(state)
    play(state, "place ginseng", "place ginseng", "place ginseng", "place nutmeg")
    rest_of_voyage(state, ["roll 6-6-6", "roll 6-6-6", "roll 1-1-6"])
    assert cash(state) == [30 - 1 + 6, 30 - 2 + 6, 30 - 3 + 6, 30 - 2 + 24]


def test_insurer_pays_for_empty_slots_to_the_bank():
    state = new()
    no_bids(state)
    load(state)
    play(state, "place shipyard_a", "decline", "place shipyard_c", "place insurance")
    rest_of_voyage(state)  # every boat ends in the shipyard: the insurer owes 6 + 8 + 15
    d = snap(state)
    assert cash(state) == [30 - 4 + 6, 30, 30 - 2 + 15, 30 + 10 - 29]
    assert d["bank"] == 120 - sum(cash(state))


def test_without_insurer_the_bank_pays_the_shipyard():
    state = new()
    no_bids(state)
    load(state)
    play(state, "place shipyard_a", "place shipyard_b", "place shipyard_c", "decline")
    rest_of_voyage(state)
    assert cash(state) == [32, 35, 43, 30]


def test_insurance_shortfall_forced_mortgages_and_the_bank_covering_the_rest():
    # p3 wins the auction with 42: one forced mortgage, cash 0, one share left to mortgage.
    state = new()
    play(state, "pass", "pass", "pass", "bid 42")
    p3 = snap(state)["players"][3]
    assert p3["cash"] == 0 and p3["mortgaged"] == 1
    load(state)
    play(state, "place insurance", "place shipyard_a", "place shipyard_b", "decline", "roll 1-1-1")
    play(state, "place shipyard_c", "decline", "decline", "roll 1-1-1", "decline", "roll 1-1-1")
    # p3 collects 15 first (cash 10 - 2 + 15 = 23), mortgages the last share (35), pays 29.
    d = snap(state)
    assert d["players"][3]["cash"] == 6 and d["players"][3]["mortgaged"] == 2
    assert d["last_settlement"]["forced_mortgages"] == [0, 0, 0, 1]
    assert d["last_settlement"]["income"][3] == 15 - 29
    assert money(state) == 120
    # Next voyage: nothing left to mortgage; the bank covers what the insurer cannot pay.
    no_bids(state)
    load(state)
    assert state.current_player() == 3  # p3 kept the office
    play(state, "place insurance", "place shipyard_a", "place shipyard_b", "place shipyard_c")
    rest_of_voyage(state)
    d = snap(state)
    assert d["last_settlement"]["insurance_due"] == 29 and d["last_settlement"]["insurance_paid"] == 16
    assert d["players"][3]["cash"] == 0 and d["last_settlement"]["income"][3] == -16
    assert d["last_settlement"]["income"][:3] == [6, 8, 15]  # paid in full all the same
    assert money(state) == 120


# ------------------------------------------------------------------ rules 10-13
def test_price_rise_game_end_wealth_and_shared_win():
    state = new()
    for voyage in range(1, 5):
        assert state.voyage_number == voyage
        no_bids(state)
        load(state)
        if voyage == 4:
            play(state, "decline", "decline", "mortgage", "decline", "decline")
        rest_of_voyage(state, ["roll 6-6-6", "roll 6-6-6", "roll 1-1-6"])
    assert state.is_terminal() and state.current_player() == manila.game.TERMINAL
    d = snap(state)
    assert d["prices"] == {"ginseng": 30, "nutmeg": 30, "silk": 30, "jade": 0}
    # Wealth: cash + shares x price - 15 per mortgaged share.
    assert state.returns() == [30 + 60, 30 + 60, 42 + 30 - 15, 30 + 30]
    assert state.winners() == [0, 1]  # equal wealth shares the win
    assert state.voyages_completed() == 4
    assert state.legal_actions() == []
    rejects(state, "pass", "the game is over")


def test_game_does_not_end_below_30():
    state = new()
    for _ in range(3):
        no_bids(state)
        load(state)
        rest_of_voyage(state, ["roll 6-6-6", "roll 6-6-6", "roll 1-1-6"])
    assert not state.is_terminal() and snap(state)["prices"]["ginseng"] == 20


def test_loans_at_any_decision():
    assert "mortgage" not in Game(4).new_initial_state().legal_action_names()  # chance
    state = new()
    no_bids(state)
    for step in ("buy nothing", "leave jade home", "start 5-4-0"):
        assert "mortgage" in state.legal_action_names()
        play(state, step)
    play(state, "mortgage", "mortgage")
    p0 = snap(state)["players"][0]
    assert p0["cash"] == 54 and p0["mortgaged"] == 2 and state.current_player() == 0
    rejects(state, "mortgage", "no unmortgaged share", "rule 11")
    play(state, "repay")
    assert snap(state)["players"][0]["cash"] == 39
    play(state, "place ginseng", "mortgage")
    assert snap(state)["players"][1]["cash"] == 42
    play(state, "decline", "decline", "decline")
    assert state.is_chance_node()
    assert not any(n in ("mortgage", "repay") for n in state.legal_action_names())


def test_repay_needs_15():
    state = new()
    play(state, "mortgage", "bid 40", "pass", "pass", "pass")
    assert snap(state)["players"][0]["cash"] == 2
    rejects(state, "repay", "costs 15", "rule 11")


def test_blind_passenger():
    state = new()
    play(state, "mortgage", "mortgage", "bid 53", "pass", "pass", "pass")
    assert cash(state)[0] == 1
    assert state.legal_action_names() == ["buy nothing"]  # nothing to mortgage, 1 peso
    load(state)
    # p0 can pay the cheapest free spot (ginseng, 1): no blind passenger yet.
    assert state.legal_action_names() == ["place ginseng", "place insurance", "decline"]
    rejects(state, "place pirate_1", "no blind passenger", "rule")
    play(state, "place ginseng", "decline", "decline", "decline", "roll 1-1-1")
    # Now p0 has nothing: any free spot but insurance (rule 12), paying all its cash (0).
    names = state.legal_action_names()
    assert "place pirate_1" in names and "place jade" not in names and "place insurance" not in names
    rejects(state, "place insurance", "blind passenger may not take insurance", "rule 12")
    play(state, "place pirate_1")
    assert cash(state)[0] == 0 and snap(state)["spots"]["pirate_1"] == 0
    assert money(state) == 120


def test_blind_passenger_pays_all_its_cash():
    # p0 ends with 1 peso while the cheapest free spot costs 2: blind, pays the 1.
    state = new()
    play(state, "mortgage", "mortgage", "bid 53", "pass", "pass", "pass")
    play(state, "buy nothing", "leave ginseng home", "start 5-4-0")  # nutmeg 5, silk 4, jade 0
    # Cheapest free spot: port_c / shipyard_c / pilot_small / nutmeg seat at 2 > 1 peso.
    names = state.legal_action_names()
    assert "place pirate_1" in names and "place insurance" not in names
    play(state, "place pirate_1")
    assert cash(state)[0] == 0 and snap(state)["bank"] == 53 - 24 + 1


# ------------------------------------------------------------------ the evaluator
def test_voyage_state_is_the_evaluator_json():
    state = new()
    no_bids(state)
    assert state.voyage_state() is None  # no boats yet
    load(state)
    play(state, "place ginseng", "place pirate_1", "place port_a", "decline", "roll 3-2-4")
    data = state.voyage_state(player=3)
    assert data == {
        "rules": {"thirteen_after_last_roll": "port", "pirate_variant": False},
        "next_roll": 2,
        "player": "p3",
        "players": 4,
        "boats": {
            "ginseng": {"position": 8, "crew": ["p0"]},
            "nutmeg": {"position": 6, "crew": []},
            "silk": {"position": 4, "crew": []},
        },
        "spots": {"pirate_1": "p1", "port_a": "p2"},
        # every player's shares and what they can pay: cash + 12 per share
        "shares": {
            "p0": {"ginseng": 1, "nutmeg": 1},
            "p1": {"ginseng": 1, "nutmeg": 1},
            "p2": {"silk": 1, "jade": 1},
            "p3": {"silk": 1, "jade": 1},
        },
        "prices": {},
        "budget": {"p0": 53, "p1": 49, "p2": 50, "p3": 54},
    }
    assert state.evaluate(player=3).to_dict() == manila.evaluate(data).to_dict()
    in_wealth = state.voyage_state(player=0, objective="wealth")
    wealth = manila.evaluate(in_wealth, exact=True)
    assert wealth.payoffs == payoff_reference(in_wealth)
    assert wealth.payoffs["p0"] > wealth.incomes["p0"]
    # p3 declined: the evaluator still lists the spots a player could take.
    assert "port_b" in state.evaluate(player=3).spots


def test_no_bound_on_game_length_or_wealth():
    """Rolls of all ones bring no boat to Manila whatever the players do (start at most 5,
    3 pips, pilots at most 3 more: never past 13), so no price rises and the game goes on:
    neither the game's length nor (with shipyard payouts each such voyage) wealth is
    bounded, which is why OpenSpiel's max_game_length is only the engine's guard."""
    offsets = manila.game.ACTION_OFFSETS
    ones = offsets["roll"]  # 1-1-1
    place = offsets["place"] + len(manila.GOODS)
    # The shipyard spots, then declining or buying nothing, then the first other move
    # (pass, no pilot move, ...); never a loan.
    preferred = [place + manila.SPOTS.index(f"shipyard_{x}") for x in "abc"]
    preferred += [offsets["decline"], offsets["buy_nothing"]]
    state = Game(4, seed=1).new_initial_state()
    cash = []
    while state.voyages_completed() < 25:
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_action(ones if state.phase == "roll" else state.sample_chance())
            continue
        legal = [a for a in state.legal_actions() if a not in (offsets["mortgage"], offsets["repay"])]
        state.apply_action(next((a for a in preferred if a in legal), legal[0]))
        if state.voyage_number > len(cash) + 1:
            cash.append(sum(p["cash"] for p in state.to_dict()["players"]))
    assert set(state.to_dict()["prices"].values()) == {0}
    assert cash == sorted(cash) and cash[-1] > cash[0] + 100
    assert state.game.max_utility() == float("inf")


def test_final_wealth_bound():
    # Every share of three goods mortgaged at price 0, no cash; the fourth good at 30.
    assert Game(4).min_utility() == _core.MIN_FINAL_WEALTH == -15 * 5 * 3 > _core.MIN_WEALTH
    _, wealth, _, _, _ = _core.play_games(players=3, seed=2, first=0, n=400, bots=["random"] * 3)
    assert wealth.min() >= _core.MIN_FINAL_WEALTH
