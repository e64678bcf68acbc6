"""How a setting's raw value is read: names checked, text converted to the field's type, URLs shown masked.

``Context`` (``context.py``) calls these on every path a value takes in (keyword arguments,
``DMEM_*`` variables, a TOML file, a run's context), so every bad value is one ``ConfigError``.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any, Literal

from dmem.errors import ConfigError
from dmem.state.sources import API_KEY_ENV, HARNESS_SETTINGS, JUDGE_API_KEY_ENV

_PASSWORD_IN_URL = re.compile(r"(?P<head>://[^:/@\s]*:)[^@\s]*(?P<tail>@)")
_PASSWORD_PARAM = re.compile(r"(?P<head>[?&;\s]password=)[^&;\s]*", re.IGNORECASE)


def masked_url(url: str) -> str:
    """A connection URL with any password replaced by '***' ('postgresql://ana:***@db:5432/mem')."""
    url = _PASSWORD_IN_URL.sub(lambda m: f"{m.group('head')}***{m.group('tail')}", url)
    return _PASSWORD_PARAM.sub(lambda m: f"{m.group('head')}***", url)


def coerce(name: str, value: Any, tp: Any) -> Any:
    """Convert a raw value (often a string from the environment) to the setting's type ``tp``."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    optional = origin in (typing.Union, types.UnionType) and type(None) in args
    if optional:
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null")):
            return None
        tp = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Literal:
        if value not in args:
            raise ConfigError(f"setting {name!r} must be one of {', '.join(map(str, args))}; got {value!r}")
        return value
    if tp is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ConfigError(f"setting {name!r} must be true or false; got {value!r}")
    if tp in (int, float):
        if isinstance(value, bool):
            raise ConfigError(f"setting {name!r} must be a number; got {value!r}")
        try:
            number = tp(value)
        except (TypeError, ValueError):
            raise ConfigError(f"setting {name!r} must be {tp.__name__}; got {value!r}") from None
        if tp is int and isinstance(value, float) and not value.is_integer():
            raise ConfigError(f"setting {name!r} must be a whole number; got {value!r}")
        return number
    if origin is tuple:
        items = value.replace("\n", ";").split(";") if isinstance(value, str) else value
        if not isinstance(items, list | tuple) or not all(isinstance(i, str) for i in items):
            raise ConfigError(f"setting {name!r} must be a list of text; got {value!r}")
        return tuple(i.strip() for i in items if i.strip())
    if tp is str:
        if not isinstance(value, str):
            raise ConfigError(f"setting {name!r} must be text; got {value!r}")
        return value
    return value


def check_keys(source: str, values: dict[str, Any], known: set[str]) -> None:
    """Unknown names are errors; the secrets and the evaluation harness's settings say where they go."""
    unknown = sorted(set(values) - known)
    if "api_key" in unknown:
        raise ConfigError(f"api_key is a secret, not a setting ({source}): set {API_KEY_ENV} in the environment "
                          "or pass Memory(api_key=...)")
    if "judge_api_key" in unknown:
        raise ConfigError(f"judge_api_key is a secret, not a setting ({source}): set {JUDGE_API_KEY_ENV} "
                          "in the environment")
    if HARNESS_SETTINGS & set(unknown):
        raise ConfigError(f"{', '.join(sorted(HARNESS_SETTINGS & set(unknown)))} is a setting of the evaluation "
                          f"harness, not of dmem ({source}): pass it to dmem eval (--judge-model, --judge-base-url)")
    if unknown:
        raise ConfigError(f"unknown setting(s) in {source}: {', '.join(unknown)}")
