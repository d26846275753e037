"""What an import found wrong, row by row, and what it did (or would do with --dry-run)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    file: str
    line: int | None  # the CSV line (the header is line 1); None for a whole-file or database problem
    reason: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.reason}"


@dataclass
class ImportReport:
    dry_run: bool
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # rows per table imported, or that would be
    league_name: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, file: str, line: int | None, reason: str) -> None:
        self.problems.append(Problem(file, line, reason))

    def summary(self) -> str:
        """The text the CLI prints and Discord shows: every problem, or what was imported."""
        if self.problems:
            lines = [f"{len(self.problems)} problem(s); nothing was imported:"]
            ordered = sorted(self.problems, key=lambda p: (p.file, p.line or 0))
            lines.extend(f"  {problem}" for problem in ordered)
            return "\n".join(lines)
        done = "would import" if self.dry_run else "imported"
        rows = ", ".join(f"{count} {table}" for table, count in self.counts.items() if count)
        name = f"{self.league_name}: " if self.league_name else ""
        return f"{name}{done} {rows or 'nothing'}" + (" (dry run: nothing was written)" if self.dry_run else "")
