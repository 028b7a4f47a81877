"""The OpenAPI 3.1 description of the HTTP API, as served at ``GET /openapi.json``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import _core
from ..analysis.analysis import DEFAULT_POLICY, HORIZONS, POLICIES, VALUE_SOURCES
from ..analysis.review import CLASSES, REVIEW_POLICY
from ..analysis.value import DEFAULT_ROLLOUTS
from ..bots.builtin import bot_names
from ..common.limits import MIN_ROLLOUTS
from ..common.version import __version__
from ..common.vocab import (
    ARRIVED,
    GOODS,
    LAST_SPACE,
    MAX_SEATS,
    OBJECTIVES,
    PLAYER_COUNTS,
    PRICES,
    ROLLS,
    SEATS,
    SHARES_PER_GOOD,
    SPOTS,
    THIRTEEN_OPTIONS,
)
from ..voyage.evaluation import TABLE_SPOTS
from ..voyage.example import EXAMPLE
from ..voyage.position import KINDS
from ..voyage.state import VoyageState
from .play import DEFAULT_BOT, HINT_MAX_ROLLOUTS
from .play import REQUEST_KEYS as PLAY_KEYS

JSON_TYPE = "application/json"
MAX_BODY = 64 * 1024  # bytes; the server's default cap
# POST /v1/analyse: per option, at most (the engine's call answers the route too).
ANALYSIS_MAX_ROLLOUTS: int = _core.ANALYSIS_MAX_ROLLOUTS
ANALYSIS_KEYS: tuple[str, ...] = tuple(_core.ANALYSIS_KEYS)

# POST /v1/review: the budgets of a quick review at most, one thread, and the whole review
# within the request's time limit (else 503).
# per option of a decision, and per chance event: the engine's call answers the route too
REVIEW_MAX_ROLLOUTS: int = _core.REVIEW_MAX_ROLLOUTS
REVIEW_QUICK: bool = _core.REVIEW_QUICK  # a request that does not say: a quick review
# POST /v1/value: the play-outs from a moment where placements remain, bounded.
VALUE_MAX_ROLLOUTS: int = _core.VALUE_MAX_ROLLOUTS  # the engine's call answers the route too
VALUE_KEYS: tuple[str, ...] = tuple(_core.VALUE_KEYS)
REVIEW_KEYS: tuple[str, ...] = tuple(_core.REVIEW_KEYS)


def _error_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {JSON_TYPE: {"schema": {"$ref": "#/components/schemas/Errors"}}},
    }


def _flag(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "description": description,
        "schema": {"type": "string", "enum": ["1", "0", "true", "false"]},
    }


# The options the rollout routes (analyse, value, review) share.
_POLICY = {"enum": list(POLICIES), "default": DEFAULT_POLICY}
_SEED = {"type": "integer", "minimum": 0, "default": 0}
_TABLE = {
    "type": "object",
    "description": "a table (the JSON of state.observation(p): docs/observation.md) "
    "or a serialized engine state (State.serialize())",
}


def _analyse_request() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["table"],
        "additionalProperties": False,
        "properties": {
            "table": _TABLE,
            "horizon": {"enum": list(HORIZONS), "default": "voyage"},
            "value": {
                "enum": list(VALUE_SOURCES),
                "default": VALUE_SOURCES[0],
                "description": "horizon game: learned (rollouts stop at the next voyage "
                "boundary with the learned value) or rollout (played to the end)",
            },
            "policy": _POLICY,
            "rollouts": {
                "type": ["integer", "null"],
                "minimum": MIN_ROLLOUTS,
                "maximum": ANALYSIS_MAX_ROLLOUTS,
                "description": "per option; absent or null: until the best two options' "
                "diff_ci95 reaches 1 peso (of equity at horizon game), or the time limit",
            },
            "seed": _SEED,
            "time_limit": {
                "type": "number",
                "minimum": 0,
                "description": "seconds, capped below the server's limit (0: that cap alone)",
            },
            "exact": {"type": "boolean", "default": True},
            "max_bids": {"type": "integer", "minimum": 0, "default": 0},
            "screen": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "the harbour master's combinations rolled out "
                f"(0: all; absent or null: {_core.HARBOUR_SCREEN})",
            },
        },
    }


def _analysis() -> dict[str, Any]:
    value = {
        "type": "object",
        "required": ["mean", "ci95", "diff", "diff_ci95"],
        "properties": {
            k: {"type": "number"}
            for k in ("mean", "ci95", "diff", "diff_ci95", "win", "win_ci95", "margin", "margin_ci95")
        }
        | {"rollouts": {"type": "integer"}, "exact": {"type": "boolean"}},
    }
    return {
        "type": "object",
        "required": ["decider", "kind", "horizon", "policy", "rollouts", "seed", "exact", "options", "best"],
        "properties": {
            "decider": {"type": "string"},
            "kind": {"type": "string"},
            "horizon": {"type": "string"},
            "unit": {"enum": ["pesos", "equity"]},
            "value": {"enum": list(VALUE_SOURCES)},
            "policy": {"type": "string"},
            "rollouts": {"type": "integer"},
            "seed": {"type": "integer"},
            "exact": {"type": "boolean"},
            "options": {"type": "object", "additionalProperties": value},
            "best": {"type": "string"},
            "stop": {"type": "string"},
            "gap_ci95": {"type": "number"},
            "target": {"type": "number"},
            "screened_out": {"type": "integer"},
            "seconds": {"type": "number"},
            "worth": {"type": "integer", "description": "auction: the office's worth to the decider"},
            "words": {
                "type": "array",
                "items": {"type": "string"},
                "description": "the analysis in plain words (docs/analysis.md)",
            },
            "words_to_decider": {
                "type": "array",
                "items": {"type": "string"},
                "description": 'the same words said to the decider: their seat reads "you"',
            },
        },
    }


def _value_request() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["table"],
        "additionalProperties": False,
        "properties": {
            "table": _TABLE,
            "policy": _POLICY,
            "rollouts": {
                "type": "integer",
                "minimum": MIN_ROLLOUTS,
                "maximum": VALUE_MAX_ROLLOUTS,
                "default": DEFAULT_ROLLOUTS,
                "description": "play-outs from a moment where placements remain",
            },
            "seed": _SEED,
        },
    }


def _value() -> dict[str, Any]:
    number = {"type": "number"}
    player = {
        "type": "object",
        "required": ["wealth", "equity", "win"],
        "properties": {
            k: number for k in ("wealth", "equity", "win", "wealth_ci95", "equity_ci95", "win_ci95")
        },
    }
    return {
        "type": "object",
        "required": ["unit", "exact", "players"],
        "properties": {
            "unit": {"enum": ["equity"]},
            "exact": {"type": "boolean"},
            "rollouts": {"type": "integer"},
            "policy": {"type": "string"},
            "seed": {"type": "integer"},
            "phase": {"type": "string"},
            "players": {"type": "object", "additionalProperties": player},
            "model": {"type": "object"},
        },
    }


def _review_request() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["record"],
        "additionalProperties": False,
        "properties": {
            "record": {
                "type": "object",
                "description": "a finished game: a line of simulate --record, or State.serialize()",
            },
            "horizon": {"enum": list(HORIZONS), "default": "game"},
            "value": {"enum": list(VALUE_SOURCES), "default": VALUE_SOURCES[0]},
            "policy": {"enum": list(POLICIES), "default": REVIEW_POLICY},
            "seed": _SEED,
            "quick": {
                "type": "boolean",
                "default": True,
                "description": "the coarser pass (the server's default)",
            },
            "rollouts": {
                "type": ["integer", "null"],
                "minimum": MIN_ROLLOUTS,
                "maximum": REVIEW_MAX_ROLLOUTS,
                "description": "per option of every decision; absent or null: the stop rule",
            },
            "luck_rollouts": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": REVIEW_MAX_ROLLOUTS,
                "description": "per chance event (0: no luck; absent or null: the budget's)",
            },
            "exact": {"type": "boolean", "default": True},
        },
    }


def _review() -> dict[str, Any]:
    number = {"type": "number"}
    decision = {
        "type": "object",
        "required": [
            "index",
            "player",
            "voyage",
            "kind",
            "chosen",
            "best",
            "loss",
            "loss_ci95",
            "class",
            "forced",
            "exact",
        ],
        "properties": {
            "index": {"type": "integer"},
            "player": {"type": "string"},
            "voyage": {"type": "integer"},
            "kind": {"type": "string"},
            "chosen": {"type": "string"},
            "best": {"type": "string"},
            "loss": {**number, "minimum": 0},
            "loss_ci95": {**number, "minimum": 0},
            "class": {"enum": list(CLASSES)},
            "forced": {"type": "boolean"},
            "exact": {"type": "boolean"},
            "table": {"type": "string", "description": "the table as the decider saw it, in notation"},
        },
    }
    player = {
        "type": "object",
        "required": ["decisions", "non_forced", "total_loss", "mean_loss", "accuracy", "luck"],
        "properties": {
            "decisions": {"type": "integer"},
            "non_forced": {"type": "integer"},
            "total_loss": number,
            "mean_loss": number,
            "accuracy": {**number, "minimum": 0, "maximum": 1},
            "luck": number,
            "luck_ci95": number,
            "wealth": {"type": "integer"},
        },
    }
    return {
        "type": "object",
        "required": ["horizon", "policy", "seed", "decisions", "players"],
        "properties": {
            "horizon": {"type": "string"},
            "policy": {"type": "string"},
            "seed": {"type": "integer"},
            "decisions": {"type": "array", "items": decision},
            "players": {"type": "object", "additionalProperties": player},
            "events": {"type": "array", "items": {"type": "object"}},
        },
    }


def _play_request(allowed: Sequence[str]) -> dict[str, Any]:
    game = {"type": "object", "description": "the game exactly as an earlier answer gave it"}
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "new": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "players": {"type": "integer", "minimum": PLAYER_COUNTS[0], "maximum": PLAYER_COUNTS[-1]},
                    "seed": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
                    "human": {"type": "integer", "minimum": 0, "description": "the player's seat"},
                    "bots": {
                        "type": "array",
                        "items": {"enum": [*bot_names(), *allowed]},
                        "description": f"the other seats' bots in seat order (default {DEFAULT_BOT})",
                    },
                    "rules": {"type": ["object", "null"]},
                },
            },
            "game": game,
            "action": {"type": "string", "description": "the player's action by name, e.g. 'bid 7'"},
            "hint": {"type": "boolean"},
            "log": {"type": "boolean", "description": "the log of the whole game (for a loaded game)"},
            "rollouts": {
                "type": "integer",
                "minimum": MIN_ROLLOUTS,
                "maximum": HINT_MAX_ROLLOUTS,
                "description": "with a hint: this many rollouts per option instead of seconds "
                "(the same hint every time, here and in the page's engine)",
            },
        },
        "propertyNames": {"enum": list(PLAY_KEYS)},
    }


def _play_answer() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["game", "you", "view", "legal_actions", "terminal", "pending", "log"],
        "properties": {
            "game": {
                "type": "object",
                "description": "the game to send back (engine state, seat, bots, check)",
            },
            "you": {"type": "string"},
            "bots": {"type": "object", "additionalProperties": {"type": "string"}},
            "phase": {"type": "string"},
            "voyage": {"type": "integer"},
            "to_move": {"type": ["string", "null"]},
            "legal_actions": {"type": "array", "items": {"type": "string"}},
            "terminal": {"type": "boolean"},
            "pending": {"type": "boolean", "description": "a bot is still to move: send the game again"},
            "view": {
                "type": "object",
                "description": "the player's observation (the others' dealt shares hidden)",
            },
            "face_down": {"type": "array", "items": {"enum": list(GOODS)}},
            "log": {"type": "array", "items": {"type": "string"}},
            "final": {
                "type": "object",
                "properties": {
                    "wealth": {"type": "array", "items": {"type": "integer"}},
                    "winners": {"type": "array", "items": {"type": "string"}},
                    "shares": {
                        "type": "array",
                        "description": "every player's shares, the face-down ones revealed",
                        "items": {"type": "object", "additionalProperties": {"type": "integer"}},
                    },
                },
            },
            "hint": {
                "type": "object",
                "required": ["source", "best", "options", "words"],
                "properties": {
                    "source": {"enum": ["advice", "analysis"]},
                    "exact": {"type": "boolean"},
                    "kind": {"type": "string"},
                    "best": {"type": "string"},
                    "options": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["action", "value"],
                            "properties": {"action": {"type": "string"}, "value": {"type": "number"}},
                        },
                    },
                    "words": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    }


def description(allowed_bots: Sequence[str] = ()) -> dict[str, Any]:
    """The OpenAPI 3.1 description of the server, as served at /openapi.json; ``allowed_bots``:
    the bots its /v1/play plays besides the built-in ones (``serve --allow-bot``)."""
    owner = {
        "type": "string",
        "pattern": r"\S",
        "description": "a player's name: any string that is not blank",
    }
    number = {
        "oneOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?[0-9]+/[0-9]+$"}],
        "description": 'a float, or with exact an exact fraction "n/d" in lowest terms',
    }
    boat = {
        good: {
            "type": "object",
            "additionalProperties": False,
            "required": ["position"],
            "properties": {
                "position": {
                    "oneOf": [{"type": "integer", "minimum": 0, "maximum": LAST_SPACE}, {"const": ARRIVED}]
                },
                "crew": {
                    "type": "array",
                    "items": {"$ref": "#/components/schemas/Owner"},
                    "maxItems": len(SEATS[good]),
                    "description": "owners of the occupied seats, front seat first",
                },
            },
        }
        for good in GOODS
    }
    state = {
        "type": "object",
        "additionalProperties": False,
        "required": ["next_roll", "boats"],
        "description": "The voyage state (docs/numbers.md). The schema cannot say everything: "
        "pirate_2 needs pirate_1, a player holds at most 3 accomplices (4 with "
        "players 3), and unless strict is false the positions must be reachable "
        "from a legal start; a state breaking these gets a 400.",
        "properties": {
            "rules": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "thirteen_after_last_roll": {"enum": list(THIRTEEN_OPTIONS)},
                            "pirate_variant": {"type": "boolean"},
                        },
                    },
                ]
            },
            "next_roll": {"type": "integer", "minimum": ROLLS[0], "maximum": ROLLS[-1]},
            "player": {"oneOf": [{"$ref": "#/components/schemas/Owner"}, {"type": "null"}]},
            "players": {
                "oneOf": [
                    {"type": "integer", "minimum": PLAYER_COUNTS[0], "maximum": PLAYER_COUNTS[-1]},
                    {"type": "null"},
                ]
            },
            "boats": {
                "type": "object",
                "minProperties": 3,
                "maxProperties": 3,
                "additionalProperties": False,
                "properties": {g: {"$ref": f"#/components/schemas/Boat_{g}"} for g in GOODS},
            },
            "spots": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            s: {"oneOf": [{"$ref": "#/components/schemas/Owner"}, {"type": "null"}]}
                            for s in SPOTS
                        },
                    },
                ]
            },
            "objective": {
                "enum": list(OBJECTIVES),
                "description": "what players maximise: voyage income, or income plus "
                "share gains (docs/numbers.md)",
            },
            "shares": {
                "type": "object",
                "description": "shares each player holds, by good",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        g: {"type": "integer", "minimum": 0, "maximum": SHARES_PER_GOOD} for g in GOODS
                    },
                },
            },
            "prices": {
                "type": "object",
                "additionalProperties": False,
                "properties": {g: {"enum": list(PRICES)} for g in GOODS},
            },
            "budget": {
                "type": "object",
                "description": "the most each player can pay now",
                "additionalProperties": {"type": "integer", "minimum": 0},
            },
            "exact": {"type": "boolean", "description": "answer in exact fractions"},
            "strict": {"type": "boolean", "description": "false accepts positions no real voyage reaches"},
            "version": {"type": "integer"},
        },
    }
    names = {"type": "array", "items": {"$ref": "#/components/schemas/Owner"}}
    position = {
        "description": "A voyage state with the decision that is due (docs/advice.md).",
        "allOf": [{"$ref": "#/components/schemas/State"}],
        "type": "object",
        "required": ["next_roll", "boats", "moment"],
        "properties": {
            "moment": {
                "type": "object",
                "required": ["kind"],
                "additionalProperties": False,
                "properties": {
                    "kind": {"enum": list(KINDS)},
                    "order": names,
                    "to_move": {"$ref": "#/components/schemas/Owner"},
                    "accomplices": {
                        "type": "object",
                        "additionalProperties": {"type": "integer", "minimum": 0},
                    },
                    "declined": names,
                    "protected": {
                        "type": "object",
                        "required": ["good", "seat"],
                        "properties": {
                            "good": {"enum": list(GOODS)},
                            "seat": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS},
                        },
                    },
                },
            }
        },
    }
    advice = {
        "type": "object",
        "required": ["kind", "to_move", "options", "best", "line", "payoffs"],
        "properties": {
            "kind": {"enum": list(KINDS)},
            "to_move": {"$ref": "#/components/schemas/Owner"},
            "options": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "required": ["cost", "expected_net"],
                    "properties": {
                        "cost": {"type": "integer"},
                        "expected_net": {"$ref": "#/components/schemas/Number"},
                    },
                },
            },
            "best": {"type": "string"},
            "line": {
                "type": "array",
                "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "string"}},
            },
            "payoffs": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Number"}},
            "horizon": {"type": "string"},
        },
    }
    advise_body = {
        "required": True,
        "content": {
            JSON_TYPE: {
                "schema": {
                    "oneOf": [
                        {"$ref": "#/components/schemas/Position"},
                        {"$ref": "#/components/schemas/NotationRequest"},
                    ]
                },
                "examples": {
                    "placement": {
                        "summary": "a placement turn, four players still to move",
                        "value": {"notation": "r3 ginseng@9:a silk@11:b jade@10:c,d turn=a order=a,b,c,d"},
                    }
                },
            }
        },
    }
    notation = {
        "type": "object",
        "additionalProperties": False,
        "required": ["notation"],
        "properties": {
            "notation": {
                "type": "string",
                "description": "the one-line notation, e.g. "
                '"r2 ginseng@8:red,blue silk@arrived:green jade@12"',
            },
            "exact": {"type": "boolean"},
            "strict": {"type": "boolean"},
        },
    }
    body = {
        "required": True,
        "content": {
            JSON_TYPE: {
                "schema": {
                    "oneOf": [
                        {"$ref": "#/components/schemas/State"},
                        {"$ref": "#/components/schemas/NotationRequest"},
                    ]
                },
                "examples": {
                    "state": {"summary": "a state before roll 3", "value": EXAMPLE},
                    "notation": {
                        "summary": "the same state in notation",
                        "value": {"notation": str(VoyageState.from_dict(EXAMPLE))},
                    },
                    "hypothetical": {
                        "summary": "positions no real voyage reaches, with strict false",
                        "value": {"notation": "r2 ginseng@12 silk@13 jade@0:red", "strict": False},
                    },
                },
            }
        },
    }
    evaluation = {
        "type": "object",
        "required": ["spots", "boats", "incomes"],
        "properties": {
            "spots": {
                "type": "object",
                "propertyNames": {"enum": list(TABLE_SPOTS)},
                "additionalProperties": {
                    "type": "object",
                    "required": ["cost", "expected_net"],
                    "properties": {
                        "cost": {"type": "integer"},
                        "expected_net": {"$ref": "#/components/schemas/Number"},
                    },
                },
            },
            "boats": {
                "type": "object",
                "propertyNames": {"enum": list(GOODS)},
                "minProperties": 3,
                "maxProperties": 3,
                "additionalProperties": {
                    "type": "object",
                    "required": ["port", "shipyard", "plundered"],
                    "properties": {
                        k: {"$ref": "#/components/schemas/Number"} for k in ("port", "shipyard", "plundered")
                    },
                },
            },
            "incomes": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Number"}},
            "payoffs": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Number"}},
        },
    }
    validation = {
        "type": "object",
        "required": ["valid", "state", "notation"],
        "properties": {
            "valid": {"const": True},
            "state": {"$ref": "#/components/schemas/State"},
            "notation": {"type": "string"},
        },
    }
    problem = {
        "type": "object",
        "required": ["path", "message"],
        "additionalProperties": False,
        "properties": {
            "path": {
                "type": "string",
                "description": "where: a JSON path such as boats.silk.crew, "
                "query.NAME, headers.NAME, or empty",
            },
            "message": {"type": "string"},
        },
    }
    errors = {
        "type": "object",
        "required": ["errors"],
        "additionalProperties": False,
        "properties": {
            "errors": {"type": "array", "minItems": 1, "items": {"$ref": "#/components/schemas/Problem"}}
        },
    }
    body_errors = {
        "400": _error_response("unreadable JSON, an invalid state, or a bad query parameter"),
        "408": _error_response("the body did not arrive within the time limit"),
        "411": _error_response("no Content-Length (chunked bodies are refused)"),
        "413": _error_response(f"the body is over {MAX_BODY} bytes"),
        "415": _error_response("the body is not application/json in UTF-8"),
        "500": _error_response("an internal error (details only in the server's log)"),
    }
    internal = {"500": _error_response("an internal error (details only in the server's log)")}

    def ok(description: str, schema: dict[str, Any], ctype: str = JSON_TYPE) -> dict[str, Any]:
        return {"description": description, "content": {ctype: {"schema": schema}}}

    spec: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "manila",
            "version": __version__,
            "description": "Exact expected values for a voyage of the board game Manila. "
            'Every error answers {"errors": [{"path", "message"}]}; '
            "an unknown path is a 404, a method a route lacks a 405 with "
            "Allow.",
        },
        "paths": {
            "/v1/evaluate": {
                "post": {
                    "operationId": "evaluate",
                    "summary": "value every spot, boat and player of a voyage state",
                    "parameters": [
                        _flag("exact", '1 or true: exact fractions "n/d" (overrides the body\'s exact)'),
                        _flag(
                            "strict", "0 or false: accept unreachable positions (overrides the body's strict)"
                        ),
                    ],
                    "requestBody": body,
                    "responses": {
                        "200": ok(
                            "the evaluation JSON (docs/numbers.md); the spot values assume nobody places after the player",
                            {"$ref": "#/components/schemas/Evaluation"},
                        ),
                        **body_errors,
                        "503": _error_response("the evaluation took longer than the time limit"),
                    },
                }
            },
            "/v1/advise": {
                "post": {
                    "operationId": "advise",
                    "summary": "the best choice at a decision, knowing everyone after answers",
                    "description": "Every option of the decision that is due, valued exactly with "
                    "everyone after the decider playing their own best reply "
                    "(docs/advice.md). A search can take seconds early in a voyage: "
                    "only a few run at once and more are answered 503 at once.",
                    "parameters": [
                        _flag("exact", '1 or true: exact fractions "n/d"'),
                        _flag("strict", "0 or false: accept unreachable positions"),
                    ],
                    "requestBody": advise_body,
                    "responses": {
                        "200": ok(
                            "the advice JSON (docs/advice.md)", {"$ref": "#/components/schemas/Advice"}
                        ),
                        **body_errors,
                        "503": _error_response(
                            "busy (too many advice searches at once), or the "
                            "search took longer than the time limit"
                        ),
                    },
                }
            },
            "/v1/analyse": {
                "post": {
                    "operationId": "analyse",
                    "summary": "value every option of a game decision by rollouts",
                    "description": "Every legal option of the decision due in a table (a "
                    "player's view, as state.observation(p) gives it) or a serialized engine "
                    "state, valued by rollouts with a continuation policy (docs/analysis.md; "
                    "docs/analysis.md). Rollouts are bounded: at most "
                    f"{ANALYSIS_MAX_ROLLOUTS} per option, and the analysis stops by itself "
                    "before the request's time limit. It counts as a heavy search: only a "
                    "few run at once and more are answered 503 at once.",
                    "requestBody": {
                        "required": True,
                        "content": {JSON_TYPE: {"schema": {"$ref": "#/components/schemas/AnalyseRequest"}}},
                    },
                    "responses": {
                        "200": ok(
                            "the analysis JSON (docs/analysis.md)", {"$ref": "#/components/schemas/Analysis"}
                        ),
                        **body_errors,
                        "503": _error_response("busy (too many heavy searches at once)"),
                    },
                }
            },
            "/v1/value": {
                "post": {
                    "operationId": "value",
                    "summary": "every player's expected final wealth, equity and chance of winning",
                    "description": "The learned value of a table (a player's view) or a serialized "
                    "engine state (docs/value.md): exact up to the next voyage where no placement "
                    "remains, else the mean of seeded play-outs (at most "
                    f"{VALUE_MAX_ROLLOUTS}) with 95% intervals. It counts as a heavy search.",
                    "requestBody": {
                        "required": True,
                        "content": {JSON_TYPE: {"schema": {"$ref": "#/components/schemas/ValueRequest"}}},
                    },
                    "responses": {
                        "200": ok("the value JSON (docs/value.md)", {"$ref": "#/components/schemas/Value"}),
                        **body_errors,
                        "503": _error_response("busy (too many heavy searches at once)"),
                    },
                }
            },
            "/v1/review": {
                "post": {
                    "operationId": "review",
                    "summary": "review a recorded game: each decision's loss, each player's luck",
                    "description": "Every decision of every player of a finished game against the "
                    "best option by rollouts (loss, class), and each player's luck from the deals "
                    "and the dice (docs/review.md). Bounded: the quick pass by "
                    f"default, at most {REVIEW_MAX_ROLLOUTS} rollouts per option and per chance "
                    "event, one thread, and the whole review within the request's time limit "
                    "(else 503: review long games with python -m manila review). It counts as a "
                    "heavy search.",
                    "requestBody": {
                        "required": True,
                        "content": {JSON_TYPE: {"schema": {"$ref": "#/components/schemas/ReviewRequest"}}},
                    },
                    "responses": {
                        "200": ok(
                            "the review JSON (docs/review.md)", {"$ref": "#/components/schemas/Review"}
                        ),
                        **body_errors,
                        "503": _error_response("busy, or the review would take longer than the time limit"),
                    },
                }
            },
            "/v1/play": {
                "post": {
                    "operationId": "play",
                    "summary": "a game against the bots, held by the client",
                    "description": "A new game, or the game an earlier answer gave plus the "
                    "player's action: the answer is the game after that action and every bot "
                    "reply and chance event up to the player's next decision (or the end), "
                    "the player's view, their legal actions by name and the log (docs/play.md). "
                    'The server keeps nothing. {"game", "hint": true} adds a hint (the exact '
                    "advice where it exists, else rollouts) and plays nothing; hints count as "
                    "heavy searches. Bots stop at half the time limit: then pending is true "
                    'and {"game"} alone goes on. A changed game, an illegal action or another '
                    "version is a 400 naming the action or field.",
                    "requestBody": {
                        "required": True,
                        "content": {JSON_TYPE: {"schema": {"$ref": "#/components/schemas/PlayRequest"}}},
                    },
                    "responses": {
                        "200": ok(
                            "the game and the player's view", {"$ref": "#/components/schemas/PlayAnswer"}
                        ),
                        **body_errors,
                        "503": _error_response(
                            "busy (too many games or hints at once), or over the time limit"
                        ),
                    },
                }
            },
            "/v1/validate": {
                "post": {
                    "operationId": "validate",
                    "summary": "check a state without evaluating it",
                    "description": "A valid state comes back in canonical JSON and notation; an "
                    "invalid one gets a 400 listing every problem found.",
                    "parameters": [_flag("strict", "0 or false: accept unreachable positions")],
                    "requestBody": body,
                    "responses": {
                        "200": ok("the verdict", {"$ref": "#/components/schemas/Validation"}),
                        **body_errors,
                    },
                }
            },
            "/v1/example": {
                "get": {
                    "operationId": "example",
                    "summary": "an example voyage state",
                    "responses": {
                        "200": ok("a state", {"$ref": "#/components/schemas/State"}),
                        "400": _error_response("a query parameter was given"),
                        **internal,
                    },
                }
            },
            "/healthz": {
                "get": {
                    "operationId": "health",
                    "summary": "whether the server is up",
                    "responses": {
                        "200": ok(
                            "up",
                            {
                                "type": "object",
                                "required": ["status", "version"],
                                "properties": {"status": {"const": "ok"}, "version": {"type": "string"}},
                            },
                        ),
                        **internal,
                    },
                }
            },
            "/openapi.json": {
                "get": {
                    "operationId": "openapi",
                    "summary": "this description",
                    "responses": {"200": ok("OpenAPI 3.1", {"type": "object"}), **internal},
                }
            },
            "/play": {
                "get": {
                    "operationId": "play_page",
                    "summary": "the page to play against the bots",
                    "responses": {
                        "200": ok("one self-contained HTML page", {"type": "string"}, "text/html"),
                        **internal,
                    },
                }
            },
            "/": {
                "get": {
                    "operationId": "page",
                    "summary": "the calculator page for players",
                    "responses": {
                        "200": ok("one self-contained HTML page", {"type": "string"}, "text/html"),
                        **internal,
                    },
                }
            },
        },
        "components": {
            "schemas": {
                "Owner": owner,
                "Number": number,
                "State": state,
                "NotationRequest": notation,
                "Evaluation": evaluation,
                "Validation": validation,
                "Position": position,
                "Advice": advice,
                "Problem": problem,
                "Errors": errors,
                "AnalyseRequest": _analyse_request(),
                "ValueRequest": _value_request(),
                "Value": _value(),
                "Analysis": _analysis(),
                "ReviewRequest": _review_request(),
                "Review": _review(),
                "PlayRequest": _play_request(allowed_bots),
                "PlayAnswer": _play_answer(),
                **{f"Boat_{g}": boat[g] for g in GOODS},
            }
        },
    }
    # Whatever an operation does not list is answered in the same error JSON: a path the
    # server lacks (404), a method a path lacks (405, Allow naming those it has), a request
    # the transport refuses (408, 411, 413, 415, 505).
    for operations in spec["paths"].values():
        for operation in operations.values():
            operation["responses"].setdefault("default", _OTHER_ERRORS)
    return spec


_OTHER_ERRORS = _error_response(
    "another refusal: 404 no such path, 405 a method the path lacks (the Allow header lists "
    "those it has; OPTIONS answers 204 with it), 408 the body too slow, 411 no "
    "Content-Length, 413 too large, 415 not application/json, 505 not HTTP/1.x"
)
