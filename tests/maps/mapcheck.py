"""Checks shared by the standalone map checkers (python3 + tomllib only, no dipsat).

check_standard.py and check_modern.py load their map with `load`, run the shared
structural checks below in order and add only what is specific to their map (expected
counts, spot checks, exemptions). Every check raises AssertionError on the first problem.
"""
import sys
import tomllib
import unicodedata
from pathlib import Path

SECTIONS = {"variant", "powers", "coasts", "provinces", "impassable", "adjacency"}
KINDS = {"land", "coast", "sea"}
POWER_KEYS = {"name", "adjective", "aliases", "home_centres", "units", "country"}


def fold(s):
    """Case- and accent-insensitive form: NFKD, drop combining marks, casefold.

    Like dipsat.maps.fold it also reads dots as spaces and squeezes whitespace, so
    "St. Petersburg" and "St Petersburg" are one name (a stricter test for collisions).
    """
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = s.replace("\u00df", "ss").casefold().replace(".", " ").replace("\u2019", "'")
    return " ".join(s.split())


class Map:
    """One map file as read by tomllib, with the sets the checks derive from it."""

    def __init__(self, path, data):
        self.path, self.data = path, data
        self.owner = {}  # folded alias -> owner label
        self.army_edges, self.fleet_edges = set(), set()
        self.neigh = {}

    def __getattr__(self, section):  # m.variant, m.provinces, ... are the TOML tables
        if section in SECTIONS:
            return self.data[section]
        raise AttributeError(section)


def load(filename, optional=()):
    """Read the map named on the command line, else maps/<filename> of this repository;
    its top-level tables must be SECTIONS plus at most those in `optional`."""
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "maps" / filename
    with open(path, "rb") as f:
        data = tomllib.load(f)
    assert set(data) - set(optional) == SECTIONS, set(data)
    return Map(path, data)


def check_variant(m, expected):
    assert m.variant == expected, m.variant


# --- coasts, provinces, impassable -------------------------------------------
def check_coasts(m, ids):
    assert set(m.coasts) == set(ids), set(m.coasts)
    for cid, c in m.coasts.items():
        assert set(c) == {"name", "aliases"}, (cid, c)
        assert fold(c["name"]) in {fold(a) for a in c["aliases"]}, f"coast {cid}: name not among aliases"


def check_provinces(m, total, centres, seas, inland, coastal, split):
    """Per-province shape, then the expected counts and the split-coast provinces
    (a dict id -> its coasts); sets m.centres, m.seas, m.inland, m.coastal, m.split."""
    provs, coasts = m.provinces, m.coasts
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

    assert len(provs) == total, len(provs)
    m.centres = {pid for pid, p in provs.items() if p.get("centre")}
    m.seas = {pid for pid, p in provs.items() if p["kind"] == "sea"}
    m.inland = {pid for pid, p in provs.items() if p["kind"] == "land"}
    m.coastal = {pid for pid, p in provs.items() if p["kind"] == "coast"}
    assert len(m.centres) == centres, len(m.centres)
    assert len(m.seas) == seas, len(m.seas)
    assert len(m.inland) == inland, len(m.inland)
    assert len(m.coastal) == coastal, len(m.coastal)
    assert not (m.centres & m.seas), m.centres & m.seas
    m.split = {pid: p["coasts"] for pid, p in provs.items() if "coasts" in p}
    assert m.split == split, m.split


def check_impassable(m, ids):
    imp = m.impassable
    assert set(imp) == set(ids), set(imp)
    assert not (set(imp) & set(m.provinces)), set(imp) & set(m.provinces)
    for sid, s in imp.items():
        assert set(s) == {"name", "aliases"}, (sid, s)
        assert fold(s["name"]) in {fold(a) for a in s["aliases"]}, sid


# --- powers --------------------------------------------------------------------
def check_powers(m, order, home_count, total_homes, unit_kinds="AF"):
    """Names in order, home centres (home_count(name) each, total_homes in all, none
    shared), one unit per home centre on the right terrain, power aliases longer than one
    letter. Returns {power name: [(unit kind, province), ...]}."""
    provs, split, powers = m.provinces, m.split, m.powers
    assert [pw["name"] for pw in powers] == list(order), [pw["name"] for pw in powers]
    all_homes, units = [], {}
    for pw in powers:
        name = pw["name"]
        assert set(pw) == POWER_KEYS, name
        homes = pw["home_centres"]
        assert len(homes) == home_count(name), (name, homes)
        for h in homes:
            assert h in m.centres, (name, h)
        all_homes += homes
        assert len(pw["units"]) == len(homes), name
        units[name] = [check_unit(m, u, unit_kinds) for u in pw["units"]]
        unit_provs = [prov for _, prov in units[name]]
        assert sorted(unit_provs) == sorted(homes), (name, unit_provs)
        for a in pw["aliases"]:
            assert len(fold(a)) > 1, (name, a)
    assert len(all_homes) == len(set(all_homes)) == total_homes, all_homes
    m.homes = all_homes
    return units


