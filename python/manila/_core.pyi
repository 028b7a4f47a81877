"""Type stubs for the compiled engine (manila._core), kept by hand from cpp/bindings/*.cpp.

tests/test_stubs.py checks every name, parameter and pybind11-reported type here against
the built module; .ci/typecheck runs mypy's stubtest on it as well.
"""

from collections.abc import Callable, Sequence
from typing import Annotated, Any, SupportsFloat, SupportsIndex

import numpy as np
import numpy.typing as npt

MIN_PLAYERS: int
MAX_PLAYERS: int
ACCOMPLICES: int
NUM_ROLLS: int
DIE_FACES: int
THIRTEEN: int
MAX_START_SPACE: int
START_SUM: int
START_SPACES: tuple[tuple[int, int, int], ...]

# Cancellation (bind_cancel.cpp).
MAX_SECONDS: float

class Cancelled(RuntimeError): ...

class CancelToken(metaclass=_Pybind11Type):
    def __init__(self, time_limit: SupportsFloat | SupportsIndex = 0.0) -> None: ...
    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...
    @property
    def time_limit(self) -> float: ...

def use_cancel_token(token: CancelToken | None) -> CancelToken | None: ...
def accomplices_per_player(players: int) -> int: ...
def price_rise(price: int) -> int: ...

# Every bound class has pybind11's metaclass (pybind11_builtins.pybind11_type) at run time.
class _Pybind11Type(type): ...

# The voyage (bind_voyage.cpp).
GOODS: tuple[str, ...]
SPOTS: tuple[str, ...]
SEAT_COSTS: dict[str, list[int]]
SPOT_COSTS: dict[str, int]
SLOT_PAYOUTS: tuple[int, ...]
INSURANCE_CLAIM: tuple[int, ...]
MAX_SEATS: int
CARGO_VALUES: dict[str, int]
ARRIVED: int
PRICE_TRACK: tuple[int, ...]
SHARES_PER_GOOD: int

class Voyage(metaclass=_Pybind11Type):
    """A validated voyage with owners numbered 0..num_owners-1."""

    def __init__(
        self,
        *,
        next_roll: int,
        goods: Sequence[int],
        positions: Sequence[int],
        crews: Sequence[Sequence[int]],
        spots: Sequence[int],
        num_owners: int,
        thirteen_to_port: bool = True,
        pirate_variant: bool = False,
        wealth: bool = False,
        prices: Sequence[int] = ...,
        shares: Sequence[Sequence[int]] = ...,
        budgets: Sequence[int] = ...,
    ) -> None: ...
    @property
    def next_roll(self) -> int: ...
    @property
    def num_owners(self) -> int: ...
    @property
    def goods(self) -> list[int]: ...
    @property
    def positions(self) -> list[int]: ...
    @property
    def crews(self) -> list[list[int]]: ...
    @property
    def spots(self) -> list[int]: ...
    @property
    def wealth(self) -> bool: ...
    @property
    def prices(self) -> list[int]: ...
    @property
    def shares(self) -> list[list[int]]: ...
    @property
    def budgets(self) -> list[int]: ...
    def accomplices(self, owner: int) -> int: ...

# The evaluator (bind_evaluator.cpp). Table's arrays are views of its own memory.
TABLE_SIZE: int

class Table(metaclass=_Pybind11Type):
    """Exact results of one or more voyages, as numerators."""

    @property
    def n(self) -> int: ...
    @property
    def owner_stride(self) -> int: ...
    @property
    def denominator(self) -> npt.NDArray[np.int64]: ...
    @property
    def incomes(self) -> npt.NDArray[np.int64]: ...
    @property
    def payoffs(self) -> npt.NDArray[np.int64]: ...
    @property
    def boats(self) -> npt.NDArray[np.int64]: ...
    @property
    def legal(self) -> npt.NDArray[np.bool_]: ...
    @property
    def cost(self) -> npt.NDArray[np.int32]: ...
    @property
    def net(self) -> npt.NDArray[np.int64]: ...
    def row(self, i: int) -> _Row: ...

# Table.row: (denominator, legal, cost, net, boats, incomes, payoffs) as plain Python values.
_Row = tuple[int, list[bool], list[int], list[int], list[list[int]], list[int], list[int]]

