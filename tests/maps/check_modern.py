#!/usr/bin/env python3
"""Standalone consistency check for maps/modern.toml (python3 + tomllib only).

Run:  python3 maps/check_modern.py [path/to/modern.toml]
Exits non-zero (AssertionError) on the first problem; prints a summary on success.

The Modern variant: 10 powers, 64 supply centres, 34 to win, first year 1995, Wings.
Facts checked here come from seed 004 (powers, home centres, starting units, map notes)
and from modern.map of the `diplomacy` package (provinces, terrain, adjacency), the seed
winning where they disagree (see the comment block at the top of modern.toml).
"""
import sys
import tomllib
import unicodedata
from pathlib import Path

PATH = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "maps" / "modern.toml"


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

assert set(data) == {"variant", "powers", "coasts", "provinces", "impassable", "adjacency"}, set(data)

# --- variant -----------------------------------------------------------------
v = data["variant"]
assert v == {"name": "modern", "title": "Modern Diplomacy", "start_year": 1995,
             "victory_centres": 34, "wings": True, "draw_after_unchanged_falls": 3}, v

# --- coasts and provinces ----------------------------------------------------
coasts = data["coasts"]
assert set(coasts) == {"nc", "sc"}, set(coasts)  # Iran is the only split province
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

# modern.map has 141 provinces (33 WATER, 30 LAND, 78 COAST); Iceland (a COAST there) is
# impassable per the seed, so 140 remain.
assert len(provs) == 140, len(provs)
centres = {pid for pid, p in provs.items() if p.get("centre")}
assert len(centres) == 64, len(centres)
seas = {pid for pid, p in provs.items() if p["kind"] == "sea"}
inland = {pid for pid, p in provs.items() if p["kind"] == "land"}
coastal = {pid for pid, p in provs.items() if p["kind"] == "coast"}
assert len(seas) == 33, len(seas)
assert len(inland) == 30, len(inland)
assert len(coastal) == 77, len(coastal)
assert not (centres & seas), centres & seas
split = {pid: p["coasts"] for pid, p in provs.items() if "coasts" in p}
assert split == {"irn": ["nc", "sc"]}, split  # seed 004, 3.3
# terrain the seed's map notes fix
assert provs["sib"]["kind"] == "land"  # 3.4: Siberia touches no sea
assert provs["cas"]["kind"] == "sea"  # 3.1: inland seas are navigable
for pid in ("cai", "ham", "ist", "ros", "vol"):  # 3.2: canals and the waterway
    assert provs[pid]["kind"] == "coast" and "coasts" not in provs[pid], pid
assert provs["swi"]["kind"] == "land" and provs["swi"].get("centre"), "Switzerland is a passable centre here"

imp = data["impassable"]
ISLANDS = {"ice", "blr", "cor", "sar", "sic", "mlt", "cre", "cyp"}
assert set(imp) == ISLANDS, set(imp)
assert not (set(imp) & set(provs)), set(imp) & set(provs)
for sid, s in imp.items():
    assert set(s) == {"name", "aliases"}, (sid, s)
    assert fold(s["name"]) in {fold(a) for a in s["aliases"]}, sid
assert {fold(a) for a in imp["ice"]["aliases"]} >= {"iceland", "island"}