def check_unit(m, u, kinds):
    """A starting unit "K loc": armies on land or coast, fleets on coast or sea (a split
    province's fleet with one of its coasts), wings anywhere without a coast."""
    kind, loc = u.split()
    assert kind in kinds, u
    prov, _, coast = loc.partition("/")
    assert prov in m.provinces, u
    pk = m.provinces[prov]["kind"]
    if kind == "A":
        assert pk in ("land", "coast") and not coast, u
    elif kind == "F":
        assert pk in ("coast", "sea"), u
        if prov in m.split:
            assert coast in m.split[prov], f"{u}: fleet on a split coast needs a valid coast"
        else:
            assert not coast, u
    else:
        assert not coast, u
    return kind, prov


# --- aliases: no collisions after folding ----------------------------------------
def claim(m, alias, who):
    k = fold(alias)
    assert k, (who, alias)
    prev = m.owner.get(k)
    assert prev is None or prev == who, f"alias {alias!r} ({k!r}) claimed by {prev} and {who}"
    m.owner[k] = who


def claim_names(m):
    """Claim every id, power name and place alias in one namespace (m.owner)."""
    for pid in m.provinces:
        claim(m, pid, f"province {pid}")
    for sid in m.impassable:
        claim(m, sid, f"impassable {sid}")
    for cid in m.coasts:
        claim(m, cid, f"coast {cid}")
    for pw in m.powers:
        claim(m, pw["name"], f"power {pw['name']}")
    for pid, p in m.provinces.items():
        seen = set()
        for a in p["aliases"]:
            assert a.casefold() not in seen, f"{pid}: alias {a!r} listed twice"
            seen.add(a.casefold())
            assert fold(a) != pid, f"{pid}: do not repeat the id as an alias"
            claim(m, a, f"province {pid}")
    for sid, s in m.impassable.items():
        for a in s["aliases"]:
            claim(m, a, f"impassable {sid}")
    for cid, c in m.coasts.items():
        for a in c["aliases"]:
            claim(m, a, f"coast {cid}")


def claim_power_aliases(m):
    """Power aliases share the one namespace with the places."""
    for pw in m.powers:
        for a in pw["aliases"]:
            assert fold(a) != fold(pw["name"]), f"{pw['name']}: do not repeat the name as an alias"
            claim(m, a, f"power {pw['name']}")


def check_power_alias_namespace(m, may_collide=()):
    """Power aliases in a namespace of their own: unique among the powers, and none is
    also a place name unless listed in may_collide (folded)."""
    power_owner = {}
    for pw in m.powers:
        for a in pw["aliases"]:
            prev = power_owner.get(fold(a))
            assert prev in (None, pw["name"]), f"power alias {a!r} claimed by {prev} and {pw['name']}"
            power_owner[fold(a)] = pw["name"]
            if fold(a) in m.owner and not m.owner[fold(a)].startswith("power"):
                assert fold(a) in may_collide, f"power alias {a!r} collides with {m.owner[fold(a)]}"


def check_adjectives(m):
    """Adjectives must not be taken by anything else either."""
    for pw in m.powers:
        who = m.owner.get(fold(pw["adjective"]))
        assert who in (None, f"power {pw['name']}"), (pw["adjective"], who)


# --- adjacency ------------------------------------------------------------------
def parse_loc(m, loc):
    prov, _, coast = loc.partition("/")
    assert prov in m.provinces, f"unknown province in {loc!r}"
    if coast:
        assert prov in m.split and coast in m.split[prov], f"bad coast in {loc!r}"
    return prov, coast


