"""Who owns the memory still allocated at the end of a memray capture, grouped by the library that asked.

Reads a capture written by ``benchmarks/memory_growth.py --memray FILE`` (memray, native stacks): what is
still allocated when the capture ends was allocated during it and kept, so over a window of new exchanges
after warm-up it is what each new exchange leaves behind. Each allocation is put under one owner by its
native stack (SQLite, NumPy, FAISS, PyStemmer, pymalloc's arenas, Python objects too large for pymalloc,
...) and, within the owner, under the innermost Python line of dmem (or of any package when dmem is not on
the stack). Memory the C allocator keeps after frees (fragmentation, free pages) is not an allocation and
does not show here: compare the total with the RSS growth ``memory_growth.py`` prints.

memray is not a dmem dependency: install it apart (``pip install --target DIR memray``) and run this with
DIR on PYTHONPATH.

Usage:
    python benchmarks/native_owners.py /tmp/capture.bin --exchanges 2000 [--top 25] [--frames 3]
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Sequence

Frame = tuple[str, str, int]

OWNERS = [
    ("pymalloc arenas (Python objects up to 512 bytes)", ("new_arena", "_PyObject_ArenaMmap")),
    ("SQLite", ("sqlite3",)),
    ("FAISS", ("faiss",)),
    ("PyStemmer / Snowball", ("Stemmer", "sb_stemmer", "snowball")),
    ("NumPy arrays", ("PyDataMem", "npy_alloc", "PyArray_")),
    ("onnxruntime", ("onnxruntime", "Ort")),
    ("libpq / psycopg", ("libpq", "PQ", "psycopg")),
    ("OpenBLAS", ("openblas", "blas_", "gotoblas")),
]
"""Owners by a marker in a native frame's function or file name, first match wins (innermost frame first)."""


def owner_of(native: Sequence[Frame]) -> str:
    """The library that asked for an allocation, from its native stack (innermost frame first)."""
    for func, path, _ in native:
        for name, markers in OWNERS:
            if any(m in func or m in path for m in markers):
                return name
    for func, _, _ in native:
        if func in ("_PyObject_Malloc", "PyObject_Malloc", "_PyObject_Calloc", "PyMem_Malloc", "_PyMem_RawMalloc",
                    "PyMem_RawMalloc", "_PyObject_Realloc", "PyMem_Realloc", "PyMem_Calloc"):
            return "Python objects and buffers over 512 bytes (malloc)"
    for func, path, _ in native:
        if path != "<unknown>" or func not in ("<unknown>", "malloc", "calloc", "realloc"):
            return f"other: {func} ({path.rsplit('/', 1)[-1]})"
    return "other: no symbol"


def python_site(stack: Sequence[Frame], frames: int) -> str:
    """The innermost ``frames`` Python lines of dmem (else of any package) that led to the allocation."""
    ours = [f for f in stack if "/dmem/" in f[1]]
    chosen = ours[:frames] if ours else list(stack[:frames])
    return " < ".join(f"{'/'.join(f[1].rsplit('/', 2)[-2:])}:{f[2]} {f[0]}" for f in chosen) or "-"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("capture")
    p.add_argument("--exchanges", type=int, default=0, help="new exchanges in the capture: also print KB an exchange")
    p.add_argument("--top", type=int, default=25, help="Python sites printed in all")
    p.add_argument("--frames", type=int, default=3, help="Python lines per site")
    args = p.parse_args()
    import memray

    reader = memray.FileReader(args.capture)
    by_owner: dict[str, int] = defaultdict(int)
    by_site: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for record in reader.get_leaked_allocation_records(merge_threads=True):
        owner = owner_of(record.native_stack_trace())
        by_owner[owner] += record.size
        site = by_site[(owner, python_site(record.stack_trace(), args.frames))]
        site[0] += record.size
        site[1] += record.n_allocations
    total = sum(by_owner.values())
    per = (lambda size: f"  {size / 1024 / args.exchanges:6.2f} KB an exchange") if args.exchanges else (lambda _: "")
    meta = reader.metadata
    print(f"{args.capture}: {meta.start_time:%H:%M:%S}-{meta.end_time:%H:%M:%S} UTC, python allocator "
          f"{meta.python_allocator}; still allocated at the end {total / 2**20:.2f} MB{per(total)}")
    for owner, size in sorted(by_owner.items(), key=lambda kv: -kv[1]):
        print(f"{size / 2**10:10.1f} KB{per(size)}  {owner}")
    print(f"\nby owner and Python line (top {args.top}):")
    for (owner, site), (size, count) in sorted(by_site.items(), key=lambda kv: -kv[1][0])[:args.top]:
        print(f"{size / 2**10:10.1f} KB {count:7d} blocks  {owner}\n      {site}")


if __name__ == "__main__":
    main()
