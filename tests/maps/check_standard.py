#!/usr/bin/env python3
"""Standalone consistency check for maps/standard.toml (python3 + tomllib only).

Run:  python3 tests/maps/check_standard.py [path/to/standard.toml]
Exits non-zero (AssertionError) on the first problem; prints a summary on success.
The checks every map gets live in mapcheck.py; this file holds the standard map's facts.
"""
import mapcheck as mc

m = mc.load("standard.toml", optional=("setups",))
mc.check_variant(m, {"name": "standard", "title": "Diplomacy (standard map)",
                     "start_year": 1901, "victory_centres": 18})

# --- coasts, provinces, impassable ---------------------------------------------
mc.check_coasts(m, {"nc", "sc", "ec"})
mc.check_provinces(m, total=75, centres=34, seas=19, inland=14, coastal=42,
                   split={"bul": ["ec", "sc"], "spa": ["nc", "sc"], "stp": ["nc", "sc"]})
mc.check_impassable(m, {"swi"})

# --- powers ----------------------------------------------------------------------
mc.check_powers(m, ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"],
                home_count=lambda name: 4 if name == "Russia" else 3, total_homes=22)
assert "F stp/sc" in m.powers[5]["units"], m.powers[5]["units"]

# --- aliases: no collisions after folding ---------------------------------------
mc.claim_names(m)
# Power aliases live in their own namespace (read only before ':' or as a nationality);
# "ENG" names England there and the English Channel as a province.
mc.check_power_alias_namespace(m, may_collide={"eng"})
mc.check_adjectives(m)

# --- adjacency -------------------------------------------------------------------
mc.check_edges(m)
mc.check_terrain(m)

mc.check_pairs(
    m,
    yes_army=["mos stp", "rom apu", "par bur", "nwy stp", "fin stp", "lvn stp", "den swe", "kie den",
              "bul ser", "bul con", "bul gre", "spa por", "fin nwy", "con ank", "ven tri", "rom ven",
              "gas mar", "edi lvp", "pie tyr", "lvp yor"],
    no_army=["den ber", "naf spa", "por gas", "ber war", "ank syr", "mar mun", "mun vie",
             "bel lon", "gal ser", "tus apu"],
    yes_fleet=["nwy stp/nc", "bot stp/sc", "lvp nao", "kie bal", "hel kie", "aeg con", "bla con",
               "bul/ec rum", "bul/sc con", "bul/ec con", "bla bul/ec", "aeg bul/sc", "bul/sc gre",
               "spa/nc por", "spa/sc por", "spa/sc wes", "mao spa/nc", "mao spa/sc", "gas spa/nc",
               "mar spa/sc", "lyo spa/sc", "den swe", "ska den", "nwg cly", "nao cly", "ank con",
               "fin stp/sc", "lvn stp/sc", "bar stp/nc", "iri lvp", "eng wal", "naf mao", "tun naf",
               "con smy", "smy syr", "ion alb", "ber kie", "hol kie"],
    no_fleet=["cly iri", "rom apu", "rom ven", "bal ska", "aeg bla", "den ber", "spa/nc lyo",
              "spa/nc wes", "spa/nc mar", "bul/ec aeg", "bul/sc bla", "bul/ec gre", "bul/sc rum",
              "stp/nc bot", "stp/sc nwy", "stp/nc fin", "gas mar", "fin nwy", "ank smy", "lvp yor",
              "edi lvp", "ven pie", "tus ven", "apu tys", "nap adr", "kie mun", "hel bal",
              "wal yor", "arm syr", "naf spa/sc"],
)
# exact neighbourhoods of a few tricky locations
mc.check_neighbours(m, fleet={
    "kie": {"hel", "den", "bal", "ber", "hol"},
    "con": {"bla", "aeg", "ank", "smy", "bul/ec", "bul/sc"},
    "stp/nc": {"bar", "nwy"},
    "stp/sc": {"bot", "fin", "lvn"},
    "spa/nc": {"mao", "gas", "por"},
    "spa/sc": {"mao", "por", "mar", "lyo", "wes"},
    "bul/ec": {"bla", "rum", "con"},
    "bul/sc": {"aeg", "gre", "con"},
    "eng": {"iri", "wal", "lon", "nth", "mao", "bre", "pic", "bel"},
})

print(mc.summary(m))
