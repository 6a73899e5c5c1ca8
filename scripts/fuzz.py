"""Fuzz dipsat: random positions, mutated inputs, killed workers, cut reports.

Run it from a checkout with dipsat installed (``pip install -e '.[test]'``)::

    python scripts/fuzz.py                         # every kind for about a minute
    python scripts/fuzz.py --minutes 60 --seed 7   # longer; another seed, other inputs
    python scripts/fuzz.py --kinds cases,jsonl --rounds 300

Each round of a kind makes one input and checks what dipsat does with it:

``positions``
    random dense positions of both maps with random legal and illegal orders, each
    phase played on through its retreats and adjustments, under every rules profile in
    turn (:mod:`dipsat.runners.invariants`): at most one unit per province, every unit
    accounted for, batch mode equal to one phase at a time.
``cases``
    the bundled case files (a case, or a whole file) with bytes and lines mutated
    (BOMs, CRs, bad UTF-8, stacked units, ``PLAYERS 8`` ...), run through ``cases``,
    ``adjudicate`` and ``validate``.
``json``
    dipsat JSON states of random positions, mutated as JSON (a value replaced by
    another type, deep nesting, numbers of 5,000 digits, 300-character names ...) or as
    bytes, through ``adjudicate`` (with ``--explain``, ``--all``, ``--compare`` now and then).
``games``
    ``dipsat game`` files of short random games, mutated, through ``game show``,
    ``game turn`` and ``adjudicate --phase``.
``jsonl``
    saved games of the ``diplomacy`` package (the bundled corpus), mutated, in ``.jsonl``
    and ``.json`` files, through ``validate`` and ``adjudicate --phase``.
``godip``
    godip game histories written from the corpus, mutated, through ``adjudicate --phase``.
``kills``
    ``validate --workers 2`` in a process of its own, one worker killed at a random
    moment, busy or idle (the parent stopped meanwhile): the report must be the one
    ``--workers 1`` writes, byte for byte (Linux: needs ``/proc``).
``cuts``
    a report cut at a random byte (inside a character now and then), or a ``--resume``
    run killed at a random moment, then resumed: the report must be the full one, byte
    for byte.

A failure is an exception that is not one of dipsat's clean errors (a traceback), an
exit status other than 0, 1 or 2, a broken invariant, or a report that differs. Each
failing input is saved to ``--out`` (default ``fuzz-failures/``) with the command and
the traceback; the run ends with a table of inputs run and failures per kind, and exit
status 1 when anything failed. The same ``--seed`` gives the same inputs (but kills and
cuts hit at moments that depend on the machine).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from click.testing import CliRunner

import dipsat
from dipsat.board import PhaseKind
from dipsat.cli import main
from dipsat.formats.diplomacy_json import read_game
from dipsat.formats.dipsat_json import state_to_json
from dipsat.formats.godip import write_godip_game
from dipsat.game import new_game
from dipsat.runners.invariants import batch_problems, random_orders, random_phases, random_state
from dipsat.notation import format_order
from dipsat.rules import PROFILES, Rules

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases"
CORPUS = CASES / "corpus" / "random_games.jsonl.gz"
KINDS = ("positions", "cases", "json", "games", "jsonl", "godip", "kills", "cuts")
VARIANTS = [dipsat.load_variant("standard"), dipsat.load_variant("modern")]

# --- mutations ----------------------------------------------------------------------------

ODD_BYTES = [b"\r", b"\n", b"\r\n", b"\x00", b"\xff", b"\xc3", b"\xef\xbb\xbf", "é€😀".encode(), b"#", b"\t",
             b" ", b"{", b"[", b"}", b'"', b":", b",", b"\\", b"-", "²".encode()]
ODD_WORDS = ["CASE", "END", "PRESTATE", "ORDERS", "POSTSTATE", "POSTSTATE_SAME", "PRESTATE_DISLODGED",
             "PRESTATE_RESULTS", "PRESTATE_SUPPLYCENTER_OWNERS", "RULES", "PLAYERS", "VARIANT_ALL", "8", "²", "0",
             "-1", "9" * 5000, "x" * 300, "Modern", "DATC_Standard", "Standard", "France:", "Mars:", "A", "F", "W",
             "lon", "stp/nc", "spa/sc", "nth", "bur", "atlantis", "S", "C", "H", "-", "via", "convoy", "Build",
             "Remove", "Waive", "SUCCESS:", "FAILURE:", "1971", "4.A.2=b", "PHASE", "POSITIONS", "army", "fleet",
             "supply", "move", "support", "hold", "disband", "1901", "Spring", "Fall", "Movement", "Retreat",
             "Adjustment", "\u200b", "\ud800"]
DEEP, HUGE = "\u0000deep\u0000", "\u0000huge\u0000"  # placeholders written out after json.dumps
ODD_VALUES = [None, True, False, 0, -1, 1.5, 10 ** 30, "", "x" * 300, "\ud800", "/etc/hostname", "../maps/standard",
              [], {}, [None], {"": None}, "S1901M", "Spring 1901, Movement", "standard", "modern", "France",
              "England: F lon - nth", DEEP, HUGE]


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return rng.choice(ODD_BYTES)
    at = rng.randrange(len(data) + 1)
    r = rng.random()
    if r < 0.25:
        return data[:at] + rng.choice(ODD_BYTES) + data[at:]
    if r < 0.4:
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    if r < 0.55:
        return data[:at] + data[at + rng.randrange(1, 40):]
    if r < 0.7:
        end = min(len(data), at + rng.randrange(1, 200))
        return data[:end] + data[at:end] * rng.randrange(1, 4) + data[end:]
    if r < 0.8:
        return data[:at]  # cut (maybe inside a character)
    if r < 0.9:
        return b"\xef\xbb\xbf" + data
    return data.replace(b"\n", rng.choice([b"\r\n", b"\r", b"\n\n"]), rng.randrange(1, 5))


def mutate_lines(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    r = rng.random()
    if r < 0.2:
        lines.insert(i, lines[rng.randrange(len(lines))])  # e.g. a unit twice
    elif r < 0.3:
        del lines[i]
    elif r < 0.4:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif r < 0.75:
        words = lines[i].split(" ")
        words[rng.randrange(len(words))] = rng.choice(ODD_WORDS)
        lines[i] = " ".join(words)
    elif r < 0.9:
        lines.insert(i, rng.choice(["PLAYERS " + rng.choice(["8", "²", "6", "x", "9" * 5000]),
                                    "RULES " + rng.choice(["1971", "2023", "dptg", "1999", "4.A.2=z"]),
                                    "VARIANT_ALL " + rng.choice(["Modern", "Standard", "x" * 300]),
                                    "\t" + rng.choice(["France: A par", "Germany: A par", "Italy: W rom"]),
                                    "END", "CASE", "PHASE 1901 Spring Movement", "ORDERS"]))
    else:
        lines[i] = lines[i] * rng.randrange(2, 50)
    return "\n".join(lines)


def _paths(value, here=()):
    yield here
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, here + (key,))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from _paths(item, here + (k,))


def mutate_json(rng: random.Random, doc):
    """`doc` with one value replaced, deleted or duplicated (paths picked at random)."""
    paths = [p for p in _paths(doc) if p]
    if not paths:
        return rng.choice(ODD_VALUES)
    path = rng.choice(paths)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    r = rng.random()
    if r < 0.55:
        parent[key] = rng.choice(ODD_VALUES)
    elif r < 0.7:
        del parent[key]
    elif r < 0.8 and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(parent[key])))
    elif r < 0.9:
        other = doc
        for k in rng.choice(paths)[:-1]:
            other = other[k]
        parent[key] = json.loads(json.dumps(other))  # a subtree moved elsewhere
    elif isinstance(parent[key], str):
        parent[key] = parent[key].upper() if rng.random() < 0.5 else parent[key][::-1]
    else:
        parent[key] = str(parent[key])
    return doc


def dump_json(rng: random.Random, doc) -> bytes:
    text = json.dumps(doc, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 2]))
    text = text.replace(json.dumps(DEEP), "[" * rng.choice([50, 900, 5000]) + "]" * 50)
    text = text.replace(json.dumps(HUGE), "9" * rng.choice([50, 4000, 5000]))
    return text.encode("utf-8", "surrogatepass")


def mutated_json(rng: random.Random, doc) -> bytes:
    doc = json.loads(json.dumps(doc))
    for _ in range(rng.randrange(1, 4)):
        doc = mutate_json(rng, doc)
    data = dump_json(rng, doc)
    return mutate_bytes(rng, data) if rng.random() < 0.2 else data


def mutated_text(rng: random.Random, text: str) -> bytes:
    for _ in range(rng.randrange(1, 4)):
        text = mutate_lines(rng, text)
    data = text.encode("utf-8", "surrogatepass")
    return mutate_bytes(rng, data) if rng.random() < 0.4 else data


# --- running commands --------------------------------------------------------------------------


class Fuzzer:
    def __init__(self, seed: int, out: Path, work: Path) -> None:
        self.rng = random.Random(seed)
        self.out, self.work = out, work
        self.runs: dict[str, int] = {k: 0 for k in KINDS}
        self.failures: dict[str, int] = {k: 0 for k in KINDS}
        self.runner = CliRunner()

    def failed(self, kind: str, what: str, data: bytes | None, suffix: str = ".txt") -> None:
        self.failures[kind] += 1
        self.out.mkdir(parents=True, exist_ok=True)
        n = self.failures[kind]
        if data is not None:
            (self.out / f"{kind}-{n}{suffix}").write_bytes(data)
        (self.out / f"{kind}-{n}.why.txt").write_text(what, encoding="utf-8", errors="replace")
        print(f"FAIL {kind} #{n}: {what.splitlines()[0] if what else ''}", file=sys.stderr)

    def invoke(self, kind: str, args: list[str], data: bytes | None, suffix: str, stdin: str = "") -> None:
        """One command on the input; a traceback or an odd exit status is a failure."""
        result = self.runner.invoke(main, args, input=stdin)
        bad = result.exception is not None and not isinstance(result.exception, SystemExit)
        if bad or result.exit_code not in (0, 1, 2):
            trace = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else ""
            self.failed(kind, f"dipsat {' '.join(args)}\nexit {result.exit_code}\n{trace}\n{result.output}", data, suffix)

    def validate_outputs(self) -> list[str]:
        """What a validate run writes besides its summary: a report, case files, HTML pages."""
        out = self.work / "out"
        shutil.rmtree(out, ignore_errors=True)
        return self.rng.choice([[], ["--report", str(out)], ["--summary", "json"], ["--write-cases", str(out)],
                                ["--html", str(out)], ["--show", "100", "--summary", "text"]])

    def input_file(self, data: bytes, suffix: str) -> Path:
        path = self.work / f"input{suffix}"
        path.write_bytes(data)
        return path

    # --- kinds -------------------------------------------------------------------------------
    def positions(self) -> None:
        profile = sorted(PROFILES)[self.runs["positions"] % len(PROFILES)]
        seed = self.rng.randrange(2**32)
        try:
            items = random_phases(random.Random(seed), VARIANTS, Rules.profile(profile))
            problems = batch_problems(items)
        except Exception:  # noqa: BLE001
            problems = [traceback.format_exc()]
        self.runs["positions"] += 1
        if problems:
            self.failed("positions", f"seed {seed}, rules {profile} (dipsat.runners.invariants.random_phases):\n"
                        + "\n".join(problems), None)

    def cases(self) -> None:
        text = self.rng.choice(self.case_texts)
        if self.rng.random() < 0.7:  # one case of the file
            blocks = re.split(r"(?m)^(?=CASE )", text)
            head = blocks[0] if not blocks[0].startswith("CASE ") else ""
            text = head + self.rng.choice(blocks[1:] or blocks)
        data = mutated_text(self.rng, text)
        path = self.input_file(data, self.rng.choice([".txt", ".case", ".dat"]))
        self.runs["cases"] += 1
        extra = self.rng.choice([[], ["--explain"], ["--all"], ["--format", "json"], ["--format", "case"],
                                 ["--compare", "1971,2023"]])
        for args in (["cases", str(path)], ["adjudicate", str(path), *extra],
                     ["validate", "--workers", "1", "--timeout", "30", "--no-progress", str(path),
                      *self.validate_outputs()]):
            self.invoke("cases", args, data, path.suffix)

    def json(self) -> None:
        variant = self.rng.choice(VARIANTS)
        state = random_state(self.rng, variant, self.rng.choice(list(PhaseKind)))
        doc = state_to_json(state, random_orders(self.rng, state))
        data = mutated_json(self.rng, doc) if self.rng.random() < 0.9 else mutate_bytes(self.rng, json.dumps(doc).encode())
        path = self.input_file(data, ".json")
        self.runs["json"] += 1
        extra = self.rng.choice([[], ["--explain"], ["--all"], ["--format", "json", "--explain", "--all"],
                                 ["--format", "case"], ["--compare", "1971,1982,2000,2023,dptg"]])
        self.invoke("json", ["adjudicate", str(path), *extra], data, ".json")

    def games(self) -> None:
        doc, names = self.rng.choice(self.game_docs)
        data = mutated_json(self.rng, doc) if self.rng.random() < 0.85 else mutate_bytes(self.rng, json.dumps(doc).encode())
        path = self.input_file(data, ".json")
        phase = self.rng.choice(names + ["S1950M", "x", "F1901R"])
        self.runs["games"] += 1
        self.invoke("games", ["game", "show", str(path)], data, ".json")
        self.invoke("games", ["game", "show", str(path), "--phase", phase, "--format", self.rng.choice(["text", "json"])],
                    data, ".json")
        self.invoke("games", ["adjudicate", str(path), "--phase", phase], data, ".json")
        orders = "\n".join(self.rng.choice(self.order_lines) for _ in range(self.rng.randrange(0, 8)))
        self.invoke("games", ["game", "turn", str(path), "-"], data, ".json", stdin=orders)

    def jsonl(self) -> None:
        lines = self.rng.sample(self.corpus, self.rng.randrange(1, 4))
        docs = [json.loads(line) for line in lines]
        k = self.rng.randrange(len(docs))
        mutated = mutated_json(self.rng, docs[k]) if self.rng.random() < 0.85 else mutate_bytes(self.rng, lines[k])
        data = b"".join((mutated.replace(b"\n", b" ") if i == k else line.rstrip(b"\n")) + b"\n"
                        for i, line in enumerate(lines))
        if self.rng.random() < 0.2:
            data = mutate_bytes(self.rng, data)
        one = self.rng.random() < 0.3
        suffix = ".json" if one else self.rng.choice([".jsonl", ".jsonl.gz"])
        if one:
            data = mutated
        path = self.input_file(gzip.compress(data, mtime=0) if suffix.endswith(".gz") else data, suffix)
        self.runs["jsonl"] += 1
        self.invoke("jsonl", ["validate", "--workers", "1", "--timeout", "30", "--no-progress", str(path),
                              *self.validate_outputs()], data, suffix)
        names = [p.get("name", "") for p in docs[k].get("phases", []) if isinstance(p, dict)] or ["S1901M"]
        target = str(path) if one else f"{path}:{k + 1}"
        self.invoke("jsonl", ["adjudicate", target, "--phase", str(self.rng.choice(names))], data, suffix)

    def godip(self) -> None:
        text, names = self.rng.choice(self.godip_texts)
        data = mutated_text(self.rng, text)
        path = self.input_file(data, ".txt")
        self.runs["godip"] += 1
        self.invoke("godip", ["adjudicate", str(path), "--phase", self.rng.choice(names)], data, ".txt")

    def kills(self) -> None:
        inputs, expected, code = self.kill_inputs
        report = self.work / "killed.jsonl"
        report.unlink(missing_ok=True)
        run = subprocess.Popen([sys.executable, "-m", "dipsat.cli", "validate", str(inputs), "--workers", "2",
                                "--report", str(report), "--no-progress"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        idle = self.rng.random() < 0.5
        delay = self.rng.uniform(0, 3)
        start, killed = time.monotonic(), None
        while run.poll() is None and killed is None and time.monotonic() - start < 60:
            time.sleep(0.02)
            workers = _workers(run.pid)
            if len(workers) < 2 or time.monotonic() - start < delay:
                continue
            victim = self.rng.choice(workers)
            if idle:  # stop the parent: the workers answer and wait for their next record
                os.kill(run.pid, signal.SIGSTOP)
                for _ in range(50):
                    time.sleep(0.05)
                    if all(_state(p) == "S" for p in workers):
                        break
            try:
                os.kill(victim, signal.SIGKILL)
                killed = victim
            except ProcessLookupError:
                pass
            if idle:
                os.kill(run.pid, signal.SIGCONT)
        out, err = run.communicate(timeout=600)
        self.runs["kills"] += 1
        got = report.read_bytes() if report.exists() else b""
        if run.returncode != code or got != expected or "records read" not in out:
            self.failed("kills", f"worker {killed} killed {'idle' if idle else 'busy'} after {delay:.2f} s: exit "
                        f"{run.returncode} (expected {code}), report {'same' if got == expected else 'differs'}\n"
                        f"{out}\n{err}", got, ".jsonl")

    def cuts(self) -> None:
        games, full = self.cut_inputs
        report = self.work / "cut.jsonl"
        if self.rng.random() < 0.15:  # a --resume killed at a random moment, then resumed again
            report.write_bytes(full[:self.rng.randrange(len(full))])
            run = subprocess.Popen([sys.executable, "-m", "dipsat.cli", "validate", str(games), "--workers", "1",
                                    "--resume", str(report), "--no-progress"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(self.rng.uniform(0.3, 3))
            run.kill()
            run.wait()
            what = "a --resume killed, then resumed"
        else:
            multibyte = [m.start() + 1 for m in re.finditer("[^\x00-\x7f]".encode(), full)] or [0]
            cut = self.rng.choice(multibyte) if self.rng.random() < 0.3 else self.rng.randrange(len(full) + 1)
            report.write_bytes(full[:cut])
            what = f"cut at byte {cut}"
        before = report.read_bytes()
        self.runs["cuts"] += 1
        self.invoke("cuts", ["validate", str(games), "--workers", "1", "--no-progress", "--resume", str(report)],
                    before, ".jsonl")
        if report.read_bytes() != full:
            self.failed("cuts", f"{what}: the resumed report differs from the full one", before, ".jsonl")

    # --- seeds -----------------------------------------------------------------------------
    def prepare(self, kinds: list[str]) -> None:
        rng = self.rng
        self.case_texts = [p.read_text(encoding="utf-8") for p in sorted(CASES.rglob("*.txt"))]
        with gzip.open(CORPUS, "rb") as handle:
            self.corpus = [next(handle) for _ in range(40)]
        self.order_lines = []
        self.game_docs = []
        if "games" in kinds:
            for variant, players in (("standard", None), ("standard", 2), ("standard", 6), ("modern", None)):
                game = new_game(variant, players, rng.randrange(100))
                for _ in range(rng.randrange(2, 7)):
                    if game.over:
                        break
                    orders = random_orders(rng, game.state)
                    self.order_lines += [format_order(o) for o in orders]
                    game.play(orders)
                self.game_docs.append((game.to_json(), [r.name for r in game.phases]))
        self.godip_texts = []
        if "godip" in kinds:
            for line in self.corpus[:10]:
                game = read_game(json.loads(line))
                self.godip_texts.append((write_godip_game([p for p in game.phases if p.state is not None]),
                                         [p.name for p in game.phases]))
        if "kills" in kinds:
            inputs = self.work / "kills.jsonl"
            inputs.write_bytes(b"".join(f'{{"id": "tiny {n}"}}\n'.encode() for n in range(150)) + b"".join(self.corpus[:8]))
            report = self.work / "kills-expected.jsonl"
            result = self.runner.invoke(main, ["validate", str(inputs), "--workers", "1", "--no-progress",
                                               "--report", str(report)])
            self.kill_inputs = (inputs, report.read_bytes(), result.exit_code)
        if "cuts" in kinds:
            games = self.work / "spiele-ü€.jsonl"
            games.write_bytes(b"".join(self.corpus[:10]) + b'{"id": "not a game \xc3\xa9"}\n')
            report = self.work / "cuts-full.jsonl"
            self.runner.invoke(main, ["validate", str(games), "--workers", "1", "--no-progress", "--report", str(report)])
            self.cut_inputs = (games, report.read_bytes())


def _workers(parent: int) -> list[int]:
    """The worker processes of a validate run: its children started by multiprocessing."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
            cmdline = (status.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(parent) and b"spawn_main" in cmdline:
            found.append(int(status.parent.name))
    return found


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "?"


def main_() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=1.0, help="how long to run (default 1)")
    parser.add_argument("--rounds", type=int, default=None, help="instead: this many rounds of each kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of: {', '.join(KINDS)}")
    parser.add_argument("--out", default="fuzz-failures", help="where failing inputs are saved")
    args = parser.parse_args()
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        parser.error(f"unknown kinds {unknown} (known: {', '.join(KINDS)})")
    if "kills" in kinds and not Path("/proc").exists():
        print("kills: skipped (finding the worker processes needs /proc)", file=sys.stderr)
        kinds.remove("kills")
    work = Path(tempfile.mkdtemp(prefix="dipsat-fuzz-"))
    fuzzer = Fuzzer(args.seed, Path(args.out), work)
    try:
        fuzzer.prepare(kinds)
        deadline = time.monotonic() + args.minutes * 60
        # rounds per turn: the slow kinds (a process of their own) get fewer
        weights = {"kills": 1, "cuts": 3, "positions": 3}
        done = 0
        while True:
            for kind in kinds:
                for _ in range(weights.get(kind, 10)):
                    if args.rounds is not None and fuzzer.runs[kind] >= args.rounds:
                        break
                    getattr(fuzzer, kind)()
            done += 1
            finished = all(fuzzer.runs[k] >= args.rounds for k in kinds) if args.rounds is not None else (
                time.monotonic() > deadline)
            if finished:
                break
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{'kind':<10} {'inputs':>8} {'failures':>9}")
    for kind in kinds:
        print(f"{kind:<10} {fuzzer.runs[kind]:>8} {fuzzer.failures[kind]:>9}")
    failed = sum(fuzzer.failures.values())
    print(f"{'total':<10} {sum(fuzzer.runs[k] for k in kinds):>8} {failed:>9}"
          + (f"  (inputs and tracebacks in {args.out}/)" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main_())