def denominator(next_roll: int) -> int: ...
def legal_spots(voyage: Voyage, owner: int, max_accomplices: int = 3) -> list[tuple[int, int]]:
    """(spot-table id, cost) of every spot the owner may take now."""

def expected_payoff(voyage: Voyage, owner: int) -> int: ...
def analyse(voyage: Voyage, owner: int = -1, max_accomplices: int = 3, threads: int = 0) -> Table: ...
def analyse_batch(
    voyages: Sequence[Voyage], owners: Sequence[int], max_accomplices: Sequence[int], threads: int = 0
) -> Table: ...

class JsonValue(metaclass=_Pybind11Type):
    def to_python(self) -> Any: ...

def evaluate_state(
    state: Any, strict: bool | None, threads: int
) -> tuple[JsonValue, tuple[str, ...], tuple[str, ...], Table] | None:
    """(the engine's copy of the state, goods, owners, its Table) of a voyage state given as JSON values, or None."""

# Advice (bind_advice.cpp).
DECLINE: int

class PlacementAdvice(metaclass=_Pybind11Type):
    """A placement turn's options with their exact values (numerators)."""

    @property
    def denominator(self) -> int: ...
    @property
    def options(self) -> list[tuple[int, int]]: ...
    @property
    def net(self) -> list[int]: ...
    @property
    def best(self) -> int: ...
    @property
    def line(self) -> list[tuple[int, int]]: ...
    @property
    def payoffs(self) -> list[int]: ...
    @property
    def positions(self) -> int: ...

class DecisionAdvice(metaclass=_Pybind11Type):
    """A pilot's or pirate's options with everyone's payoffs after each."""

    @property
    def denominator(self) -> int: ...
    @property
    def decider(self) -> int: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def payoffs(self) -> list[list[int]]: ...
    @property
    def best(self) -> int: ...
    @property
    def line(self) -> list[tuple[int, str]]: ...

def advise_placement(voyage: Voyage, movers: Sequence[int], threads: int = 0) -> PlacementAdvice: ...
def advise_pilot(voyage: Voyage, large: bool) -> DecisionAdvice: ...
def advise_boarding(
    voyage: Voyage, second: bool = False, guard_boat: int = -1, guard_seat: int = -1
) -> DecisionAdvice: ...

