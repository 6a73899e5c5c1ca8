#!/usr/bin/env python3
"""Standalone consistency check for maps/standard.toml (python3 + tomllib only).

Run:  python3 maps/check_standard.py [path/to/standard.toml]
Exits non-zero (AssertionError) on the first problem; prints a summary on success.
"""
import sys
import tomllib
import unicodedata
from pathlib import Path

PATH = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "maps" / "standard.toml"


def fold(s):
    """Case- and accent-insensitive form: NFKD, drop combining marks, casefold.

    Like dipsat.maps.fold it also reads dots as spaces and squeezes whitespace, so
    "St. Petersburg" and "St Petersburg" are one name (a stricter test for collisions).
    """
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = s.replace("\u00df", "ss").casefold().replace(".", " ").replace("\u2019", "'")
    return " ".join(s.split())


with open(PATH, "rb") as f:
    data = tomllib.load(f)

assert set(data) - {"setups"} == {"variant", "powers", "coasts", "provinces", "impassable", "adjacency"}, set(data)

# --- variant -----------------------------------------------------------------
v = data["variant"]
assert v == {"name": "standard", "title": "Diplomacy (standard map)",
             "start_year": 1901, "victory_centres": 18}, v

# --- coasts and provinces ----------------------------------------------------
coasts = data["coasts"]
assert set(coasts) == {"nc", "sc", "ec"}, set(coasts)
for cid, c in coasts.items():
    assert set(c) == {"name", "aliases"}, (cid, c)
    assert fold(c["name"]) in {fold(a) for a in c["aliases"]}, f"coast {cid}: name not among aliases"

provs = data["provinces"]
KINDS = {"land", "coast", "sea"}
for pid, p in provs.items():
    assert len(pid) == 3 and pid.islower() and pid.isalpha(), pid
    assert set(p) <= {"name", "kind", "centre", "coasts", "aliases"}, (pid, set(p))
    assert {"name", "kind", "aliases"} <= set(p), (pid, set(p))
    assert p["kind"] in KINDS, (pid, p["kind"])
    assert p.get("centre", True) is True, f"{pid}: write centre = true or omit it"
    if "coasts" in p:
        assert p["kind"] == "coast" and len(p["coasts"]) == 2, pid
        assert all(c in coasts for c in p["coasts"]), pid
    assert fold(p["name"]) in {fold(a) for a in p["aliases"]} or fold(p["name"]) == pid, \
        f"{pid}: English name {p['name']!r} is not among its aliases"

assert len(provs) == 75, len(provs)
centres = {pid for pid, p in provs.items() if p.get("centre")}
assert len(centres) == 34, len(centres)
seas = {pid for pid, p in provs.items() if p["kind"] == "sea"}
inland = {pid for pid, p in provs.items() if p["kind"] == "land"}
coastal = {pid for pid, p in provs.items() if p["kind"] == "coast"}
assert len(seas) == 19, len(seas)
assert len(inland) == 14, len(inland)
assert len(coastal) == 42, len(coastal)
assert not (centres & seas), centres & seas
split = {pid: p["coasts"] for pid, p in provs.items() if "coasts" in p}
assert split == {"bul": ["ec", "sc"], "spa": ["nc", "sc"], "stp": ["nc", "sc"]}, split

imp = data["impassable"]
assert set(imp) == {"swi"}, set(imp)
assert "swi" not in provs

# --- powers ------------------------------------------------------------------
powers = data["powers"]
ORDER = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
assert [pw["name"] for pw in powers] == ORDER, [pw["name"] for pw in powers]
all_homes = []
for pw in powers:
    assert set(pw) == {"name", "adjective", "aliases", "home_centres", "units", "country"}, pw["name"]
    homes = pw["home_centres"]
    assert len(homes) == (4 if pw["name"] == "Russia" else 3), (pw["name"], homes)
    for h in homes:
        assert h in centres, (pw["name"], h)
    all_homes += homes
    assert len(pw["units"]) == len(homes), pw["name"]
    unit_provs = []
    for u in pw["units"]:
        kind, loc = u.split()
        assert kind in ("A", "F"), u
        prov, _, coast = loc.partition("/")
        assert prov in provs, u
        pk = provs[prov]["kind"]
        if kind == "A":
            assert pk in ("land", "coast") and not coast, u
        else:
            assert pk in ("coast", "sea"), u
            if prov in split:
                assert coast in split[prov], f"{u}: fleet on a split coast needs a valid coast"
            else:
                assert not coast, u
        unit_provs.append(prov)
    assert sorted(unit_provs) == sorted(homes), (pw["name"], unit_provs)
    for a in pw["aliases"]:
        assert len(fold(a)) > 1, (pw["name"], a)
