"""Settings: defaults from the papers, precedence kwargs > env > TOML, clear errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dmem.errors import ConfigError
from dmem.state.context import Context, build_context


def test_paper_defaults():
    ctx = Context()
    assert (ctx.retrieval_top_k, ctx.chunk_size, ctx.chunk_history) == (30, 60, 4)
    assert (ctx.fact_min_score, ctx.select_above, ctx.chunk_min_score) == (6, 6, 5)
    assert ctx.update_min_similarity == 0.8 and ctx.update_top_k == 5
    assert (ctx.extraction_top_k, ctx.history_messages) == (10, 8)
    assert ctx.gate_policy == "quality" and ctx.formation is True and ctx.chat_model is None


def test_precedence_kwargs_over_env_over_toml(tmp_path):
    cfg = tmp_path / "dmem.toml"
    cfg.write_text('[dmem]\nretrieval_top_k = 12\nchunk_size = 40\ngate_policy = "never"\n')
    env = {"DMEM_CHUNK_SIZE": "50", "DMEM_GATE_POLICY": "consensus"}
    ctx = build_context(config_file=cfg, environ=env, gate_policy="always")
    assert ctx.retrieval_top_k == 12  # only in the file
    assert ctx.chunk_size == 50  # env beats file
    assert ctx.gate_policy == "always"  # kwargs beat env


def test_config_file_from_env_and_top_level_keys(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("formation = false\nmax_concurrency = 2\n")
    ctx = build_context(environ={"DMEM_CONFIG": str(cfg)})
    assert ctx.formation is False and ctx.max_concurrency == 2


@pytest.mark.parametrize("kwargs, message", [
    ({"gate_policy": "sometimes"}, "gate_policy"),
    ({"chunk_size": 0}, "chunk_size"),
    ({"chunk_size": "sixty"}, "chunk_size"),
    ({"formation": "perhaps"}, "formation"),
    ({"update_min_similarity": 3.0}, "update_min_similarity"),
    ({"chat_model": "gpt-4o-mini"}, "provider:model"),
    ({"fact_min_score": 11}, "fact_min_score"),
])
def test_bad_values_are_clear_errors(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        build_context(environ={}, **kwargs)


def test_unknown_keys_are_errors_in_every_source(tmp_path):
    with pytest.raises(ConfigError, match="unknown setting.*top_kay"):
        build_context(environ={}, top_kay=3)
    with pytest.raises(ConfigError, match="environment.*bogus"):
        build_context(environ={"DMEM_BOGUS": "1"})
    cfg = tmp_path / "c.toml"
    cfg.write_text("nope = 1\n")
    with pytest.raises(ConfigError, match="config file.*nope"):
        build_context(config_file=cfg, environ={})
    bad = tmp_path / "bad.toml"
    bad.write_text("x = = 1")
    with pytest.raises(ConfigError, match="not valid TOML"):
        build_context(config_file=bad, environ={})
    with pytest.raises(ConfigError, match="does not exist"):
        build_context(config_file=tmp_path / "missing.toml", environ={})


def test_env_values_are_coerced():
    ctx = build_context(environ={"DMEM_FORMATION": "off", "DMEM_TEMPERATURE": "0.3", "DMEM_CHAT_MODEL": "none",
                                 "DMEM_USE_FILTER": "yes"})
    assert ctx.formation is False and ctx.temperature == 0.3 and ctx.chat_model is None and ctx.use_filter


def test_with_overrides_validates_and_keeps_what_was_set():
    ctx = build_context(environ={}, chunk_size=40)
    other = ctx.with_overrides(gate_policy="never")
    assert other.gate_policy == "never" and other.chunk_size == 40
    assert other.explicit() == {"chunk_size": 40, "gate_policy": "never"}
    with pytest.raises(ConfigError):
        ctx.with_overrides(gate_policy="bad")


def test_import_is_fast_and_does_not_load_torch():
    code = "import time,sys; t=time.perf_counter(); import dmem; print(time.perf_counter()-t, 'torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[1] == "False"
    assert float(out[0]) < 1.0