# --- powers ------------------------------------------------------------------
powers = data["powers"]
ORDER = ["Britain", "Egypt", "France", "Germany", "Italy", "Poland", "Russia", "Spain", "Turkey", "Ukraine"]
assert [pw["name"] for pw in powers] == ORDER, [pw["name"] for pw in powers]
# seed 004, section 2, unit for unit (German names there: Gorki, Kiew, Danzig, Sevilla ...)
SEED_UNITS = {
    "Britain": {"F edi", "F gib", "F liv", "W lon"},
    "Egypt": {"F ale", "A asw", "F cai"},
    "France": {"W bor", "A lyo", "A mar", "A par"},
    "Germany": {"F ber", "A fra", "F ham", "A mun"},
    "Italy": {"A mil", "F nap", "A rom", "F ven"},
    "Poland": {"F gda", "A kra", "A war"},
    "Russia": {"W gor", "A mos", "A mur", "F ros", "F stp"},
    "Spain": {"F bar", "A mad", "A sve"},
    "Turkey": {"A ada", "F ank", "F izm", "A ist"},
    "Ukraine": {"A kha", "A kie", "A ode", "F sev"},
}
HOME_COUNT = {"Egypt": 3, "Poland": 3, "Spain": 3, "Russia": 5}  # others 4 (seed: 3, 4 or 5)
all_homes, all_country, wings = [], [], []
for pw in powers:
    name = pw["name"]
    assert set(pw) == {"name", "adjective", "aliases", "home_centres", "units", "country"}, name
    homes = pw["home_centres"]
    assert len(homes) == HOME_COUNT.get(name, 4), (name, homes)
    for h in homes:
        assert h in centres, (name, h)
    all_homes += homes
    assert set(pw["units"]) == SEED_UNITS[name] and len(pw["units"]) == len(SEED_UNITS[name]), (name, pw["units"])
    unit_provs = []
    for u in pw["units"]:
        kind, loc = u.split()
        assert kind in ("A", "F", "W"), u
        prov, _, coast = loc.partition("/")
        assert prov in provs, u
        pk = provs[prov]["kind"]
        if kind == "A":
            assert pk in ("land", "coast") and not coast, u
        elif kind == "F":
            assert pk in ("coast", "sea"), u
            if prov in split:
                assert coast in split[prov], f"{u}: fleet on a split coast needs a valid coast"
            else:
                assert not coast, u
        else:
            assert not coast, u
            wings.append((name, prov))
        unit_provs.append(prov)
    assert sorted(unit_provs) == sorted(homes), (name, unit_provs)
    country = pw["country"]
    assert len(country) == len(set(country)), (name, country)
    assert all(c in provs and provs[c]["kind"] != "sea" for c in country), (name, country)
    assert set(homes) <= set(country), (name, "home centres outside the country")
    all_country += country
    for a in pw["aliases"]:
        assert len(fold(a)) > 1, (name, a)
assert len(all_homes) == len(set(all_homes)) == 38, all_homes
assert len(all_country) == len(set(all_country)), "a province in two home countries"
assert len(centres - set(all_homes)) == 26, len(centres - set(all_homes))  # neutral centres
assert sorted(wings) == [("Britain", "lon"), ("France", "bor"), ("Russia", "gor")], wings  # the three nuclear powers

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
for sid in imp:
    claim(sid, f"impassable {sid}")
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
for pw in powers:
    for a in pw["aliases"]:
        assert fold(a) != fold(pw["name"]), f"{pw['name']}: do not repeat the name as an alias"
        claim(a, f"power {pw['name']}")
# adjectives must not be taken by anything else either
for pw in powers:
    who = owner.get(fold(pw["adjective"]))
    assert who in (None, f"power {pw['name']}"), (pw["adjective"], who)
# the power abbreviations left out on purpose really are taken (by provinces or coasts)
for alias in ("bri", "fra", "eng", "english", "north", "south"):
    who = owner.get(alias)
    assert who is not None and not who.startswith("power"), (alias, who)
# seed spellings resolve
SEED_NAMES = {"Gorki": "gor", "Kiew": "kie", "Danzig": "gda", "Sevilla": "sve", "Mailand": "mil",
              "Neapel": "nap", "Venedig": "ven", "München": "mun", "Moskau": "mos", "Warschau": "war",
              "Marseille": "mar", "St. Petersburg": "stp", "Sibirien": "sib", "Kaspisches Meer": "cas",
              "Eastern Black Sea": "ebs", "Tyrrhenian Sea": "tyr", "Gulf of Lyon": "gol", "Lyon": "lyo",
              "Krakow": "kra", "Kharkov": "kha", "Odessa": "ode", "Sevastopol": "sev", "Izmir": "izm",
              "Istanbul": "ist", "Cairo": "cai", "Hamburg": "ham", "Rostov": "ros", "Volga": "vol",
              "Iran": "irn", "Gibraltar": "gib", "Frankfurt": "fra", "Aswan": "asw", "Rom": "rom"}
for name, pid in SEED_NAMES.items():
    assert owner.get(fold(name)) == f"province {pid}", (name, owner.get(fold(name)))
assert owner.get(fold("Island")) == "impassable ice"
for name, pw in {"Großbritannien": "Britain", "Ägypten": "Egypt", "Frankreich": "France",
                 "Deutschland": "Germany", "Italien": "Italy", "Polen": "Poland", "Rußland": "Russia",
                 "Spanien": "Spain", "Türkei": "Turkey", "Ukraine": "Ukraine"}.items():
    assert owner.get(fold(name)) == f"power {pw}", (name, owner.get(fold(name)))

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
assert (len(adj["army"]), len(adj["fleet"]), len(adj["both"])) == (157, 169, 76), \
    (len(adj["army"]), len(adj["fleet"]), len(adj["both"]))
