"""Models from strings (no calls), embeddings and the structured-output fallback chain."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from dmem.errors import ConfigError, ModelError, StructuredOutputError
from dmem.models.chat import make_chat_model
from dmem.models.embeddings import CachedEmbeddings, HashEmbeddings, cosine, make_embeddings
from dmem.models.structured import StructuredCaller, repair_json
from dmem.state.verdicts import AnswerDraft
from dmem.testing import FakeChatModel


def test_openai_model_from_string_without_calling(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    model = make_chat_model("openai:gpt-4o-mini", temperature=0.0)
    assert type(model).__name__ == "ChatOpenAI" and model.model_name == "gpt-4o-mini"


@pytest.mark.parametrize("spec, url", [
    ("ollama:llama3.1", "http://localhost:11434/v1"),
    ("vllm:qwen", "http://localhost:8000/v1"),
    ("llamacpp:local", "http://localhost:8080/v1"),
])
def test_openai_compatible_servers(spec, url):
    model = make_chat_model(spec)
    assert type(model).__name__ == "ChatOpenAI" and str(model.openai_api_base) == url


def test_base_url_overrides_openai_endpoint():
    model = make_chat_model("openai:my-model", base_url="http://127.0.0.1:9999/v1", api_key="k")
    assert str(model.openai_api_base) == "http://127.0.0.1:9999/v1"


def test_bad_specs_are_clear_errors():
    with pytest.raises(ConfigError, match="provider:model"):
        make_chat_model("gpt-4o")
    with pytest.raises(ConfigError, match="base_url"):
        make_chat_model("openai-compatible:x")
    with pytest.raises((ConfigError, ModelError)):
        make_chat_model("no-such-provider:model")


def test_instance_is_passed_through():
    fake = FakeChatModel()
    assert make_chat_model(fake) is fake


def test_embeddings_cache_never_embeds_twice():
    class Counting(HashEmbeddings):
        seen: list[str] = []

        def embed_documents(self, texts):
            self.seen.extend(texts)
            return super().embed_documents(texts)

    inner = Counting()
    emb = make_embeddings(inner)
    assert isinstance(emb, CachedEmbeddings)
    emb.embed_documents(["a b", "c d", "a b"])
    emb.embed_documents(["c d"])
    emb.embed_query("a b")
    assert inner.seen == ["a b", "c d"] and emb.hits == 3 and emb.misses == 2


def test_hash_embeddings_are_deterministic_and_similar_for_similar_text():
    h = HashEmbeddings()
    assert h.embed_query("Maya has a dog") == HashEmbeddings().embed_query("Maya has a dog")
    near = cosine(h.embed_query("Maya has a dog"), h.embed_query("Maya has a dog now"))
    far = cosine(h.embed_query("Maya has a dog"), h.embed_query("quantum tax policy"))
    assert near > 0.8 > far


def test_unknown_embedding_spec():
    with pytest.raises(ConfigError, match="embedding_model"):
        make_embeddings("word2vec")


@pytest.mark.parametrize("text, expected", [
    ('```json\n{"answer": "x", "reasoning": "r",}\n```', {"answer": "x", "reasoning": "r"}),
    ("Sure! Here it is: {'answer': 'y', 'reasoning': None}", {"answer": "y", "reasoning": None}),
    ('{"a": [1, 2,],}', {"a": [1, 2]}),
])
def test_repair_json(text, expected):
    assert repair_json(text) == expected


def test_auto_falls_back_to_prompt_json_when_tools_unsupported():
    fake = FakeChatModel(native=False, script={"AnswerDraft": ['Answer: {"answer": "Rome", "reasoning": ""}']})
    out, usage = StructuredCaller(fake).call(AnswerDraft, [HumanMessage("q")], stage="answer")
    assert out.answer == "Rome" and usage.calls == 1 and fake.calls[0].method == "prompt"
    assert "output_format" in fake.calls[0].prompt


def test_native_garbage_then_valid_is_retried_with_feedback():
    fake = FakeChatModel(script={"AnswerDraft": ["nonsense", {"answer": "Paris"}]})
    out, usage = StructuredCaller(fake, max_retries=2).call(AnswerDraft, [HumanMessage("q")], stage="answer")
    assert out.answer == "Paris" and usage.calls == 2
    assert "could not be used" in fake.calls[1].prompt


def test_still_garbage_is_a_typed_error():
    fake = FakeChatModel(script={"AnswerDraft": ["nonsense"]})
    with pytest.raises(StructuredOutputError, match="AnswerDraft"):
        StructuredCaller(fake, max_retries=1).call(AnswerDraft, [HumanMessage("q")], stage="answer")


def test_forced_method_is_used_alone():
    fake = FakeChatModel(script={"AnswerDraft": ["nonsense"]})
    with pytest.raises(StructuredOutputError):
        StructuredCaller(fake, method="json_schema", max_retries=0).call(AnswerDraft, [HumanMessage("q")], stage="a")
    assert [c.method for c in fake.calls] == ["json_schema"]


def test_usage_estimated_when_model_reports_none():
    fake = FakeChatModel(report_usage=False, script={"AnswerDraft": [{"answer": "x"}]})
    _, usage = StructuredCaller(fake).call(AnswerDraft, [HumanMessage("a question " * 20)], stage="answer")
    assert usage.estimated and usage.input_tokens > 20 and usage.output_tokens > 0


def test_concurrent_requests_for_the_same_text_embed_it_once():
    import threading
    import time

    class Slow(HashEmbeddings):
        calls: list[str] = []

        def embed_documents(self, texts):
            self.calls.extend(texts)
            time.sleep(0.1)
            return super().embed_documents(texts)

    inner = Slow()
    emb = CachedEmbeddings(inner)
    out: list[list[list[float]]] = []
    threads = [threading.Thread(target=lambda: out.append(emb.embed_documents(["same text", "other"])))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(inner.calls) == ["other", "same text"]
    assert all(o == out[0] for o in out) and len(out) == 4