assert len(all_homes) == len(set(all_homes)) == 22, all_homes
assert "F stp/sc" in powers[5]["units"], powers[5]["units"]

# --- aliases: no collisions after folding ------------------------------------
owner = {}  # folded alias -> owner label


def claim(alias, who):
    k = fold(alias)
    assert k, (who, alias)
    prev = owner.get(k)
    assert prev is None or prev == who, f"alias {alias!r} ({k!r}) claimed by {prev} and {who}"
    owner[k] = who


for pid in provs:
    claim(pid, f"province {pid}")
claim("swi", "impassable swi")
for cid in coasts:
    claim(cid, f"coast {cid}")
for pw in powers:
    claim(pw["name"], f"power {pw['name']}")
for pid, p in provs.items():
    seen = set()
    for a in p["aliases"]:
        assert a.casefold() not in seen, f"{pid}: alias {a!r} listed twice"
        seen.add(a.casefold())
        assert fold(a) != pid, f"{pid}: do not repeat the id as an alias"
        claim(a, f"province {pid}")
for sid, s in imp.items():
    for a in s["aliases"]:
        claim(a, f"impassable {sid}")
for cid, c in coasts.items():
    for a in c["aliases"]:
        claim(a, f"coast {cid}")
# Power aliases live in their own namespace (read only before ':' or as a nationality);
# "ENG" names England there and the English Channel as a province.
power_owner = {}
for pw in powers:
    for a in pw["aliases"]:
        prev = power_owner.get(fold(a))
        assert prev in (None, pw["name"]), f"power alias {a!r} claimed by {prev} and {pw['name']}"
        power_owner[fold(a)] = pw["name"]
        if fold(a) in owner and not owner[fold(a)].startswith("power"):
            assert fold(a) == "eng", f"power alias {a!r} collides with {owner[fold(a)]}"
# adjectives must not be taken by anything else either
for pw in powers:
    who = owner.get(fold(pw["adjective"]))
    assert who in (None, f"power {pw['name']}"), (pw["adjective"], who)

# --- adjacency ---------------------------------------------------------------
adj = data["adjacency"]
assert set(adj) == {"army", "fleet", "both"}, set(adj)


def parse_loc(loc):
    prov, _, coast = loc.partition("/")
    assert prov in provs, f"unknown province in {loc!r}"
    if coast:
        assert prov in split and coast in split[prov], f"bad coast in {loc!r}"
    return prov, coast


seen_edges = {}
army_edges, fleet_edges = set(), set()
for lst, edges in adj.items():
    for e in edges:
        parts = e.split()
        assert len(parts) == 2 and parts[0] != parts[1], e
        (pa, ca), (pb, cb) = parse_loc(parts[0]), parse_loc(parts[1])
        assert pa != pb, e
        key = frozenset((pa, pb))  # at most one listing per province pair ...
        if lst == "fleet" and (pa in split or pb in split):
            key = frozenset(parts)  # ... except several coasts of one split province
        assert key not in seen_edges, f"edge {e!r} in {lst} duplicates {seen_edges[key]}"
        seen_edges[key] = (lst, e)
        ka, kb = provs[pa]["kind"], provs[pb]["kind"]
        if lst == "army":
            assert ka != "sea" and kb != "sea", e
            assert not ca and not cb, e
            army_edges.add(frozenset((pa, pb)))
        elif lst == "fleet":
            assert "land" not in (ka, kb), e
            for p, c in ((pa, ca), (pb, cb)):
                if p in split:
                    assert c, f"{e!r}: split-coast province {p} needs a coast in a fleet edge"
            assert "sea" in (ka, kb) or pa in split or pb in split, \
                f"{e!r}: a shore edge between two non-split provinces belongs in 'both'"
            fleet_edges.add(frozenset(parts))
        else:
            assert ka == kb == "coast", e
            assert pa not in split and pb not in split and not ca and not cb, e
            army_edges.add(frozenset((pa, pb)))
            fleet_edges.add(frozenset((pa, pb)))
# split-coast shore edges also need their army edge (written once, province ids)
for e in adj["fleet"]:
    (pa, ca), (pb, cb) = (parse_loc(x) for x in e.split())
    if "sea" not in (provs[pa]["kind"], provs[pb]["kind"]):
        assert frozenset((pa, pb)) in army_edges, f"{e!r}: land border missing from army list"

neigh = {pid: set() for pid in provs}
for e in army_edges | fleet_edges:
    a, b = (x.split("/")[0] for x in e)
    neigh[a].add(b)
    neigh[b].add(a)
lonely = [p for p, n in neigh.items() if not n]
assert not lonely, lonely
# terrain sanity: a coastal province (each coast of a split one) touches a sea;
# an inland one touches none; every sea and every land province has a neighbour of its own kind
fleet_locs = {loc for e in fleet_edges for loc in e}
for pid in coastal:
    locs = [f"{pid}/{c}" for c in split[pid]] if pid in split else [pid]
    for loc in locs:
        assert any(frozenset((loc, s)) in fleet_edges for s in seas), f"{loc} touches no sea"
