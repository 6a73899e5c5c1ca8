from __future__ import annotations

from pathlib import Path

import pytest

import dipsat

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases"


@pytest.fixture(scope="session")
def variant() -> dipsat.Variant:
    return dipsat.load_variant("standard")