def check_edges(m):
    """Each edge valid for its list, listed once; fills m.army_edges and m.fleet_edges
    (frozensets of two locations) and m.neigh (province -> neighbouring provinces)."""
    adj, provs, split = m.adjacency, m.provinces, m.split
    assert set(adj) == {"army", "fleet", "both"}, set(adj)
    seen_edges = {}
    for lst, edges in adj.items():
        for e in edges:
            parts = e.split()
            assert len(parts) == 2 and parts[0] != parts[1], e
            (pa, ca), (pb, cb) = parse_loc(m, parts[0]), parse_loc(m, parts[1])
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
                m.army_edges.add(frozenset((pa, pb)))
            elif lst == "fleet":
                assert "land" not in (ka, kb), e
                for p, c in ((pa, ca), (pb, cb)):
                    if p in split:
                        assert c, f"{e!r}: split-coast province {p} needs a coast in a fleet edge"
                assert "sea" in (ka, kb) or pa in split or pb in split, \
                    f"{e!r}: a shore edge between two non-split provinces belongs in 'both'"
                m.fleet_edges.add(frozenset(parts))
            else:
                assert ka == kb == "coast", e
                assert pa not in split and pb not in split and not ca and not cb, e
                m.army_edges.add(frozenset((pa, pb)))
                m.fleet_edges.add(frozenset((pa, pb)))
    # split-coast shore edges also need their army edge (written once, province ids)
    for e in adj["fleet"]:
        (pa, ca), (pb, cb) = (parse_loc(m, x) for x in e.split())
        if "sea" not in (provs[pa]["kind"], provs[pb]["kind"]):
            assert frozenset((pa, pb)) in m.army_edges, f"{e!r}: land border missing from army list"
    # impassable places appear in no edge (parse_loc already rejects unknown ids)
    for e in m.army_edges | m.fleet_edges:
        assert not ({x.split("/")[0] for x in e} & set(m.impassable)), e
    m.neigh = {pid: set() for pid in provs}
    for e in m.army_edges | m.fleet_edges:
        a, b = (x.split("/")[0] for x in e)
        m.neigh[a].add(b)
        m.neigh[b].add(a)


def check_terrain(m, islands=(), landlocked_seas=None):
    """No province without a neighbour; a coastal province (each coast of a split one)
    touches a sea, an inland one none; every land province has an army neighbour unless
    it is one of `islands` (then it has none). With landlocked_seas given, every sea
    touches another sea unless it is one of those (then it touches none)."""
    lonely = [p for p, n in m.neigh.items() if not n]
    assert not lonely, lonely
    fleet_locs = {loc for e in m.fleet_edges for loc in e}
    for pid in m.coastal:
        locs = [f"{pid}/{c}" for c in m.split[pid]] if pid in m.split else [pid]
        for loc in locs:
            assert any(frozenset((loc, s)) in m.fleet_edges for s in m.seas), f"{loc} touches no sea"
    for pid in m.inland:
        assert not (m.neigh[pid] & m.seas), pid
        assert pid not in fleet_locs, pid
    for pid in m.inland | m.coastal:
        has = any(pid in e for e in m.army_edges)
        assert has == (pid not in islands), f"{pid}: army neighbours {army_nb(m, pid) if has else 'none'}"
    for pid in m.seas if landlocked_seas is not None else ():
        assert bool(m.neigh[pid] & m.seas) == (pid not in landlocked_seas), \
            f"sea {pid}: sea neighbours {m.neigh[pid] & m.seas}"


def army_adj(m, a, b):
    return frozenset((a, b)) in m.army_edges


def fleet_adj(m, a, b):
    return frozenset((a, b)) in m.fleet_edges


def fleet_nb(m, loc):
    return {x for e in m.fleet_edges if loc in e for x in e if x != loc}


def army_nb(m, pid):
    return {x for e in m.army_edges if pid in e for x in e if x != pid}


# --- spot checks ------------------------------------------------------------------
def check_pairs(m, yes_army=(), no_army=(), yes_fleet=(), no_fleet=()):
    """Pairs written "a b" that must (yes_) or must not (no_) be adjacent."""
    for pair in yes_army:
        assert army_adj(m, *pair.split()), f"army {pair} should be adjacent"
    for pair in no_army:
        assert not army_adj(m, *pair.split()), f"army {pair} should not be adjacent"
    for pair in yes_fleet:
        assert fleet_adj(m, *pair.split()), f"fleet {pair} should be adjacent"
    for pair in no_fleet:
        assert not fleet_adj(m, *pair.split()), f"fleet {pair} should not be adjacent"


def check_neighbours(m, fleet=None, army=None):
    """Exact neighbourhoods: {location: expected set} for fleets and for armies."""
    for loc, want in (fleet or {}).items():
        got = fleet_nb(m, loc)
        assert got == want, (f"fleet {loc}", got)
    for pid, want in (army or {}).items():
        got = army_nb(m, pid)
        assert got == want, (f"army {pid}", got)


# --- summary ---------------------------------------------------------------------
def summary(m, centres_note="", powers_note=""):
    adj = m.adjacency
    n_alias = sum(len(p["aliases"]) for p in m.provinces.values())
    return (f"ok: {len(m.provinces)} provinces ({len(m.seas)} sea, {len(m.inland)} inland, "
            f"{len(m.coastal)} coastal), {len(m.centres)} centres{centres_note}, "
            f"{len(m.powers)} powers{powers_note}; edges: army {len(adj['army'])}, "
            f"fleet {len(adj['fleet'])}, both {len(adj['both'])} "
            f"(army-passable {len(m.army_edges)}, fleet-passable {len(m.fleet_edges)}); "
            f"{n_alias} province aliases, {len(m.owner)} folded names in total")
