"""Argument types shared by the command lines (the arena, the bot program, the server):
argparse calls them on the text given and reports an :class:`argparse.ArgumentTypeError`
as a usage error (status 2), never a traceback.

>>> whole_number(1)("3")
3
>>> whole_number(1)("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: expected at least 1, got 0
>>> positive_number("seconds")("-1")
Traceback (most recent call last):
argparse.ArgumentTypeError: expected a positive number of seconds, got '-1'
>>> port("http")
Traceback (most recent call last):
argparse.ArgumentTypeError: not a port number: 'http'
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["port", "positive_number", "whole_number"]


def whole_number(least: int) -> Callable[[str], int]:
    """A whole number of at least ``least``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"expected at least {least}, got {value}")
        return value

    return parse


def positive_number(unit: str = "") -> Callable[[str], float]:
    """A finite number above 0 (of ``unit``, for the message)."""
    what = f"a positive number of {unit}" if unit else "a positive number"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not (value > 0 and math.isfinite(value)):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


def port(text: str) -> int:
    """A TCP port, 0 (any free port) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535 (0: any free port): {text!r}")
    return value
