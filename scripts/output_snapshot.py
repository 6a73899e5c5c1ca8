"""Every output dipsat gives on the bundled cases and corpus, written to a folder, to check
that a change to the core or the printers changes none of them (issues 21 and 22: byte-
identical before and after):

    python scripts/output_snapshot.py /tmp/before      # on the old code
    python scripts/output_snapshot.py /tmp/after       # on the new code
    diff -r /tmp/before /tmp/after && echo identical

Per case of every case file under cases/ (but the pasted forms, which are read otherwise):
`dipsat adjudicate` as text, with --explain, with --all, as JSON, as a case file and as
SVG; then `dipsat cases cases/ --verbose`, and `dipsat validate` of the bundled corpus with
its JSONL report. Commands are run in this process (click's test runner): fast, and the
same code path as the command line.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
FORMATS = {"text": [], "explain": ["--explain"], "all": ["--all"], "json": ["--format", "json"],
           "case": ["--format", "case"], "svg": ["--format", "svg"]}


def case_ids(path: Path) -> list[str]:
    return re.findall(r"^CASE\s+(\S+)", path.read_text(encoding="utf-8", errors="replace"), flags=re.M)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the folder to write (created)")
    parser.add_argument("--no-validate", action="store_true", help="leave out the corpus validation (slow)")
    args = parser.parse_args()
    from dipsat.cli import main as cli

    runner = CliRunner()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in (ROOT / "cases").rglob("*.txt") if "pasted" not in p.parts)
    count = 0
    for path in files:
        rel = path.relative_to(ROOT / "cases")
        for case in case_ids(path):
            for name, flags in FORMATS.items():
                run = runner.invoke(cli, ["adjudicate", str(path), "--case", case, *flags])
                target = out / "adjudicate" / rel.parent / rel.stem / f"{case}.{name}"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(f"exit {run.exit_code}\n{run.output}", encoding="utf-8")
                count += 1
    run = runner.invoke(cli, ["cases", str(ROOT / "cases"), "--verbose"])
    (out / "cases.txt").write_text(f"exit {run.exit_code}\n{run.output}".replace(str(ROOT), "ROOT"), encoding="utf-8")
    if not args.no_validate:
        report = out / "validate.jsonl"
        run = runner.invoke(cli, ["validate", str(ROOT / "cases" / "corpus" / "random_games.jsonl.gz"), "--workers",
                                  "1", "--report", str(report)])
        (out / "validate.txt").write_text(f"exit {run.exit_code}\n{run.output}".replace(str(ROOT), "ROOT"),
                                          encoding="utf-8")
        report.write_text(report.read_text(encoding="utf-8").replace(str(ROOT), "ROOT"), encoding="utf-8")
    print(f"{count} adjudications, the case run{'' if args.no_validate else ' and the corpus validation'} "
          f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
