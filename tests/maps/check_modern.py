#!/usr/bin/env python3
"""Standalone consistency check for maps/modern.toml (python3 + tomllib only).

Run:  python3 tests/maps/check_modern.py [path/to/modern.toml]
Exits non-zero (AssertionError) on the first problem; prints a summary on success.
The checks every map gets live in mapcheck.py; this file holds the Modern map's facts.

The Modern variant: 10 powers, 64 supply centres, 34 to win, first year 1995, Wings.
Facts checked here come from seed 004 (powers, home centres, starting units, map notes)
and from modern.map of the `diplomacy` package (provinces, terrain, adjacency), the seed
winning where they disagree (see the comment block at the top of modern.toml).
"""
import mapcheck as mc
from mapcheck import fold

m = mc.load("modern.toml")
mc.check_variant(m, {"name": "modern", "title": "Modern Diplomacy", "start_year": 1995,
                     "victory_centres": 34, "wings": True, "draw_after_unchanged_falls": 3})

# --- coasts, provinces, impassable ---------------------------------------------
mc.check_coasts(m, {"nc", "sc"})  # Iran is the only split province
# modern.map has 141 provinces (33 WATER, 30 LAND, 78 COAST); Iceland (a COAST there) is
# impassable per the seed, so 140 remain.
mc.check_provinces(m, total=140, centres=64, seas=33, inland=30, coastal=77,
                   split={"irn": ["nc", "sc"]})  # seed 004, 3.3
provs = m.provinces
# terrain the seed's map notes fix
assert provs["sib"]["kind"] == "land"  # 3.4: Siberia touches no sea
assert provs["cas"]["kind"] == "sea"  # 3.1: inland seas are navigable
for pid in ("cai", "ham", "ist", "ros", "vol"):  # 3.2: canals and the waterway
    assert provs[pid]["kind"] == "coast" and "coasts" not in provs[pid], pid
assert provs["swi"]["kind"] == "land" and provs["swi"].get("centre"), "Switzerland is a passable centre here"

mc.check_impassable(m, {"ice", "blr", "cor", "sar", "sic", "mlt", "cre", "cyp"})
assert {fold(a) for a in m.impassable["ice"]["aliases"]} >= {"iceland", "island"}

# --- powers ----------------------------------------------------------------------
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
ORDER = ["Britain", "Egypt", "France", "Germany", "Italy", "Poland", "Russia", "Spain", "Turkey", "Ukraine"]
units = mc.check_powers(m, ORDER, home_count=lambda name: HOME_COUNT.get(name, 4),
                        total_homes=38, unit_kinds="AFW")
all_country = []
for pw in m.powers:
    name = pw["name"]
    assert set(pw["units"]) == SEED_UNITS[name] and len(pw["units"]) == len(SEED_UNITS[name]), (name, pw["units"])
    country = pw["country"]
    assert len(country) == len(set(country)), (name, country)
    assert all(c in provs and provs[c]["kind"] != "sea" for c in country), (name, country)
    assert set(pw["home_centres"]) <= set(country), (name, "home centres outside the country")
    all_country += country
assert len(all_country) == len(set(all_country)), "a province in two home countries"
assert len(m.centres - set(m.homes)) == 26, len(m.centres - set(m.homes))  # neutral centres
wings = sorted((name, prov) for name, us in units.items() for kind, prov in us if kind == "W")
assert wings == [("Britain", "lon"), ("France", "bor"), ("Russia", "gor")], wings  # the three nuclear powers

# --- aliases: no collisions after folding ---------------------------------------
mc.claim_names(m)
mc.claim_power_aliases(m)
mc.check_adjectives(m)
# the power abbreviations left out on purpose really are taken (by provinces or coasts)
for alias in ("bri", "fra", "eng", "english", "north", "south"):
    who = m.owner.get(alias)
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
    assert m.owner.get(fold(name)) == f"province {pid}", (name, m.owner.get(fold(name)))
assert m.owner.get(fold("Island")) == "impassable ice"
for name, pw in {"Großbritannien": "Britain", "Ägypten": "Egypt", "Frankreich": "France",
                 "Deutschland": "Germany", "Italien": "Italy", "Polen": "Poland", "Rußland": "Russia",
                 "Spanien": "Spain", "Türkei": "Turkey", "Ukraine": "Ukraine"}.items():
    assert m.owner.get(fold(name)) == f"power {pw}", (name, m.owner.get(fold(name)))

# --- adjacency -------------------------------------------------------------------
mc.check_edges(m)
adj = m.adjacency
assert (len(adj["army"]), len(adj["fleet"]), len(adj["both"])) == (157, 169, 76), \
    (len(adj["army"]), len(adj["fleet"]), len(adj["both"]))
