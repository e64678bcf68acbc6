"""The evaluation harness's own settings: the judge's model and endpoint, which the product never reads.

They come, in this order of precedence, from ``dmem eval``'s options (``--judge-model``,
``--judge-base-url``, or ``--set judge_model=...``), the ``DMEM_JUDGE_MODEL`` and
``DMEM_JUDGE_BASE_URL`` variables, and the TOML config file. The judge's key, a secret, is
``DMEM_JUDGE_API_KEY``. The product's ``Context`` leaves these names to the harness
(``dmem.state.sources.HARNESS_SETTINGS``).
"""

from __future__ import annotations

import os
import typing
from dataclasses import dataclass
from typing import Any

from dmem.errors import ConfigError
from dmem.state.sources import ENV_PREFIX, HARNESS_SETTINGS, JUDGE_API_KEY_ENV, read_toml


@dataclass(frozen=True)
class JudgeSettings:
    """Which model judges the answers, and where it is served."""

    judge_model: str | None = None
    """'provider:model' of the evaluation judge; None: the model under test judges (if any)."""
    judge_base_url: str | None = None
    """Endpoint of the judge's model (its own; ``base_url`` is the model under test's). Its key, a secret,
    comes from DMEM_JUDGE_API_KEY (else the provider's usual variable, e.g. OPENAI_API_KEY)."""


def split_judge_settings(settings: typing.Mapping[str, Any], config_file: str | os.PathLike[str] | None = None,
                         environ: typing.Mapping[str, str] | None = None) -> tuple[JudgeSettings, dict[str, Any]]:
    """The judge's settings (``settings`` beat DMEM_JUDGE_* variables, which beat the config file), and the rest.

    The rest are the product's settings, for ``build_context``.
    """
    env = os.environ if environ is None else environ
    file_path = config_file or env.get("DMEM_CONFIG")
    layers = [read_toml(file_path) if file_path else {},
              {name: env[f"{ENV_PREFIX}{name.upper()}"] for name in HARNESS_SETTINGS
               if f"{ENV_PREFIX}{name.upper()}" in env},
              dict(settings)]
    found: dict[str, str | None] = {}
    for layer in layers:
        for name in HARNESS_SETTINGS & set(layer):
            found[name] = _text(name, layer[name])
    return JudgeSettings(**found), {k: v for k, v in settings.items() if k not in HARNESS_SETTINGS}


def _text(name: str, value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigError(f"setting {name!r} must be text; got {value!r}")
    return None if value.strip().lower() in ("", "none", "null") else value.strip()


def judge_api_key_from_env(environ: typing.Mapping[str, str] | None = None) -> str | None:
    """The API key for the judge's own endpoint (``judge_base_url``), from ``DMEM_JUDGE_API_KEY``."""
    return (os.environ if environ is None else environ).get(JUDGE_API_KEY_ENV) or None
