"""What the command line reads and writes.

A state comes from a file, from standard input (``-``), or from the command line itself
(notation or JSON); files and standard input are read up to a size limit, so ``/dev/zero``
or a stray binary is refused instead of filling the memory. Output paths are checked
before any work is done. Every refusal is an InputError: one line, in plain words.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, BinaryIO, Optional, Union

from .errors import Problem, StateError

MAX_INPUT = 4 * 1024 * 1024  # bytes; the largest state or game record is a few kB

_JSON_START = re.compile(r'[\[{"\-0-9]|(true|false|null)\b')
_ROLL_START = re.compile(r"r[0-9]")

# CPython's JSON messages, in the words of the rest of the program.
_JSON_REASONS = {
    "Expecting value": "a value was expected",
    "Expecting property name enclosed in double quotes": "a key in double quotes was expected",
    "Expecting ':' delimiter": "a ':' was expected after the key",
    "Expecting ',' delimiter": "a ',' or a closing bracket was expected",
    "Unterminated string starting at": "a string is not closed",
    "Invalid control character at": "a line break or control character inside a string",
    "Invalid \\escape": "an unknown backslash escape in a string",
    "Invalid \\uXXXX escape": "an unknown \\u escape in a string",
    "Extra data": "more text after the end of the JSON value",
}


class InputError(ValueError):
    """Input or output the command line cannot use; reported as one line, exit status 2."""


def source_name(source: str) -> str:
    return "standard input" if source == "-" else source


def json_error_text(exc: json.JSONDecodeError) -> str:
    """Why a text is not JSON, and where: 'a value was expected at line 1 column 1'."""
    reason = _JSON_REASONS.get(exc.msg, "not valid here")
    return f"{reason} at line {exc.lineno} column {exc.colno}"


def engine_json(value: Any) -> str:
    """``value`` as the JSON text the engine's readers take (a mapping as the dict of it);
    a ValueError saying why for a value JSON has no word for (a set, a numpy number)."""
    try:
        return json.dumps(dict(value) if isinstance(value, Mapping) else value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not JSON ({exc})") from None
    except RecursionError:
        raise ValueError("not JSON (nested too deeply)") from None


def engine_read(reader: Callable[..., Any], data: Any, *args: Any) -> Any:
    """What one of the engine's readers of the contract's JSON (``reader(text, *args)``, which
    answers (what it read, problems)) read of ``data``; StateError with every problem."""
    try:
        text = engine_json(data)
    except ValueError as exc:
        raise StateError([Problem("", str(exc))]) from None
    read, problems = reader(text, *args)
    if problems:
        raise StateError([Problem(*p) for p in problems])
    return read


def json_type(value: Any) -> str:
    """The JSON name of a value's type, with its article ('an array', 'null')."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def no_json_constant(name: str) -> Any:
    """``json.loads(..., parse_constant=no_json_constant)`` refuses NaN and Infinity, which
    JSON does not have (Python's reader accepts them)."""
    raise ValueError(f"{name} is not a JSON number")


def json_value(text: Union[str, bytes], constants: bool = False) -> Any:
    """The JSON value in ``text``: the one reader of JSON a caller sends (files, standard
    input, HTTP bodies, records and tables given as text). A ValueError says why it is not
    JSON, in words for the sender: where the mistake is, NaN and Infinity (which JSON does
    not have, unless ``constants``: read as numbers, as the engine's reader of records
    does), a number too long to read, nesting too deep."""
    try:
        return json.loads(text, parse_constant=None if constants else no_json_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON: {json_error_text(exc)}") from None
    except RecursionError:
        raise ValueError("not valid JSON: nested too deeply") from None
    except ValueError as exc:
        if "digits" in str(exc):  # Python's guard against quadratic int parsing
            limit = sys.get_int_max_str_digits()
            raise ValueError(f"not valid JSON: a number of more than {limit} digits") from None
        raise ValueError(f"not valid JSON: {exc}") from None


def parse_json(text: str, name: str) -> Any:
    """The JSON value in `text`; InputError naming `name` and the place of a mistake."""
    try:
        return json_value(text)
    except ValueError as exc:
        raise InputError(f"{name}: {exc}") from None


def _read_limited(stream: BinaryIO, limit: int) -> Optional[bytes]:
    """At most `limit` bytes of the stream, or None if it holds more."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = stream.read(limit + 1 - size)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    return None


def read_text(source: str, limit: int = MAX_INPUT) -> str:
    """The UTF-8 text of a file or of standard input (``-``), refusing more than `limit` bytes."""
    name = source_name(source)
    try:
        if source == "-":
            raw = _read_limited(sys.stdin.buffer, limit)
        else:
            with open(source, "rb") as f:
                raw = _read_limited(f, limit)
    except IsADirectoryError:
        raise InputError(f"{name}: is a folder, not a file") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if raw is None:
        raise InputError(
            f"{name}: larger than {limit // (1024 * 1024)} MB; a voyage state or a "
            f"game record is a few kB, so this is not one"
        )
    if raw.startswith(codecs.BOM_UTF8):  # as some editors write it
        raw = raw[len(codecs.BOM_UTF8) :]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start} cannot be read)") from None


def _looks_like_file_name(text: str) -> bool:
    # One word that is neither notation (r1 ..., good@place, key=value) nor JSON.
    return (
        not any(c.isspace() for c in text)
        and "@" not in text
        and "=" not in text
        and not _ROLL_START.match(text)
        and not _JSON_START.match(text)
    )


def _is_file_path(text: str) -> bool:
    try:
        return os.path.exists(text)
    except ValueError:  # a NUL character: no file is called that
        return False


def read_state(source: str) -> Any:
    """A voyage state from a file, standard input (``-``) or the argument itself.

    Returns the JSON object (a dict) or the notation (a string) for the state parser.
    """
    if not source.strip():
        raise InputError(
            "the state given is empty: give a file, - for standard input, or the state itself "
            "(in the notation, such as 'r1 ginseng@3 nutmeg@4 silk@2', or JSON)"
        )
    if source == "-" or _is_file_path(source):
        return state_from_text(read_text(source), source_name(source))
    if _looks_like_file_name(source):
        raise InputError(
            f"{source}: no such file (nor a voyage state in notation, such as "
            f"'r1 ginseng@3 nutmeg@4 silk@2', or JSON)"
        )
    if len(source.encode("utf-8")) > MAX_INPUT:
        raise InputError(
            f"the state given on the command line is larger than {MAX_INPUT // (1024 * 1024)} MB"
        )
    return state_from_text(source, "the state given")


def state_from_text(text: str, name: str) -> Any:
    """A JSON object or a notation string; JSON that is not an object is refused here."""
    stripped = text.strip()
    if not stripped:
        raise InputError(
            f"{name}: empty; give a voyage state as JSON or in the notation (see docs/notation.md)"
        )
    if not _JSON_START.match(stripped):
        return stripped  # the notation; its parser reports its mistakes with their place
    value = parse_json(stripped, name)
    if not isinstance(value, dict):
        raise InputError(f"{name}: a voyage state is a JSON object {{...}}, not {json_type(value)}")
    return value


def check_output(path: str, option: str) -> None:
    """Refuses, before any work, an output path that cannot be written."""
    if path == "-":
        return
    if os.path.isdir(path):
        raise InputError(f"{option}: {path} is a folder; give a file name")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise InputError(f"{option}: {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise InputError(f"{option}: {path}: not allowed to write there")
