"""The base of dmem's embedding classes: LangChain's ``Embeddings`` interface, defined without importing it.

Importing ``langchain_core.embeddings.Embeddings`` imports LangChain's callbacks and runnables: about
0.3 s on a quiet 2-core machine, as long as the default model takes to load. A process that only
embeds (or a command that needs no graph) does not need them, so ``EmbeddingsBase`` has the same
methods and LangChain's class is imported only where it is used.

``EmbeddingsBase`` is registered as a virtual subclass of LangChain's ``Embeddings``, so that
``isinstance(dmem_embeddings, Embeddings)`` holds (LangGraph's store index checks it): as soon as this
module is imported after LangChain's, and whenever ``langchain_embeddings()`` runs (dmem's own
``isinstance`` checks get the class from it). For type checkers it *is* LangChain's class.
"""

from __future__ import annotations

import asyncio
import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

_LANGCHAIN = "langchain_core.embeddings.embeddings"

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings as EmbeddingsBase
else:

    class EmbeddingsBase(ABC):
        """LangChain's ``Embeddings`` interface: the async methods run the sync ones in a worker thread."""

        @abstractmethod
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            """Embed search documents."""

        @abstractmethod
        def embed_query(self, text: str) -> list[float]:
            """Embed a query text."""

        async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
            return await asyncio.to_thread(self.embed_documents, texts)

        async def aembed_query(self, text: str) -> list[float]:
            return await asyncio.to_thread(self.embed_query, text)


class ArrayEmbeddings(EmbeddingsBase):
    """Embeddings whose native output is one float32 matrix: no Python float per dimension.

    A vector as a list of Python floats costs about 32 bytes a dimension (12 KB at 384), as float32
    4 bytes (1.5 KB). dmem's own paths call ``embed_array``; the LangChain methods convert its rows.
    """

    @abstractmethod
    def embed_array(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """The embeddings of ``texts`` as a new ``(len(texts), dim)`` float32 array, rows in order."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        rows: list[list[float]] = self.embed_array(texts).tolist()
        return rows

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def native_array(embeddings: Any) -> Any:
    """``embeddings.embed_array`` when it is what ``embed_documents`` returns, else None.

    A subclass that overrides ``embed_documents`` alone (to count or change what it returns) is
    honoured: its caller then goes through ``embed_documents``.
    """
    if isinstance(embeddings, ArrayEmbeddings) and type(embeddings).embed_documents is ArrayEmbeddings.embed_documents:
        return embeddings.embed_array
    return None


def as_matrix(embeddings: Any, texts: Sequence[str]) -> NDArray[np.float32]:
    """The embeddings of ``texts`` as a new float32 matrix, through ``embed_array`` when it is native."""
    native = native_array(embeddings)
    if native is not None:
        out: NDArray[np.float32] = native(texts)
        return out
    return np.asarray(embeddings.embed_documents(list(texts)), dtype=np.float32).reshape(len(texts), -1)


def langchain_embeddings() -> type[Any]:
    """LangChain's ``Embeddings`` class, with dmem's embedding classes registered as its subclasses."""
    from langchain_core.embeddings import Embeddings

    base: type = EmbeddingsBase  # LangChain's own class for type checkers, ours at run time
    if not issubclass(base, Embeddings):
        Embeddings.register(base)
    return Embeddings


if _LANGCHAIN in sys.modules:
    langchain_embeddings()
