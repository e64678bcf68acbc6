"""Where settings come from besides keyword arguments: ``DMEM_*`` variables and a TOML file; and the secret."""

from __future__ import annotations

import os
import tomllib
import typing
from pathlib import Path
from typing import Any

from dmem.errors import ConfigError

ENV_PREFIX = "DMEM_"
API_KEY_ENV = "DMEM_API_KEY"
JUDGE_API_KEY_ENV = "DMEM_JUDGE_API_KEY"
NOT_SETTINGS = frozenset({"DMEM_CONFIG", API_KEY_ENV, JUDGE_API_KEY_ENV})
"""DMEM_* variables that are not settings: the TOML file's path and the secrets."""


def read_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Settings from a TOML file: top-level keys or a [dmem] table."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"config file {str(p)!r} does not exist")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {str(p)!r} is not valid TOML: {exc}") from None
    table = data.get("dmem", data)
    if not isinstance(table, dict):
        raise ConfigError(f"config file {str(p)!r}: [dmem] must be a table")
    return dict(table)


def api_key_from_env(environ: typing.Mapping[str, str] | None = None) -> str | None:
    """The API key for ``base_url`` servers, from ``DMEM_API_KEY``: a secret, so never a setting."""
    return (os.environ if environ is None else environ).get(API_KEY_ENV) or None


def judge_api_key_from_env(environ: typing.Mapping[str, str] | None = None) -> str | None:
    """The API key for the judge's own endpoint (``judge_base_url``), from ``DMEM_JUDGE_API_KEY``."""
    return (os.environ if environ is None else environ).get(JUDGE_API_KEY_ENV) or None


def read_env(environ: typing.Mapping[str, str] | None = None) -> dict[str, str]:
    """Settings from DMEM_* environment variables (DMEM_CONFIG and the API keys are not settings)."""
    env = os.environ if environ is None else environ
    out: dict[str, str] = {}
    for key, value in env.items():
        if key.startswith(ENV_PREFIX) and key not in NOT_SETTINGS:
            out[key[len(ENV_PREFIX):].lower()] = value
    return out