assert len(m.army_edges) == 233 and len(m.fleet_edges) == 245, (len(m.army_edges), len(m.fleet_edges))
# Ireland: a coastal centre reached only by sea (IRI, NAO); the Caspian is landlocked:
# reached only through the Volga waterway
mc.check_terrain(m, islands={"ire"}, landlocked_seas={"cas"})

mc.check_pairs(
    m,
    yes_army=["mos stp", "gor mos", "gor stp", "ros vol", "don vol", "cau ros", "don ros", "aze irn",
              "irn kaz", "ada irn", "arm irn", "irk irn", "kaz sib", "sib ura", "sib vol", "mil swi",
              "aus swi", "mar swi", "gib sve", "adl gib", "asw cai", "cai sin", "fra ham", "bul ist",
              "ist izm", "ank ist", "ber pru", "kie pod", "crp kie", "mol ode", "den ham", "den swe",
              "mad por", "adl sve", "edi liv", "liv yor", "ale asw", "isr sin", "ser rum", "bul ser"],
    no_army=["mar par", "ber mun", "ber war", "kie mos", "kha ros", "gib mor", "ana ist", "isr sau",
             "ham mun", "fra sil", "sev vol", "par swi", "bor mar", "lyo pie", "mil mon", "gda sil"],
    yes_fleet=["ebs ros", "ros vol", "cas vol", "aze irn/nc", "cas irn/nc", "irn/nc kaz", "ara irn/sc",
               "irn/sc per", "irk irn/sc", "cai eme", "cai red", "bhm ham", "ham hel", "aeg ist",
               "ist wbs", "gol tyr", "gib sog", "gib sao", "liv nao", "don ebs", "geo ros", "cau vol",
               "kaz vol", "aze cau", "ank ebs", "ank wbs", "ank ist", "bul ist", "nwg nwy", "arc nwg",
               "brn mur", "mur whi", "bal gda", "ire nao", "eng iri", "bis mid", "lig mon", "mal tun",
               "ebs wbs"],
    no_fleet=["ebs vol", "cas ros", "don vol", "cau ros", "ara irn/nc", "cas irn/sc", "aze irn/sc",
              "irk irn/nc", "kaz irn/sc", "adl sve", "lat stp", "mur stp", "mar pie", "rom ven",
              "tus ven", "gib mor", "ale asw", "eme red", "aeg wbs", "bhm hel", "bal hel", "ice nao"],
)
# exact neighbourhoods: the canals, the waterway, Iran's coasts, the seed's map notes
mc.check_neighbours(m, fleet={
    "cai": {"ale", "asw", "eme", "isr", "red", "sin"},
    "ham": {"ber", "bhm", "den", "hel", "hol"},
    "ist": {"aeg", "ank", "bul", "gre", "izm", "wbs"},
    "ros": {"don", "ebs", "geo", "vol"},
    "vol": {"cas", "cau", "kaz", "ros"},
    "cas": {"aze", "cau", "irn/nc", "kaz", "vol"},
    "ebs": {"ank", "don", "geo", "ros", "sev", "wbs"},
    "irn/nc": {"aze", "cas", "kaz"},
    "irn/sc": {"ara", "irk", "per"},
    "irn": set(),  # Iran: fleets stand on a coast
    "tyr": {"gol", "lig", "mal", "nap", "rom", "tun", "wme"},
    "gol": {"auv", "bar", "lig", "mar", "tyr", "wme"},
    "sib": set(),
    "arc": {"brn", "nao", "nwg"},  # no Iceland
    "nao": {"arc", "cly", "ire", "iri", "liv", "mid", "nwg"},
    "nwg": {"arc", "brn", "cly", "edi", "lap", "nao", "nth", "nwy"},
    "gib": {"adl", "sao", "sog", "sve"},
    "stp": {"est", "fin", "gob"},
}, army={
    "irn": {"ada", "arm", "aze", "irk", "kaz"},
    "sib": {"kaz", "ura", "vol"},
    "swi": {"als", "aus", "lyo", "mar", "mil", "mun", "pie"},
})
# a fleet can sail the waterway from the Black Sea into the Caspian and nowhere else does
# the Caspian connect to another sea
reach, todo = {"ebs"}, ["ebs"]
while todo:
    here = todo.pop()
    for nxt in mc.fleet_nb(m, here):
        if nxt not in reach:
            reach.add(nxt)
            todo.append(nxt)
assert "cas" in reach and "irn/nc" in reach
caspian_shore = {"cas", "aze", "cau", "kaz", "vol", "irn/nc"}
for loc in caspian_shore:
    out = mc.fleet_nb(m, loc) - caspian_shore
    assert out <= ({"ros"} if loc == "vol" else set()), (loc, out)

print(mc.summary(m, centres_note=f" ({len(m.homes)} home, {len(m.centres) - len(m.homes)} neutral)",
                 powers_note=f", {len(m.impassable)} impassable"))