assert len(army_edges) == 233 and len(fleet_edges) == 245, (len(army_edges), len(fleet_edges))
# split-coast shore edges also need their army edge (written once, province ids)
for e in adj["fleet"]:
    (pa, ca), (pb, cb) = (parse_loc(x) for x in e.split())
    if "sea" not in (provs[pa]["kind"], provs[pb]["kind"]):
        assert frozenset((pa, pb)) in army_edges, f"{e!r}: land border missing from army list"
# impassable places appear in no edge (parse_loc already rejects unknown ids)
for e in army_edges | fleet_edges:
    assert not ({x.split("/")[0] for x in e} & set(imp)), e

def army_adj(a, b):
    return frozenset((a, b)) in army_edges


def fleet_adj(a, b):
    return frozenset((a, b)) in fleet_edges


def fleet_nb(loc):
    return {x for e in fleet_edges if loc in e for x in e if x != loc}


def army_nb(pid):
    return {x for e in army_edges if pid in e for x in e if x != pid}


neigh = {pid: set() for pid in provs}
for e in army_edges | fleet_edges:
    a, b = (x.split("/")[0] for x in e)
    neigh[a].add(b)
    neigh[b].add(a)
lonely = [p for p, n in neigh.items() if not n]
assert not lonely, lonely
# terrain sanity: a coastal province (each coast of a split one) touches a sea;
# an inland one touches none; every sea touches a sea; every land province has an army neighbour
fleet_locs = {loc for e in fleet_edges for loc in e}
for pid in coastal:
    locs = [f"{pid}/{c}" for c in split[pid]] if pid in split else [pid]
    for loc in locs:
        assert any(frozenset((loc, s)) in fleet_edges for s in seas), f"{loc} touches no sea"
for pid in inland:
    assert not (neigh[pid] & seas), pid
    assert pid not in fleet_locs, pid
ISLAND_PROVINCES = {"ire"}  # Ireland: a coastal centre reached only by sea (IRI, NAO)
for pid in inland | coastal:
    has = any(pid in e for e in army_edges)
    assert has == (pid not in ISLAND_PROVINCES), f"{pid}: army neighbours {army_nb(pid) if has else 'none'}"
for pid in seas:  # the Caspian is landlocked: reached only through the Volga waterway
    assert bool(neigh[pid] & seas) == (pid != "cas"), f"sea {pid}: sea neighbours {neigh[pid] & seas}"



YES_ARMY = ["mos stp", "gor mos", "gor stp", "ros vol", "don vol", "cau ros", "don ros", "aze irn",
            "irn kaz", "ada irn", "arm irn", "irk irn", "kaz sib", "sib ura", "sib vol", "mil swi",
            "aus swi", "mar swi", "gib sve", "adl gib", "asw cai", "cai sin", "fra ham", "bul ist",
            "ist izm", "ank ist", "ber pru", "kie pod", "crp kie", "mol ode", "den ham", "den swe",
            "mad por", "adl sve", "edi liv", "liv yor", "ale asw", "isr sin", "ser rum", "bul ser"]
NO_ARMY = ["mar par", "ber mun", "ber war", "kie mos", "kha ros", "gib mor", "ana ist", "isr sau",
           "ham mun", "fra sil", "sev vol", "par swi", "bor mar", "lyo pie", "mil mon", "gda sil"]
YES_FLEET = ["ebs ros", "ros vol", "cas vol", "aze irn/nc", "cas irn/nc", "irn/nc kaz", "ara irn/sc",
             "irn/sc per", "irk irn/sc", "cai eme", "cai red", "bhm ham", "ham hel", "aeg ist",
             "ist wbs", "gol tyr", "gib sog", "gib sao", "liv nao", "don ebs", "geo ros", "cau vol",
             "kaz vol", "aze cau", "ank ebs", "ank wbs", "ank ist", "bul ist", "nwg nwy", "arc nwg",
             "brn mur", "mur whi", "bal gda", "ire nao", "eng iri", "bis mid", "lig mon", "mal tun",
             "ebs wbs"]
NO_FLEET = ["ebs vol", "cas ros", "don vol", "cau ros", "ara irn/nc", "cas irn/sc", "aze irn/sc",
            "irk irn/nc", "kaz irn/sc", "adl sve", "lat stp", "mur stp", "mar pie", "rom ven",
            "tus ven", "gib mor", "ale asw", "eme red", "aeg wbs", "bhm hel", "bal hel", "ice nao"]
