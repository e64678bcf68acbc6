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
FREEZE_HEAP_ENV = "DMEM_FREEZE_HEAP"
"""The served entry's process switch (``dmem.runtime``), not a setting of a run."""
MALLOC_TRIM_ENV = "DMEM_MALLOC_TRIM"
"""Seconds between the served entry's trims of the C allocator (``dmem.allocator``), not a setting of a run."""
HARNESS_SETTINGS = frozenset({"judge_model", "judge_base_url"})
"""Settings of the evaluation harness (``dmem.eval.settings``), not of the product: a config file or
DMEM_* variable shared with ``dmem eval`` may carry them, and the product leaves them to it."""
NOT_SETTINGS = frozenset({"DMEM_CONFIG", API_KEY_ENV, JUDGE_API_KEY_ENV, FREEZE_HEAP_ENV, MALLOC_TRIM_ENV,
                          *(f"{ENV_PREFIX}{name.upper()}" for name in HARNESS_SETTINGS)})
"""DMEM_* variables that are not settings of the product: the TOML file's path, the secrets, the harness's,
and the served entry's heap freeze and allocator trims."""


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


def product_settings(values: dict[str, Any]) -> dict[str, Any]:
    """A config file's settings without the evaluation harness's (``HARNESS_SETTINGS``)."""
    return {k: v for k, v in values.items() if k not in HARNESS_SETTINGS}


def api_key_from_env(environ: typing.Mapping[str, str] | None = None) -> str | None:
    """The API key for ``base_url`` servers, from ``DMEM_API_KEY``: a secret, so never a setting."""
    return (os.environ if environ is None else environ).get(API_KEY_ENV) or None


def read_env(environ: typing.Mapping[str, str] | None = None) -> dict[str, str]:
    """Settings from DMEM_* environment variables (DMEM_CONFIG and the API keys are not settings)."""
    env = os.environ if environ is None else environ
    out: dict[str, str] = {}
    for key, value in env.items():
        if key.startswith(ENV_PREFIX) and key not in NOT_SETTINGS:
            out[key[len(ENV_PREFIX):].lower()] = value
    return out