# The enumerator (bind_enumerate.cpp). Family's arrays are views of its own memory.
class Family(metaclass=_Pybind11Type):
    """The rows of a family of voyage states (see enumerate_family)."""

    @property
    def next_roll(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def num_starts(self) -> int: ...
    @property
    def goods(self) -> npt.NDArray[np.int8]: ...
    @property
    def positions(self) -> npt.NDArray[np.int8]: ...
    @property
    def start_goods(self) -> npt.NDArray[np.int8]: ...
    @property
    def start_spaces(self) -> npt.NDArray[np.int8]: ...
    @property
    def path_start(self) -> npt.NDArray[np.int32]: ...
    @property
    def path_row(self) -> npt.NDArray[np.int32]: ...
    @property
    def path_count(self) -> npt.NDArray[np.int64]: ...

def legal_starts() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """Every legal start as (goods, spaces), two int8 arrays of shape (100, 3)."""

def reach_denominator(next_roll: int) -> int: ...
def boat_counts(space: int, rolls: int) -> list[int]: ...
def reachable(
    goods: Sequence[int], spaces: Sequence[int], next_roll: int
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """Positions (int8, shape (m, 3)) and dice counts over reach_denominator(next_roll)."""

def enumerate_family(
    next_roll: int,
    goods: Sequence[Sequence[int]] = ...,
    reachable: bool = True,
    starts: Sequence[tuple[Sequence[int], Sequence[int]]] = ...,
    fixed: Sequence[int] = ...,
) -> Family: ...
def shape_pattern(crew_sizes: Sequence[int], pirates: int) -> tuple[list[list[int]], list[int], int]:
    """(crews, spots, num_owners) of a shape: each accomplice its own owner."""

def analyse_rows(
    goods: npt.NDArray[np.integer[Any]],
    positions: npt.NDArray[np.integer[Any]],
    next_roll: int,
    crews: Sequence[Sequence[int]],
    spots: Sequence[int],
    num_owners: int,
    thirteen_to_port: bool = True,
    pirate_variant: bool = False,
    owner: int = -1,
    max_accomplices: int = 3,
    threads: int = 0,
    wealth: bool = False,
    prices: Sequence[int] = ...,
    shares: Sequence[Sequence[int]] = ...,
    budgets: Sequence[int] = ...,
) -> Table:
    """The spot table of every row (goods and positions of shape (n, 3)) with one pattern of crews, spots, owners and wealth keys (as the Voyage constructor takes them): a Table, computed with the GIL released."""

# The whole game (bind_game.cpp); use manila.Game instead.
NUM_ACTIONS: int
MAX_BID: int
NUM_ROLL_OUTCOMES: int
LOAN_AMOUNT: int
MAX_CASH: int
MAX_BUDGET: int
CHANCE_PLAYER: int
TERMINAL_PLAYER: int
ACTION_OFFSETS: dict[str, int]
MAX_GAME_ACTIONS: int
MIN_WEALTH: int
MIN_FINAL_WEALTH: int
CORE_BOTS: tuple[str, ...]

def action_name(action: int) -> str: ...
def observation_size(players: int) -> int: ...

# (name, offset, shape, lowest value) of each section of the observation tensor.
def observation_layout(players: int) -> list[tuple[str, int, tuple[int, ...], float]]: ...

# The start spaces of a start triple, one per sailing good in good order.
def start_triple(index: int) -> list[int]: ...
def derive_seed(seed: int, index: int) -> int: ...

class Rng(metaclass=_Pybind11Type):
    """splitmix64: the generator of chance and of the random bot."""

    def __init__(self, seed: int = 0) -> None: ...
    def next(self) -> int: ...
    def below(self, n: int) -> int: ...
    state: int

# Pickled as (players, seed, thirteen_to_port, pirate_variant, history, rng state).
_Pickled = tuple[int, int, bool, bool, list[int], int]

class GameState(metaclass=_Pybind11Type):
    """The C++ game state; use manila.Game and manila.game.State."""

    def __init__(
        self, *, players: int, seed: int = 0, thirteen_to_port: bool = True, pirate_variant: bool = False
    ) -> None: ...
    def clone(self) -> GameState: ...
    def seen_by(self, viewer: int) -> GameState: ...
    def __copy__(self) -> GameState: ...
    def __deepcopy__(self, memo: dict[int, object]) -> GameState: ...
    def __getstate__(self) -> _Pickled: ...
    def __setstate__(self, arg0: _Pickled) -> None: ...
    @property
    def num_players(self) -> int: ...
    @property
    def seed(self) -> int: ...
    rng_state: int
    @property
    def thirteen_to_port(self) -> bool: ...
    @property
    def pirate_variant(self) -> bool: ...
    @property
    def phase(self) -> str: ...
    @property
    def voyage_number(self) -> int: ...
    def current_player(self) -> int: ...
    def is_chance_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def is_legal(self, action: int) -> bool: ...
    def illegal_reason(self, action: int) -> str: ...
    def apply_action(self, action: int) -> None: ...
    # ([(outcome, weight), ...], denominator): exact chance probabilities.
    def chance_weights(self) -> tuple[list[tuple[int, int]], int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def sample_chance(self) -> int: ...
    def sample_chance_with(self, rng: Rng) -> int: ...
    def returns(self) -> list[int]: ...
    def wealth(self, player: int) -> int: ...
    def voyages_completed(self) -> int: ...
    def history(self) -> list[int]: ...
    def history_length(self) -> int: ...
    def voyage(self) -> Voyage | None: ...
    def action_to_string(self, action: int) -> str: ...
    def to_string(self) -> str: ...
    # The broken invariants, one line each; empty when all hold.
    def check_invariants(self) -> list[str]: ...
    # The whole table as JSON-ready values.
    def snapshot(self) -> dict[str, Any]: ...
    # A player's view (private_info: "none", "single" or "all").
    def observation(self, player: int, private_info: str = "single") -> dict[str, Any]: ...
    def information_state_string(self, player: int, private_info: str = "single") -> str: ...
    def observation_string(self, player: int, private_info: str = "single") -> str: ...
    def observation_tensor(
        self, player: int, private_info: str = "single", out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]: ...
    # (cost, blind) if the player may place on spot-table id `spot` now, else None.
    def placement_terms(self, player: int, spot: int) -> tuple[int, bool] | None: ...

def random_action(state: GameState, rng: Rng) -> int: ...
def bot_action(state: GameState, bot: str, rng: Rng | None = None) -> int: ...
def greedy_action(state: GameState, wealth: bool = False) -> int: ...
def solver_action(state: GameState) -> int: ...

# (seeds, wealth [n, players], voyages, actions, histories): histories is empty unless `record`.
def play_games(
    *,
    players: int,
    seed: int,
    first: int,
    n: int,
    bots: Sequence[str],
    threads: int = 0,
    record: bool = False,
    check: bool = False,
    thirteen_to_port: bool = True,
    pirate_variant: bool = False,
) -> tuple[
    npt.NDArray[np.uint64],
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    list[list[int]],
]: ...

# The batched environment (bind_vector_env.cpp). Its arrays are read-only views of buffers
# that reset and step rewrite.
NUM_PLAYER_ACTIONS: int
NUM_CHANCE_OUTCOMES: int
REWARDS: tuple[str, ...]

class VectorEnv(metaclass=_Pybind11Type):
    """N games stepped at once in C++; use manila.VectorEnv instead."""

    def __init__(
        self,
        num_envs: int,
        *,
        players: int = 4,
        bots: Sequence[str | None] | None = None,
        threads: int = 1,
        autoreset: bool = True,
        reward: str = "wealth",
        explicit_chance: bool = False,
        thirteen_to_port: bool = True,
        pirate_variant: bool = False,
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def bots(self) -> list[str | None]: ...
    @property
    def started(self) -> bool: ...
    @property
    def autoreset(self) -> bool: ...
    @property
    def reward(self) -> str: ...
    @property
    def explicit_chance(self) -> bool: ...
    # (observations, masks)
    def reset(self, seed: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]: ...
    # (observations, masks, rewards, dones, to_move)
    # actions: anything numpy converts to int64, one per env.
    def step(
        self, actions: Annotated[npt.ArrayLike, np.int64]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int32],
    ]: ...
    def sample_actions(self, rng: Rng) -> npt.NDArray[np.int64]: ...
    def sample_chance(self) -> npt.NDArray[np.int64]: ...
    @property
    def observations(self) -> npt.NDArray[np.float32]: ...
    @property
    def masks(self) -> npt.NDArray[np.bool_]: ...
    @property
    def rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def final_observations(self) -> npt.NDArray[np.float32]: ...
    @property
    def dones(self) -> npt.NDArray[np.bool_]: ...
    @property
    def to_move(self) -> npt.NDArray[np.int32]: ...
    @property
    def game_seeds(self) -> npt.NDArray[np.uint64]: ...
    @property
    def game_numbers(self) -> npt.NDArray[np.int64]: ...
    @property
    def steps(self) -> npt.NDArray[np.int32]: ...
    @property
    def chance_weights(self) -> npt.NDArray[np.int32]: ...
    @property
    def chance_denominators(self) -> npt.NDArray[np.int32]: ...
    def game(self, env: int) -> GameState: ...
    def observe(self, env: int, seat: int) -> npt.NDArray[np.float32]: ...

# ---- rollout analysis (bind_analysis.cpp)

HORIZONS: tuple[str, ...]
POLICIES: tuple[str, ...]
DEFAULT_POLICY: str
HARBOUR_SCREEN: int
SHARE_PREMIUM: tuple[tuple[float, ...], ...]
VALUE_SOURCES: tuple[str, ...]

# "auction", "harbour_master", "placement", "boarding", "pilot_small", "pilot_large", "plunder".
def decision_kind(state: GameState) -> str: ...
def split_gain(values: Sequence[Sequence[SupportsFloat | SupportsIndex]]) -> tuple[float, float]: ...
def t95(df: int) -> float:
    """Student's t quantile of 0.975 with df degrees of freedom: every 95% interval's."""

# (name, actions applied in order) of every option of the decision due.
def decision_options(
    state: GameState, max_bids: int = 0, ceilings: bool = True
) -> list[tuple[str, list[int]]]: ...

# The analysis as JSON-ready values: decider, kind, horizon, policy, rollouts, seed, exact,
# stop, seconds, target, gap_ci95, best (an index), screened_out, options (a list of dicts).
class AnalysisConfig(metaclass=_Pybind11Type):
    """The options of an analysis (analysis.hpp)."""

    horizon: str
    value: str
    policy: str
    seed: int
    rollouts: int
    max_rollouts: int
    @property
    def time_limit(self) -> float: ...
    @time_limit.setter
    def time_limit(self, arg0: SupportsFloat | SupportsIndex) -> None: ...
    @property
    def target(self) -> float: ...
    @target.setter
    def target(self, arg0: SupportsFloat | SupportsIndex) -> None: ...
    batch: int
    threads: int
    max_bids: int
    exact_shortcut: bool
    exact_answers: bool
    sample_hidden: bool
    racing: bool
    screen: int
    relative: bool
    final_worth: bool
    def __init__(self) -> None: ...

def analyse_decision(
    state: GameState,
    config: AnalysisConfig = ...,
    progress: Callable[[int, float], bool] | None = None,
) -> dict[str, Any]: ...
def expert_action(state: GameState, rng: Rng) -> int: ...

# A player's table (bind_table.cpp): the engine's reader of tables, for manila.game.table.
def read_table(text: str, seed: int) -> tuple[GameState, int]:
    """(the playable state, whose view it is) of a table's JSON, the others' face-down shares dealt at random from `seed`; ValueError naming the field."""

def resample_hidden(state: GameState, viewer: int, seed: int) -> GameState: ...
def hidden_deals(state: GameState, viewer: int) -> list[tuple[GameState, int]]: ...

# ---- review of a game (bind_review.cpp)

# decisions (index, player, voyage, kind, forced, chosen, exact, stop, rollouts, best (an
# index), screened_out, options: option 0 the chosen one), events (index, voyage, action,
# kind, before, after, luck, luck_ci95, exact), voyage_wealth, wealth, seconds, items.
def review_game(
    initial: GameState,
    history: Sequence[int],
    *,
    horizon: str = "voyage",
    value: str = "learned",
    policy: str = "greedy-office",
    seed: int = 0,
    rollouts: int = 0,
    max_rollouts: int = 256,
    time_limit: SupportsFloat | SupportsIndex = 2.0,
    target: SupportsFloat | SupportsIndex = 0.0,
    batch: int = 16,
    threads: int = 0,
    max_bids: int = 8,
    screen: int = 12,
    exact: bool = True,
    sample_hidden: bool = True,
    relative: bool = False,
    luck_rollouts: int = 256,
    decisions: bool = True,
    progress: Callable[[int, int], bool] | None = None,
) -> dict[str, Any]: ...

# The review's report (manila/review.hpp, api_review.cpp): its one home.
REVIEW_POLICY: str
REVIEW_CLASSES: tuple[str, ...]
REVIEW_THRESHOLDS: tuple[float, ...]
REVIEW_BANDS: tuple[tuple[str, float], ...]
REVIEW_ACCURACY_SCALE: float

def review_budget(horizon: str, quick: bool) -> dict[str, float]: ...
def loss_class(loss: SupportsFloat | SupportsIndex, ci95: SupportsFloat | SupportsIndex) -> str: ...
def band_of(mean_loss: SupportsFloat | SupportsIndex) -> str: ...
def same_exp(x: SupportsFloat | SupportsIndex) -> float: ...

# (the review's JSON text (docs/review.md), the record's items: decisions and chance
# events); the budget's numbers where none are given.
def review_report(
    initial: GameState,
    history: Sequence[int],
    *,
    horizon: str = "game",
    value: str = "learned",
    policy: str = "greedy-office",
    seed: int = 0,
    quick: bool = False,
    rollouts: int = 0,
    max_rollouts: int | None = None,
    target: SupportsFloat | SupportsIndex | None = None,
    time_limit: SupportsFloat | SupportsIndex | None = None,
    luck_rollouts: int | None = None,
    max_bids: int = 4,
    screen: int = 12,
    exact: bool = True,
    decisions: bool = True,
    threads: int = 0,
    progress: Callable[[int, int], bool] | None = None,
) -> tuple[str, int]: ...

# The learned value (manila/value.hpp).
VALUE_FEATURES: int

class ValueModel(metaclass=_Pybind11Type):
    def __init__(
        self,
        sizes: Sequence[int],
        mean: Sequence[SupportsFloat | SupportsIndex],
        scale: Sequence[SupportsFloat | SupportsIndex],
        weights: Sequence[Sequence[SupportsFloat | SupportsIndex]],
        biases: Sequence[Sequence[SupportsFloat | SupportsIndex]],
        info: str = "{}",
    ) -> None: ...
    @property
    def info(self) -> str: ...
    @property
    def sizes(self) -> list[int]: ...
    @property
    def mean(self) -> list[float]: ...
    @property
    def scale(self) -> list[float]: ...
    @property
    def weights(self) -> list[list[float]]: ...
    @property
    def biases(self) -> list[list[float]]: ...

def shipped_value_model() -> ValueModel: ...
def at_boundary(state: GameState) -> bool: ...
def value_is_exact(state: GameState) -> bool: ...
def value_features(state: GameState) -> npt.NDArray[np.float32]: ...
def boundary_value(state: GameState, model: ValueModel) -> dict[str, list[float]]: ...
def value_predict(
    model: ValueModel,
    features: Annotated[npt.ArrayLike, np.float32],
    wealth: Annotated[npt.ArrayLike, np.float64],
    players: int,
) -> dict[str, npt.NDArray[np.float64]]: ...
def position_value(
    state: GameState,
    model: ValueModel,
    policy: str,
    rollouts: int,
    seed: int,
    viewer: int = -1,
    threads: int = 0,
) -> dict[str, Any]: ...
def play_outs(
    state: GameState,
    bots: Sequence[str],
    weights: Sequence[SupportsFloat | SupportsIndex],
    n: int,
    seed: int,
    threads: int = 0,
) -> npt.NDArray[np.int32]: ...
def value_samples(
    players: int,
    seed: int,
    first: int,
    n: int,
    bots: Sequence[str],
    weights: Sequence[SupportsFloat | SupportsIndex],
    thirteen_to_port: bool = True,
    pirate_variant: bool = False,
    threads: int = 0,
) -> dict[str, Any]: ...
def value_boundaries(
    players: int,
    seed: int,
    first: int,
    n: int,
    bots: Sequence[str],
    weights: Sequence[SupportsFloat | SupportsIndex],
    thirteen_to_port: bool = True,
    pirate_variant: bool = False,
    threads: int = 0,
) -> list[list[GameState]]: ...

# The HTTP API's POST routes in the engine (cpp/include/manila/api.hpp).
ROUTES: tuple[str, ...]
STATE_REQUEST_KEYS: tuple[str, ...]
MOMENT_KINDS: tuple[str, ...]
MAX_ROLLOUTS: int
MIN_ROLLOUTS: int
VALUE_MAX_ROLLOUTS: int
VALUE_ROLLOUTS: int
VALUE_KEYS: tuple[str, ...]
TIME_LIMIT: float
ANALYSIS_MAX_ROLLOUTS: int
ANALYSIS_TIME_SHARE: float
ANALYSIS_KEYS: tuple[str, ...]
REVIEW_KEYS: tuple[str, ...]
REVIEW_MAX_ROLLOUTS: int
REVIEW_QUICK: bool
STOPPED: str  # the 503's message when progress stopped the work

def evaluation_json(
    table: Table, row: int, goods: Sequence[str], owners: Sequence[str], exact: bool
) -> dict[str, Any]: ...
def advice_json(
    kind: str,
    to_move: str,
    names: Sequence[str],
    costs: Sequence[int],
    nets: Sequence[int],
    denominator: int,
    best: int,
    line: Sequence[tuple[str, str]],
    payoffs: Sequence[int],
    owners: Sequence[str],
    exact: bool,
) -> dict[str, Any]: ...
def game_voyage_json(
    state: GameState, player: int, viewer: int, wealth: bool, moment: bool
) -> dict[str, Any] | None:
    """The voyage in progress as the contract's JSON, or None: `player` the point of view (-1: none), the shares as `viewer` sees them (-1: every share), the objective wealth or income; with `moment`, the decision due as a position, or None where none is."""

def read_voyage_state(
    text: str, strict: bool | None
) -> tuple[dict[str, Any] | None, list[tuple[str, str, str]]]:
    """(the state as VoyageState.to_dict writes it, []) of a voyage state's JSON, or (None, every problem as (path, message, remedy)); `strict` None: the JSON's own."""

def read_position(text: str, strict: bool | None) -> tuple[dict[str, Any] | None, list[tuple[str, str, str]]]:
    """({"state": as VoyageState.to_dict writes it, "moment": as Moment.to_dict writes it, "extra_owners": the round's players the state does not name}, []) of a position's JSON, or (None, every problem as (path, message, remedy))."""

def read_state_body(text: str) -> tuple[dict[str, Any] | None, list[tuple[str, str, str]]]:
    """({} for a body that is the state or position itself, or {"notation": ..., "exact": ..., "strict": ...} as given, []) of the body of /v1/validate, /v1/evaluate or /v1/advise, or (None, every problem as (path, message, remedy))."""

def read_heavy_body(text: str, route: str) -> tuple[dict[str, Any] | None, list[tuple[str, str, str]]]:
    """({}, []) for the body of a heavy route (/v1/analyse, /v1/value, /v1/review) of its shape and within a server's bounds, or (None, [its first problem])."""

def heavy_refusal(route: str, error: str, input: bool) -> tuple[str, str]:
    """(path, message): where a heavy route's refusal belongs, an option's at its key, its table's or record's (input=True, or no option's) within it: table.players[0].cash."""

def reachability_problems(next_roll: int, positions: Sequence[tuple[str, int]]) -> list[tuple[str, str, str]]:
    """Why boats on these spaces ((name, space) each, ARRIVED once arrived) cannot stand before roll next_roll in a real voyage, as (path, message, remedy); [] if they can."""

def read_notation(text: str) -> tuple[dict[str, Any] | None, list[tuple[str, str, str]]]:
    """(the state or position in its JSON form, []) of a notation, only its syntax checked, or (None, every problem as (path, message, remedy)); ValueError for a number past int()'s limit."""

def read_notation_option(
    key: str, values: Sequence[str], path: str
) -> tuple[Any, list[tuple[str, str, str]]]:
    """(the JSON value of a state key written as notation items key=value, one per value (None for none), []) or (None, every problem at `path`); ValueError for a number past int()'s limit."""

def read_game_rules(text: str) -> tuple[bool, bool]:
    """(thirteen_to_port, pirate_variant) of a game's rule options given as JSON (null: the defaults); ValueError with the first problem as a line ("path: message")."""

def read_record_fields(
    text: str,
) -> tuple[tuple[int, int, bool, bool, list[int], int | None] | None, tuple[str, str, bool] | None]:
    """((players, seed, thirteen_to_port, pirate_variant, history, rng or None), None) of a game record's JSON, its fields checked (not its actions), or (None, (message, field, lead)) for the first problem: RecordError's parts, lead when it is no game record."""

def call(
    route: str, body: str, progress: Callable[[int, int], bool] | None = None
) -> tuple[int, str]: ...  # body: bytes are taken too
def play(
    body: str,
    bots: Sequence[str] = [],
    move: Callable[[str, int, GameState], int] | None = None,
    stop: Callable[[], bool] | None = None,
    hint_seconds: SupportsFloat | SupportsIndex = -1.0,
) -> tuple[int, str]: ...  # body: bytes are taken too

PLAY_VERSION: int
PLAY_KEYS: tuple[str, ...]
PLAY_NEW_KEYS: tuple[str, ...]
PLAY_RECORD_KEYS: tuple[str, ...]
PLAY_DEFAULT_BOT: str
PLAY_HINT_SECONDS: float
PLAY_HINT_TIME_SHARE: float
PLAY_BOTS_TIME_SHARE: float
PLAY_HINT_MAX_ROLLOUTS: int
PLAY_HINT_SALT: int
PLAY_CHECK_DIGITS: int

def sha256_hex(data: bytes) -> str: ...

# The words players read (cpp/include/manila/words.hpp).
SPOT_LABELS: dict[str, str]

def plain_words(
    *,
    decider: str,
    kind: str,
    horizon: str,
    options: Sequence[
        tuple[
            str,
            SupportsFloat | SupportsIndex,
            SupportsFloat | SupportsIndex,
            SupportsFloat | SupportsIndex,
            SupportsFloat | SupportsIndex,
        ]
    ],
    best: int,
    worth: int | None,
    screened_out: int,
    to_decider: bool = False,
) -> list[str]: ...
