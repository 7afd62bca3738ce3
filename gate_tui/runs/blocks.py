"""Reading a JSON Lines batch in blocks of whole lines, lazily and in constant memory.

:mod:`gate_tui.runs.engine` checks blocks (in this process or in workers); this module
only cuts the input: about :data:`BLOCK_BYTES` at a time, at line ends, counting lines
so every record keeps its input line number. A line longer than :data:`MAX_LINE_BYTES`
is skipped without being held in memory (its record says so), and a UTF-8 byte order
mark at the very start is ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

BLOCK_BYTES = 1024 * 1024
MAX_LINE_BYTES = 64 * 1024 * 1024  # must exceed BLOCK_BYTES: only a block's last line is measured
UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Block:
    """Whole input lines as read: ``first`` is the 1-based number of the first line;
    ``too_long`` the indexes (within the block) of lines replaced by an empty line
    because they exceeded :data:`MAX_LINE_BYTES`."""

    first: int
    data: bytes
    too_long: tuple[int, ...] = ()

    def lines(self) -> list[bytes]:
        lines = self.data.split(b"\n")
        if lines and not lines[-1]:
            lines.pop()
        return lines


def read_blocks(
    stream: IO[bytes], size: int = BLOCK_BYTES, progress: Callable[[int], None] | None = None
) -> Iterator[Block]:
    """Lazily yield blocks of about ``size`` bytes, cut at line ends.

    The main process only reads and counts newlines (in C); splitting and decoding
    happen where the block is checked, so ``-j N`` leaves the main process nearly idle.
    """
    first = 1
    head = stream.read(len(UTF8_BOM))
    if head != UTF8_BOM:  # editors on Windows start files with one: ignored
        data = head + stream.read(size)
    else:
        data = stream.read(size)
        if progress is not None:
            progress(len(head))
    while True:
        if not data:
            return
        consumed = len(data)
        too_long: tuple[int, ...] = ()
        if not data.endswith(b"\n"):
            tail = stream.readline(MAX_LINE_BYTES + 1)
            consumed += len(tail)
            start = data.rfind(b"\n") + 1
            if len(data) - start + len(tail) > MAX_LINE_BYTES:
                if not tail.endswith(b"\n"):
                    consumed += _skip_rest_of_line(stream)
                data = data[:start] + b"\n"
                too_long = (data.count(b"\n") - 1,)
            else:
                data += tail
        block = Block(first, data, too_long)
        first += data.count(b"\n") + (not data.endswith(b"\n"))
        yield block
        if progress is not None:
            progress(consumed)
        data = stream.read(size)


def _skip_rest_of_line(stream: IO[bytes]) -> int:
    skipped = 0
    while True:
        piece = stream.readline(1024 * 1024)
        skipped += len(piece)
        if not piece or piece.endswith(b"\n"):
            return skipped
