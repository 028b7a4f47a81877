"""Python bots for the ladder tests (loaded as module:Class)."""

SEATS_SEEN = []  # the seat of each bot instance, in the order they first move


class FirstLegal:
    """The first legal action that is not a loan; records its seat."""

    name = "first"

    def __init__(self, seed):
        self.seat = None

    def step(self, view):
        if self.seat is None:
            self.seat = view.player
            SEATS_SEEN.append(view.player)
        assert not hasattr(view, "returns")  # a view, not the referee's state
        return next(a for a in view.legal_actions() if view.action_name(a) not in ("mortgage", "repay"))


class NoSeed:
    """Declines everything it can; its constructor takes no seed."""

    def __init__(self):
        pass

    def step(self, view):
        return view.legal_actions()[0]


class Illegal:
    """Plays legally until its second decision, then the first action that is not legal."""

    def __init__(self, seed):
        self.moves = 0

    def step(self, view):
        self.moves += 1
        legal = view.legal_actions()
        if self.moves < 2:
            return legal[0]
        return next(a for a in range(2000) if a not in legal)


SEEDS_SEEN = []  # (seat, the seed its constructor was given), in the order they first move


class SeedKeeper:
    """The first legal action; records the seed it was made with and its seat."""

    def __init__(self, seed):
        self.seed, self.seen = seed, False

    def step(self, view):
        if not self.seen:
            self.seen = True
            SEEDS_SEEN.append((view.player, self.seed))
        return view.legal_actions()[0]
