"""The counts of a batch run: PASS / NO PASS / invalid rows, blank lines and the top error
codes, for the summary line on stderr and the exit status. Blocks' counts add up, so
workers count their own and the main process sums them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from gate_tui.exit_codes import EXIT_INVALID, EXIT_NO_PASS, EXIT_PASS


@dataclass
class BatchStats:
    """Counts for the summary line and the exit status; blocks' stats add up."""

    passed: int = 0
    no_pass: int = 0
    invalid: int = 0
    blank: int = 0
    error_codes: Counter[str] = field(default_factory=Counter)
    words: tuple[str, str] = ("PASS", "NO PASS")  # contract mode counts VALID instead

    @property
    def records(self) -> int:
        return self.passed + self.no_pass + self.invalid

    def add(self, other: BatchStats) -> None:
        self.passed += other.passed
        self.no_pass += other.no_pass
        self.invalid += other.invalid
        self.blank += other.blank
        self.error_codes.update(other.error_codes)

    def exit_status(self) -> int:
        if self.invalid:
            return EXIT_INVALID
        return EXIT_NO_PASS if self.no_pass else EXIT_PASS

    def summary(self, seconds: float) -> str:
        rate = self.records / seconds if seconds > 0 else 0.0
        passed, no_pass = self.words
        text = f"gate-tui check: {self.records:,} replies: {self.passed:,} {passed}, "
        text += f"{self.no_pass:,} {no_pass}, " if no_pass else ""
        text += f"{self.invalid:,} invalid"
        if self.error_codes:
            top = ", ".join(f"{code} x{count:,}" for code, count in self.error_codes.most_common(3))
            text += f"; top errors: {top}"
        if self.blank:
            text += f"; {self.blank:,} blank line{'s' * (self.blank != 1)} skipped"
        return text + f" ({seconds:.1f} s, {rate:,.0f} replies/s)"