for pid in inland:
    assert not (neigh[pid] & seas), pid
    assert pid not in fleet_locs, pid
for pid in inland | coastal:
    assert any(pid in e for e in army_edges), f"{pid} has no army neighbour"


def army_adj(a, b):
    return frozenset((a, b)) in army_edges


def fleet_adj(a, b):
    return frozenset((a, b)) in fleet_edges


YES_ARMY = ["mos stp", "rom apu", "par bur", "nwy stp", "fin stp", "lvn stp", "den swe", "kie den",
            "bul ser", "bul con", "bul gre", "spa por", "fin nwy", "con ank", "ven tri", "rom ven",
            "gas mar", "edi lvp", "pie tyr", "lvp yor"]
NO_ARMY = ["den ber", "naf spa", "por gas", "ber war", "ank syr", "mar mun", "mun vie",
           "bel lon", "gal ser", "tus apu"]
YES_FLEET = ["nwy stp/nc", "bot stp/sc", "lvp nao", "kie bal", "hel kie", "aeg con", "bla con",
             "bul/ec rum", "bul/sc con", "bul/ec con", "bla bul/ec", "aeg bul/sc", "bul/sc gre",
             "spa/nc por", "spa/sc por", "spa/sc wes", "mao spa/nc", "mao spa/sc", "gas spa/nc",
             "mar spa/sc", "lyo spa/sc", "den swe", "ska den", "nwg cly", "nao cly", "ank con",
             "fin stp/sc", "lvn stp/sc", "bar stp/nc", "iri lvp", "eng wal", "naf mao", "tun naf",
             "con smy", "smy syr", "ion alb", "ber kie", "hol kie"]
NO_FLEET = ["cly iri", "rom apu", "rom ven", "bal ska", "aeg bla", "den ber", "spa/nc lyo",
            "spa/nc wes", "spa/nc mar", "bul/ec aeg", "bul/sc bla", "bul/ec gre", "bul/sc rum",
            "stp/nc bot", "stp/sc nwy", "stp/nc fin", "gas mar", "fin nwy", "ank smy", "lvp yor",
            "edi lvp", "ven pie", "tus ven", "apu tys", "nap adr", "kie mun", "hel bal",
            "wal yor", "arm syr", "naf spa/sc"]
for pair in YES_ARMY:
    assert army_adj(*pair.split()), f"army {pair} should be adjacent"
for pair in NO_ARMY:
    assert not army_adj(*pair.split()), f"army {pair} should not be adjacent"
for pair in YES_FLEET:
    assert fleet_adj(*pair.split()), f"fleet {pair} should be adjacent"
for pair in NO_FLEET:
    assert not fleet_adj(*pair.split()), f"fleet {pair} should not be adjacent"
# exact neighbourhoods of a few tricky locations
def fleet_nb(loc):
    return {x for e in fleet_edges if loc in e for x in e if x != loc}
assert fleet_nb("kie") == {"hel", "den", "bal", "ber", "hol"}, fleet_nb("kie")
assert fleet_nb("con") == {"bla", "aeg", "ank", "smy", "bul/ec", "bul/sc"}, fleet_nb("con")
assert fleet_nb("stp/nc") == {"bar", "nwy"}, fleet_nb("stp/nc")
assert fleet_nb("stp/sc") == {"bot", "fin", "lvn"}, fleet_nb("stp/sc")
assert fleet_nb("spa/nc") == {"mao", "gas", "por"}, fleet_nb("spa/nc")
assert fleet_nb("spa/sc") == {"mao", "por", "mar", "lyo", "wes"}, fleet_nb("spa/sc")
assert fleet_nb("bul/ec") == {"bla", "rum", "con"}, fleet_nb("bul/ec")
assert fleet_nb("bul/sc") == {"aeg", "gre", "con"}, fleet_nb("bul/sc")
assert fleet_nb("eng") == {"iri", "wal", "lon", "nth", "mao", "bre", "pic", "bel"}, fleet_nb("eng")

n_alias = sum(len(p["aliases"]) for p in provs.values())
print(f"ok: {len(provs)} provinces ({len(seas)} sea, {len(inland)} inland, {len(coastal)} coastal), "
      f"{len(centres)} centres, {len(powers)} powers; edges: army {len(adj['army'])}, "
      f"fleet {len(adj['fleet'])}, both {len(adj['both'])} "
      f"(army-passable {len(army_edges)}, fleet-passable {len(fleet_edges)}); "
      f"{n_alias} province aliases, {len(owner)} folded names in total")