for pair in YES_ARMY:
    assert army_adj(*pair.split()), f"army {pair} should be adjacent"
for pair in NO_ARMY:
    assert not army_adj(*pair.split()), f"army {pair} should not be adjacent"
for pair in YES_FLEET:
    assert fleet_adj(*pair.split()), f"fleet {pair} should be adjacent"
for pair in NO_FLEET:
    assert not fleet_adj(*pair.split()), f"fleet {pair} should not be adjacent"
# exact neighbourhoods: the canals, the waterway, Iran's coasts, the seed's map notes
assert fleet_nb("cai") == {"ale", "asw", "eme", "isr", "red", "sin"}, fleet_nb("cai")
assert fleet_nb("ham") == {"ber", "bhm", "den", "hel", "hol"}, fleet_nb("ham")
assert fleet_nb("ist") == {"aeg", "ank", "bul", "gre", "izm", "wbs"}, fleet_nb("ist")
assert fleet_nb("ros") == {"don", "ebs", "geo", "vol"}, fleet_nb("ros")
assert fleet_nb("vol") == {"cas", "cau", "kaz", "ros"}, fleet_nb("vol")
assert fleet_nb("cas") == {"aze", "cau", "irn/nc", "kaz", "vol"}, fleet_nb("cas")
assert fleet_nb("ebs") == {"ank", "don", "geo", "ros", "sev", "wbs"}, fleet_nb("ebs")
assert fleet_nb("irn/nc") == {"aze", "cas", "kaz"}, fleet_nb("irn/nc")
assert fleet_nb("irn/sc") == {"ara", "irk", "per"}, fleet_nb("irn/sc")
assert fleet_nb("irn") == set(), "Iran: fleets stand on a coast"
assert army_nb("irn") == {"ada", "arm", "aze", "irk", "kaz"}, army_nb("irn")
assert fleet_nb("tyr") == {"gol", "lig", "mal", "nap", "rom", "tun", "wme"}, fleet_nb("tyr")
assert fleet_nb("gol") == {"auv", "bar", "lig", "mar", "tyr", "wme"}, fleet_nb("gol")
assert fleet_nb("sib") == set() and army_nb("sib") == {"kaz", "ura", "vol"}, (fleet_nb("sib"), army_nb("sib"))
assert fleet_nb("arc") == {"brn", "nao", "nwg"}, fleet_nb("arc")  # no Iceland
assert fleet_nb("nao") == {"arc", "cly", "ire", "iri", "liv", "mid", "nwg"}, fleet_nb("nao")
assert fleet_nb("nwg") == {"arc", "brn", "cly", "edi", "lap", "nao", "nth", "nwy"}, fleet_nb("nwg")
assert army_nb("swi") == {"als", "aus", "lyo", "mar", "mil", "mun", "pie"}, army_nb("swi")
assert fleet_nb("gib") == {"adl", "sao", "sog", "sve"}, fleet_nb("gib")
assert fleet_nb("stp") == {"est", "fin", "gob"}, fleet_nb("stp")
# a fleet can sail the waterway from the Black Sea into the Caspian and nowhere else does
# the Caspian connect to another sea
reach, todo = {"ebs"}, ["ebs"]
while todo:
    here = todo.pop()
    for nxt in fleet_nb(here):
        if nxt not in reach:
            reach.add(nxt)
            todo.append(nxt)
assert "cas" in reach and "irn/nc" in reach
caspian_shore = {"cas", "aze", "cau", "kaz", "vol", "irn/nc"}
for loc in caspian_shore:
    out = fleet_nb(loc) - caspian_shore
    assert out <= ({"ros"} if loc == "vol" else set()), (loc, out)

n_alias = sum(len(p["aliases"]) for p in provs.values())
print(f"ok: {len(provs)} provinces ({len(seas)} sea, {len(inland)} inland, {len(coastal)} coastal), "
      f"{len(centres)} centres ({len(all_homes)} home, {len(centres) - len(all_homes)} neutral), "
      f"{len(powers)} powers, {len(imp)} impassable; edges: army {len(adj['army'])}, "
      f"fleet {len(adj['fleet'])}, both {len(adj['both'])} "
      f"(army-passable {len(army_edges)}, fleet-passable {len(fleet_edges)}); "
      f"{n_alias} province aliases, {len(owner)} folded names in total")
