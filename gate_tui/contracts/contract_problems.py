"""What is wrong with a contract file, and where: :class:`ContractProblem` (the file, the JSON
Pointer of the schema keyword at fault, the line when the file tells it), the
:class:`ContractLoadError` that carries them, and :func:`located`, which places each problem found
at its line and caps the list."""

from __future__ import annotations

from typing import NamedTuple

from gate_tui.contracts.results import pointer

MAX_PROBLEMS = 200
"""Problems listed per contract (as reply errors are capped): the rest are counted."""


class ContractProblem(NamedTuple):
    """One thing wrong with a contract file."""

    path: str
    message: str
    location: str = ""
    line: int | None = None

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        at = f" {self.location or '/'}:" if self.location or self.line is None else ""
        return f"{where}:{at} {self.message}"


class ContractLoadError(ValueError):
    """Raised by :func:`load_contract`; ``problems`` lists everything that is wrong."""

    def __init__(self, problems: list[ContractProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


def located(
    name: str, found: list[tuple[list[str | int], str]], lines: dict[str, int] | None
) -> list[ContractProblem]:
    """The problems with their pointers and lines: the first :data:`MAX_PROBLEMS`, then a count."""
    problems = [
        _problem(name, pointer(parts), message, lines) for parts, message in found[:MAX_PROBLEMS]
    ]
    if len(found) > MAX_PROBLEMS:
        problems.append(ContractProblem(name, f"… and {len(found) - MAX_PROBLEMS:,} more problems"))
    return problems


def _problem(
    name: str, location: str, message: str, lines: dict[str, int] | None
) -> ContractProblem:
    line = None
    if lines is not None:
        probe = location
        while probe not in lines and probe:
            probe = probe.rsplit("/", 1)[0]
        line = lines.get(probe)
    return ContractProblem(name, message, location, line)
