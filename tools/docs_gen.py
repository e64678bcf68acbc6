"""Generate the docs' drifting parts from the code: the settings table and the graphs' pictures.

The MkDocs hook (``tools/mkdocs_hooks.py``) replaces ``<!-- dmem:settings -->`` and
``<!-- dmem:graph NAME -->`` markers in a page with what these functions return, at every build,
so the configuration page and the diagrams come from ``Context`` and the compiled graphs.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from typing import Any

SETTINGS_MARKER = "<!-- dmem:settings -->"
GRAPH_MARKER = re.compile(r"<!-- dmem:graph (\w+) -->")
GRAPHS = ("ingestion", "query", "deliberation")


def _type_name(annotation: Any) -> str:
    """A setting's type as a reader writes it: ``int``, ``str | None``, ``'batch' | 'per_fact'``."""
    if typing.get_origin(annotation) is typing.Literal:
        return " \\| ".join(f"`{v!r}`" for v in typing.get_args(annotation))
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return " \\| ".join(_type_name(a) for a in typing.get_args(annotation))
    if annotation is type(None):
        return "`None`"
    return f"`{getattr(annotation, '__name__', str(annotation))}`"


def _sections(cls: type) -> list[tuple[str, list[str]]]:
    """The ``# Section`` comments of a class body with the fields under each, in source order."""
    sections: list[tuple[str, list[str]]] = [("Settings", [])]
    for line in inspect.getsource(cls).splitlines():
        comment = re.match(r"^    # (.+)$", line)
        field = re.match(r"^    (\w+): ", line)
        if comment:
            sections.append((comment.group(1).strip(), []))
        elif field and field.group(1) in cls.model_fields:  # type: ignore[attr-defined]
            sections[-1][1].append(field.group(1))
    return [(title, names) for title, names in sections if names]


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def settings_markdown() -> str:
    """One table per section of ``Context``: name, environment variable, type, default, meaning."""
    from dmem.state.context import ENV_PREFIX, Context

    out: list[str] = []
    for title, names in _sections(Context):
        out += [f"### {title}", "", "| setting | environment variable | type | default | meaning |",
                "|---|---|---|---|---|"]
        for name in names:
            field = Context.model_fields[name]
            default = "none" if field.default is None else f"`{field.default!r}`"
            out.append(f"| `{name}` | `{ENV_PREFIX}{name.upper()}` | {_type_name(field.annotation)} | {default} "
                       f"| {_cell(field.description or '')} |")
        out.append("")
    return "\n".join(out)


def graph_mermaid(name: str) -> str:
    """The compiled graph ``name`` as a Mermaid fence, subgraphs drawn inside (``dmem graph NAME``)."""
    from dmem import graphs

    if name not in GRAPHS:
        raise ValueError(f"no graph {name!r}; the graphs are {', '.join(GRAPHS)}")
    graph = getattr(graphs, f"{name}_graph")
    return "```mermaid\n" + graph.get_graph(xray=True).draw_mermaid().strip() + "\n```"


def render(markdown: str) -> str:
    """Replace every dmem marker of a page with its generated Markdown."""
    if SETTINGS_MARKER in markdown:
        markdown = markdown.replace(SETTINGS_MARKER, settings_markdown())
    return GRAPH_MARKER.sub(lambda m: graph_mermaid(m.group(1)), markdown)
