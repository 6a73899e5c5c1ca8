"""Generate the board geometry of a variant (maps/<variant>.geometry.json) from facts.

The inputs are facts typed in by hand in ``scripts/geometry/<variant>.toml``: the real-world
coordinates (latitude, longitude) of the places each province is named after or covers, of
points in each sea, of the off-board land (countries the board does not play in), plus the
projection and the frame. The only other input is a real land/sea mask (the GLOBE 1 km mask
bundled by the ``global-land-mask`` package, MIT), read only here.

Method:
1. project a raster grid over the frame (spherical Lambert conformal conic) and mark each cell
   land or sea from the mask (plus the water bodies the mask counts as land, e.g. the Caspian
   Sea, given as polygons of shore points in the places file);
2. grow every province from its places over the cells of its own terrain (land provinces and
   off-board land over land, seas over sea): a multi-source Dijkstra, so a province never jumps
   water and a sea never crosses land; land no place reaches (islands the board does not use)
   stays off-board;
3. check every adjacency of the map (army, fleet per coast, wing) against the grown cells: a
   shared border, or for two coastal provinces with a shore edge a point where both meet a sea
   they both touch; an adjacency that is not visible becomes a marked crossing (the places file
   lists the expected ones: canals, straits). Borders the map does not have are reported too;
4. trace the cell boundaries into arcs, simplify each arc once (so neighbours share their border
   exactly), and write outlines, label, unit, coast and centre points.

Re-run (needs the generator's own dependencies, not the runtime's):

    pip install global-land-mask numpy scipy
    python scripts/make_geometry.py standard      # or modern; --png FILE for a quick look

It prints the adjacency report and exits non-zero when an adjacency is neither a shared border
nor a listed crossing.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

import numpy as np
from scipy import ndimage

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OFF = "_off"  # off-board land
LAKE = "_water"  # water no sea reaches


# --- projection -----------------------------------------------------------------------


class Lambert:
    """Spherical Lambert conformal conic (Snyder, Map Projections, eq. 15-1 to 15-5)."""

    def __init__(self, lon0: float, lat0: float, lat1: float, lat2: float) -> None:
        r = math.radians
        self.lon0 = r(lon0)
        p1, p2 = r(lat1), r(lat2)
        self.n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
            math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
        self.f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** self.n / self.n
        self.rho0 = self.f / math.tan(math.pi / 4 + r(lat0) / 2) ** self.n

    def forward(self, lat, lon):
        lat, lon = np.radians(lat), np.radians(lon)
        rho = self.f / np.tan(np.pi / 4 + lat / 2) ** self.n
        theta = self.n * (lon - self.lon0)
        return rho * np.sin(theta), self.rho0 - rho * np.cos(theta)

    def inverse(self, x, y):
        rho = np.sign(self.n) * np.sqrt(x ** 2 + (self.rho0 - y) ** 2)
        theta = np.arctan2(x, self.rho0 - y)
        lat = 2 * np.arctan((self.f / rho) ** (1 / self.n)) - np.pi / 2
        return np.degrees(lat), np.degrees(self.lon0 + theta / self.n)


# --- raster ---------------------------------------------------------------------------


def inside(poly: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Even-odd point-in-polygon for arrays of points."""
    result = np.zeros(x.shape, dtype=bool)
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        cross = ((y1 > y) != (y2 > y))
        with np.errstate(divide="ignore", invalid="ignore"):
            xint = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
        result ^= cross & (x < xint)
    return result


class Grid:
    def __init__(self, spec: dict) -> None:
        p = spec["projection"]
        self.proj = Lambert(p["lon0"], p["lat0"], p["lat1"], p["lat2"])
        f = spec["frame"]
        # the frame: every place and frame point, plus a margin
        points = [f[k] for k in ("west", "east", "north", "south") if k in f]
        for table in ("places", "impassable"):
            for entry in spec.get(table, {}).values():
                points += entry["places"]
        xs, ys = self.proj.forward(np.array([p[0] for p in points]), np.array([p[1] for p in points]))
        margin = f.get("margin_km", 60) / 6371.0
        west, east = xs.min() - margin, xs.max() + margin
        south, north = ys.min() - margin, ys.max() + margin
        self.cell = f["cell_km"] / 6371.0
        self.x0, self.y1 = float(west), float(north)
        self.w = int(round((east - west) / self.cell))
        self.h = int(round((north - south) / self.cell))
        cols = self.x0 + (np.arange(self.w) + 0.5) * self.cell
        rows = self.y1 - (np.arange(self.h) + 0.5) * self.cell
        self.cx, self.cy = np.meshgrid(cols, rows)
        self.lat, self.lon = self.proj.inverse(self.cx, self.cy)

    def cell_of(self, lat: float, lon: float) -> tuple[int, int]:
        x, y = self.proj.forward(lat, lon)
        return int((self.y1 - y) / self.cell), int((x - self.x0) / self.cell)

    def polygon_mask(self, points: list[list[float]]) -> np.ndarray:
        xs, ys = self.proj.forward(np.array([p[0] for p in points]), np.array([p[1] for p in points]))
        return inside(np.column_stack([xs, ys]), self.cx, self.cy)


def land_mask(grid: Grid, spec: dict) -> np.ndarray:
    from global_land_mask import globe
    # 3 x 3 samples per cell, land where most are land
    votes = np.zeros(grid.cx.shape, dtype=np.int8)
    for dy in (-1 / 3, 0, 1 / 3):
        for dx in (-1 / 3, 0, 1 / 3):
            lat, lon = grid.proj.inverse(grid.cx + dx * grid.cell, grid.cy + dy * grid.cell)
            votes += globe.is_land(np.clip(lat, -89.9, 89.9), ((lon + 180) % 360) - 180)
    land = votes >= 5
    for water in spec.get("water", {}).values():
        land &= ~grid.polygon_mask(water["shore"])
    for extra in spec.get("land", {}).values():
        land |= grid.polygon_mask(extra["shore"])
    # drop specks: land bits and water pockets below a few cells
    lab, n = ndimage.label(land)
    sizes = ndimage.sum(land, lab, range(1, n + 1))
    for i, s in enumerate(sizes, start=1):
        if s < spec["frame"].get("min_island", 4):
            land[lab == i] = False
    lab, n = ndimage.label(~land)
    sizes = ndimage.sum(~land, lab, range(1, n + 1))
    for i, s in enumerate(sizes, start=1):
        if s < spec["frame"].get("min_lake", 30):
            land[lab == i] = True
    return land


# --- growth ---------------------------------------------------------------------------


def grow(grid: Grid, land: np.ndarray, regions: dict[str, dict], terrain: dict[str, bool]) -> np.ndarray:
    """Multi-source Dijkstra: each region from its places over its own terrain (True = land).
    Returns the label index per cell (-1: nobody)."""
    h, w = land.shape
    labels = np.full(h * w, -1, dtype=np.int32)
    dist = np.full(h * w, np.inf)
    names = list(regions)
    heap: list[tuple[float, int, int]] = []
    flat_land = land.ravel()
    for idx, name in enumerate(names):
        speed = regions[name].get("weight", 1.0)
        for place in regions[name]["places"]:
            r, c = grid.cell_of(place[0], place[1])
            cell = snap(land, r, c, terrain[name], name, place)
            if cell is None:
                continue
            r, c = cell
            k = r * w + c
            if dist[k] > 0 or labels[k] > idx:
                dist[k] = 0.0
                labels[k] = idx
                heapq.heappush(heap, (0.0, idx, k))
    weights = np.array([regions[n].get("weight", 1.0) for n in names])
    is_land = np.array([terrain[n] for n in names])
    steps = [(-1, 0, 1.0), (1, 0, 1.0), (0, -1, 1.0), (0, 1, 1.0),
             (-1, -1, 1.4142), (-1, 1, 1.4142), (1, -1, 1.4142), (1, 1, 1.4142)]
    done = np.zeros(h * w, dtype=bool)
    while heap:
        d, idx, k = heapq.heappop(heap)
        if done[k] or labels[k] != idx or d > dist[k]:
            continue
        done[k] = True
        r, c = divmod(k, w)
        want = is_land[idx]
        step_cost = 1.0 / weights[idx]
        for dr, dc, cost in steps:
            rr, cc = r + dr, c + dc
            if rr < 0 or rr >= h or cc < 0 or cc >= w:
                continue
            kk = rr * w + cc
            if done[kk] or flat_land[kk] != want:
                continue
            if dr and dc and (flat_land[r * w + cc] != want or flat_land[rr * w + c] != want):
                continue  # no diagonal squeeze between two cells of the other terrain
            nd = d + cost * step_cost
            if nd < dist[kk]:
                dist[kk] = nd
                labels[kk] = idx
                heapq.heappush(heap, (nd, idx, kk))
    return labels.reshape(h, w)


def snap(land: np.ndarray, r: int, c: int, want: bool, name: str, place) -> tuple[int, int] | None:
    h, w = land.shape
    if not (0 <= r < h and 0 <= c < w):
        if name.startswith(OFF):
            return None  # off-board land beyond the frame
        raise SystemExit(f"{name}: place {place} is outside the frame")
    if land[r, c] == want:
        return r, c
    for radius in range(1, 12):
        for dr in range(-radius, radius + 1):
            for dc in range(-radius, radius + 1):
                rr, cc = r + dr, c + dc
                if 0 <= rr < h and 0 <= cc < w and land[rr, cc] == want:
                    return rr, cc
    raise SystemExit(f"{name}: place {place} is not on {'land' if want else 'sea'} (nothing near)")


def clean(labels: np.ndarray, keep_seeded: np.ndarray) -> np.ndarray:
    """Give every 4-connected piece of a region without a place to its biggest neighbour
    of the same terrain (diagonal growth leaves a few); repeat until stable."""
    out = labels.copy()
    for _ in range(5):
        changed = False
        for idx in np.unique(out):
            if idx < 0:
                continue
            lab, n = ndimage.label(out == idx)
            if n <= 1:
                continue
            for piece in range(1, n + 1):
                cells = lab == piece
                if (cells & keep_seeded[idx]).any():
                    continue
                ring = ndimage.binary_dilation(cells) & ~cells
                around = out[ring]
                around = around[around >= 0]
                if len(around) == 0:
                    continue
                values, counts = np.unique(around, return_counts=True)
                out[cells] = values[np.argmax(counts)]
                changed = True
        if not changed:
            break
    return out


# --- checks ---------------------------------------------------------------------------


def touching(labels: np.ndarray) -> dict[frozenset[int], int]:
    """Pairs of labels with a common cell edge, and how many edges."""
    out: dict[frozenset[int], int] = defaultdict(int)
    for a, b in ((labels[:, :-1], labels[:, 1:]), (labels[:-1, :], labels[1:, :])):
        diff = a != b
        pairs = np.stack([a[diff], b[diff]], axis=1)
        pairs.sort(axis=1)
        uniq, counts = np.unique(pairs, axis=0, return_counts=True)
        for (x, y), n in zip(uniq, counts):
            out[frozenset((int(x), int(y)))] += int(n)
    return out


def shore_points(labels: np.ndarray) -> dict[frozenset[int], set[int]]:
    """For each pair of labels: the labels meeting them at a grid corner (2 x 2 blocks)."""
    out: dict[frozenset[int], set[int]] = defaultdict(set)
    blocks = np.stack([labels[:-1, :-1], labels[:-1, 1:], labels[1:, :-1], labels[1:, 1:]], axis=-1).reshape(-1, 4)
    blocks = np.unique(np.sort(blocks, axis=1), axis=0)
    for row in blocks:
        vals = sorted(set(int(v) for v in row))
        if len(vals) < 3:
            continue
        for i in range(len(vals)):
            for j in range(i + 1, len(vals)):
                out[frozenset((vals[i], vals[j]))].update(v for v in vals if v not in (vals[i], vals[j]))
    return out


def map_edges(the_map) -> list[tuple[str, str, str]]:
    """Every adjacency of the map: (kind, a, b) with a < b; kinds army, fleet (with coasts)."""
    edges = set()
    for a, dsts in the_map.army_adjacency.items():
        for b in dsts:
            if a < b:
                edges.add(("army", a, b))
    for src, dsts in the_map.fleet_adjacency.items():
        for dst in dsts:
            if str(src) < str(dst):
                edges.add(("fleet", str(src), str(dst)))
    return sorted(edges)


# --- tracing --------------------------------------------------------------------------


def trace(labels: np.ndarray, tolerance: float) -> tuple[dict[int, list[list[tuple[float, float]]]], dict]:
    """Rings per label (grid-corner coordinates, x right, y down), borders simplified once
    per arc so that neighbours share their vertices."""
    h, w = labels.shape
    pad = np.full((h + 2, w + 2), -2, dtype=labels.dtype)
    pad[1:-1, 1:-1] = labels
    # a corner (i, j) of the padded grid is the top-left corner of padded cell (i, j)
    # directed edges with the label on the left, walking counter-clockwise in screen coords
    nxt: dict[int, dict[tuple[int, int], list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
    H, W = pad.shape
    # horizontal edges between rows i-1 and i: corner (i, j) -> (i, j+1)
    top, bottom = pad[:-1, :], pad[1:, :]
    ii, jj = np.nonzero(top != bottom)
    for i, j in zip(ii.tolist(), jj.tolist()):
        a, b = int(pad[i, j]), int(pad[i + 1, j])  # a above, b below the edge at row i+1
        # edge along y=i+1 from x=j to x=j+1; cell above is a, below is b
        if a >= 0:  # walking with a on the left (screen: y down): go from x=j+1 to x=j
            nxt[a][(i + 1, j + 1)].append((i + 1, j))
        if b >= 0:
            nxt[b][(i + 1, j)].append((i + 1, j + 1))
    left, right = pad[:, :-1], pad[:, 1:]
    ii, jj = np.nonzero(left != right)
    for i, j in zip(ii.tolist(), jj.tolist()):
        a, b = int(pad[i, j]), int(pad[i, j + 1])  # edge along x=j+1 from y=i to y=i+1
        if a >= 0:  # a on the left of a downward walk
            nxt[a][(i, j + 1)].append((i + 1, j + 1))
        if b >= 0:
            nxt[b][(i + 1, j + 1)].append((i, j + 1))

    # corner degree and which labels meet there: junctions keep their vertex
    blocks = np.stack([pad[:-1, :-1], pad[:-1, 1:], pad[1:, :-1], pad[1:, 1:]], axis=-1)
    uniq = np.sort(blocks, axis=-1)
    count = 1 + (uniq[..., 1] != uniq[..., 0]) + (uniq[..., 2] != uniq[..., 1]) + (uniq[..., 3] != uniq[..., 2])
    checker = (blocks[..., 0] == blocks[..., 3]) & (blocks[..., 1] == blocks[..., 2]) & (blocks[..., 0] != blocks[..., 1])
    junction = (count >= 3) | checker  # corner (i+1, j+1) in padded-corner coordinates

    def is_junction(v: tuple[int, int]) -> bool:
        i, j = v
        return bool(junction[i - 1, j - 1]) if 1 <= i <= H - 1 and 1 <= j <= W - 1 else True

    rings: dict[int, list[list[tuple[int, int]]]] = {}
    for lab, out in nxt.items():
        used: set[tuple[tuple[int, int], tuple[int, int]]] = set()
        result = []
        for start in sorted(out):
            for first in out[start]:
                if (start, first) in used:
                    continue
                ring = [start]
                prev, cur = start, first
                used.add((start, first))
                while cur != start:
                    ring.append(cur)
                    options = [n for n in out[cur] if (cur, n) not in used]
                    if len(options) > 1:  # checkerboard corner: turn left (keep the cell)
                        dy, dx = cur[0] - prev[0], cur[1] - prev[1]
                        options.sort(key=lambda n: _turn(dy, dx, n[0] - cur[0], n[1] - cur[1]))
                    n = options[0]
                    used.add((cur, n))
                    prev, cur = cur, n
                result.append(ring)
        rings[lab] = result

    # arcs: split each ring at junctions; simplify each arc once, keyed by its end points
    keep: dict[tuple[int, int], bool] = {}
    done_arcs: set[tuple] = set()
    for lab in sorted(rings):
        for ring in rings[lab]:
            n = len(ring)
            cuts = [k for k in range(n) if is_junction(ring[k])]
            if not cuts:
                # a closed loop (an island in one other region): two fixed far points
                far = max(range(n), key=lambda k: (ring[k][0] - ring[0][0]) ** 2 + (ring[k][1] - ring[0][1]) ** 2)
                cuts = [0, far]
            for a, b in zip(cuts, cuts[1:] + [cuts[0] + n]):
                arc = [ring[k % n] for k in range(a, b + 1)]
                key = tuple(sorted([tuple(arc), tuple(reversed(arc))]))[0]
                if key in done_arcs:
                    continue
                done_arcs.add(key)
                kept = _douglas_peucker(arc, tolerance)
                for k, v in enumerate(arc):
                    if k == 0 or k == len(arc) - 1:
                        keep[v] = True
                    elif v not in keep:
                        keep[v] = k in kept
    out_rings: dict[int, list[list[tuple[float, float]]]] = {}
    for lab, rs in rings.items():
        polys = []
        for ring in rs:
            pts = [v for v in ring if keep.get(v, True)]
            if len(pts) >= 3:
                polys.append([(j - 1, i - 1) for i, j in pts])  # back to unpadded (x, y)
        out_rings[lab] = polys
    return out_rings, keep


def _turn(dy, dx, ny, nx) -> int:
    # in screen coordinates a left turn relative to (dy, dx): cross product sign
    cross = dx * ny - dy * nx
    return 0 if cross < 0 else 1 if cross == 0 else 2


def _douglas_peucker(arc, tol) -> set[int]:
    keep = {0, len(arc) - 1}
    stack = [(0, len(arc) - 1)]
    pts = np.array(arc, dtype=float)
    while stack:
        a, b = stack.pop()
        if b - a < 2:
            continue
        p, q = pts[a], pts[b]
        seg = q - p
        norm = math.hypot(*seg)
        mid = pts[a + 1:b]
        if norm == 0:
            d = np.hypot(*(mid - p).T)
        else:
            d = np.abs(seg[0] * (mid[:, 1] - p[1]) - seg[1] * (mid[:, 0] - p[0])) / norm
        k = int(np.argmax(d))
        if d[k] > tol:
            keep.add(a + 1 + k)
            stack += [(a, a + 1 + k), (a + 1 + k, b)]
    return keep


# --- points ---------------------------------------------------------------------------


def best_point(mask: np.ndarray, *, prefer: tuple[float, float] | None = None, ring: float = 0.0,
               avoid: list[tuple[float, float]] = (), spacing: float = 0.0, cap: float = 9.0,
               near: np.ndarray | None = None, valid=None) -> tuple[float, float]:
    """A cell of `mask` well inside it (distance to its edge, counted up to `cap` cells),
    close to `prefer` (or, with `ring`, about `ring` cells from it), at least `spacing`
    cells from the points in `avoid` where possible; `near` restricts the choice."""
    inner = ndimage.distance_transform_edt(np.pad(mask, 1))[1:-1, 1:-1]
    allowed = mask if near is None or not (near & mask).any() else (mask & near)
    rows, cols = np.nonzero(allowed)
    x, y = cols + 0.5, rows + 0.5
    score = np.minimum(inner[rows, cols], cap)
    if prefer is not None:
        d = np.hypot(x - prefer[0], y - prefer[1])
        score = score - 0.05 * (np.abs(d - ring) if ring else d)
    for (ax, ay) in avoid:
        d = np.hypot(x - ax, y - ay)
        score = score - np.where(d < spacing, (spacing - d) * 2.0, 0.0)
    if valid is None:
        k = int(np.argmax(score))
        return float(x[k]), float(y[k])
    for k in np.argsort(-score, kind="stable"):
        if valid((float(x[k]), float(y[k]))):
            return float(x[k]), float(y[k])
    raise SystemExit("no point inside the simplified outline")


# --- main -----------------------------------------------------------------------------


def build(variant_name: str, png: str | None) -> int:
    from dipsat.maps import load_variant

    spec = tomllib.loads((ROOT / "scripts" / "geometry" / f"{variant_name}.toml").read_text(encoding="utf-8"))
    variant = load_variant(variant_name)
    the_map = variant.map
    grid = Grid(spec)
    print(f"{variant_name}: grid {grid.w} x {grid.h} cells of {spec['frame']['cell_km']} km")
    land = land_mask(grid, spec)

    regions: dict[str, dict] = {}
    terrain: dict[str, bool] = {}
    kinds: dict[str, str] = {}
    places = spec["places"]
    for pid, prov in the_map.provinces.items():
        if pid not in places:
            raise SystemExit(f"{variant_name}: no places for province {pid}")
        regions[pid] = places[pid]
        terrain[pid] = not prov.is_sea
        kinds[pid] = prov.kind.value
    for pid in spec.get("impassable", {}):
        regions[pid] = spec["impassable"][pid]
        terrain[pid] = True
        kinds[pid] = "impassable"
    for key, entry in spec.get("offboard", {}).items():
        regions[f"{OFF}.{key}"] = entry
        terrain[f"{OFF}.{key}"] = True
        kinds[f"{OFF}.{key}"] = "offboard"
    extra = set(places) - set(the_map.provinces)
    if extra:
        raise SystemExit(f"{variant_name}: places for unknown provinces {sorted(extra)}")

    names = list(regions)
    labels = grow(grid, land, regions, terrain)
    seeded = {}
    for idx, name in enumerate(names):
        m = np.zeros(labels.shape, dtype=bool)
        for place in regions[name]["places"]:
            cell = snap(land, *grid.cell_of(place[0], place[1]), terrain[name], name, place)
            if cell is not None:
                m[cell] = True
        seeded[idx] = m
    labels = clean(labels, seeded)
    # unreached land: off-board islands; unreached water: lakes
    offboard_islands = (labels < 0) & land
    water = (labels < 0) & ~land
    names.append(OFF)
    kinds[OFF] = "offboard"
    labels[offboard_islands] = len(names) - 1
    names.append(LAKE)
    kinds[LAKE] = "water"
    labels[water] = len(names) - 1
    index = {n: i for i, n in enumerate(names)}
    group = np.array([index[n.split(".")[0]] if n.startswith(OFF) else i for i, n in enumerate(names)])
    labels = group[labels]

    # adjacency report
    touch = touching(labels)
    meets = shore_points(labels)
    crossings_spec = {frozenset(c["between"]): c for c in spec.get("crossings", [])}
    problems = 0
    crossings = []
    missing = []
    for kind, a, b in map_edges(the_map):
        pa, pb = a.split("/")[0], b.split("/")[0]
        ia, ib = index[pa], index[pb]
        pair = frozenset((ia, ib))
        ok = pair in touch
        if ok and kind == "fleet" and the_map.provinces[pa].is_land and the_map.provinces[pb].is_land:
            seas = {s for s in meets.get(pair, set()) if names[s] in the_map.provinces and the_map.provinces[names[s]].is_sea}
            la = {l for l in the_map.fleet_adjacency.get(_loc(a), ())}
            lb = {l for l in the_map.fleet_adjacency.get(_loc(b), ())}
            ok = any(_loc(names[s]) in la and _loc(names[s]) in lb for s in seas)
        if not ok:
            key = frozenset((pa, pb))
            if key in crossings_spec:
                crossings.append(crossings_spec[key])
            else:
                missing.append((kind, a, b))
    used_crossings = {frozenset(c["between"]) for c in crossings}
    allowed = {frozenset((x, y)) for _, x, y in map_edges(the_map)} | {
        frozenset((x.split("/")[0], y.split("/")[0])) for _, x, y in map_edges(the_map)}
    spurious = []
    for pair, n in sorted(touch.items(), key=lambda kv: sorted(names[i] for i in kv[0])):
        a, b = sorted(names[i] for i in pair)
        if a not in the_map.provinces or b not in the_map.provinces:
            continue
        if the_map.provinces[a].is_sea and the_map.provinces[b].is_sea and frozenset((a, b)) not in allowed:
            spurious.append((a, b, n))
        elif frozenset((a, b)) not in allowed:
            spurious.append((a, b, n))
    # a shore edge that does not exist: two coastal provinces meeting at a sea both touch
    false_shore = []
    for pair, seas in meets.items():
        a, b = sorted(names[i] for i in pair)
        if a not in the_map.provinces or b not in the_map.provinces:
            continue
        if not (the_map.provinces[a].is_land and the_map.provinces[b].is_land) or pair not in touch:
            continue
        fleet_ok = any(_loc(b) in the_map.fleet_adjacency.get(la, ()) or any(
            lb in the_map.fleet_adjacency.get(la, ()) for lb in the_map.fleet_locations(b))
            for la in the_map.fleet_locations(a))
        if fleet_ok:
            continue
        for s in seas:
            sn = names[s]
            if sn in the_map.provinces and the_map.provinces[sn].is_sea and \
                    frozenset((a, sn)) in allowed and frozenset((b, sn)) in allowed:
                false_shore.append((a, b, sn))
    edges = map_edges(the_map)
    print(f"adjacencies: {len(edges)} ({sum(1 for e in edges if e[0] == 'army')} army, "
          f"{sum(1 for e in edges if e[0] == 'fleet')} fleet); crossings: {len(used_crossings)} "
          f"({', '.join('-'.join(sorted(c)) for c in sorted(used_crossings, key=sorted))})")
    for kind, a, b in missing:
        print(f"  MISSING {kind} {a} {b}")
        problems += 1
    for a, b, n in spurious:
        print(f"  SPURIOUS border {a} {b} ({n} cell edges)")
    for a, b, s in false_shore:
        print(f"  FALSE SHORE {a} {b} at {s}")
    unused = set(crossings_spec) - used_crossings
    for key in unused:
        print(f"  unused crossing {sorted(key)}")

    if png:
        write_png(labels, names, kinds, png)
    if problems:
        print(f"{problems} adjacencies not visible")
    write_geometry(variant_name, spec, grid, labels, names, kinds, the_map, crossings, regions)
    return 1 if problems else 0


def _loc(text: str):
    from dipsat.board import Location
    return Location.parse(text)


def write_png(labels, names, kinds, path) -> None:
    from PIL import Image
    rng = np.random.default_rng(1)
    colours = np.zeros((len(names), 3), dtype=np.uint8)
    for i, n in enumerate(names):
        k = kinds.get(n, "offboard")
        if k == "sea":
            colours[i] = (rng.integers(90, 150), rng.integers(140, 190), rng.integers(200, 250))
        elif k == "impassable":
            colours[i] = (120, 120, 120)
        elif k == "offboard":
            colours[i] = (200, 200, 190)
        elif k == "water":
            colours[i] = (40, 40, 120)
        else:
            colours[i] = (rng.integers(150, 250), rng.integers(130, 220), rng.integers(60, 160))
    img = Image.fromarray(colours[labels])
    from PIL import ImageDraw
    draw = ImageDraw.Draw(img)
    for i, n in enumerate(names):
        if n.startswith("_"):
            continue
        rows, cols = np.nonzero(labels == i)
        if len(rows):
            x, y = best_point(labels == i)
            draw.text((x - 8, y - 5), n, fill=(0, 0, 0))
    img.save(path)


def write_geometry(variant_name, spec, grid, labels, names, kinds, the_map, crossings, regions) -> None:
    from dipsat.maps.geometry import contains

    tol = spec["frame"].get("simplify", 0.9)
    rings, _ = trace(labels, tol)
    scale = spec["frame"].get("scale", 1.0)  # output units per cell

    def pt(p):
        return [round(p[0] * scale, 1), round(p[1] * scale, 1)]

    out = {"variant": variant_name,
           "generator": "scripts/make_geometry.py (places: scripts/geometry/%s.toml)" % variant_name,
           "width": round(grid.w * scale, 1), "height": round(grid.h * scale, 1),
           "km_per_unit": round(spec["frame"]["cell_km"] / scale, 3),
           "provinces": {}, "impassable": {}, "offboard": [], "water": [], "crossings": []}
    for idx, name in enumerate(names):
        polys = [[pt(p) for p in ring] for ring in rings.get(idx, [])]
        mask = labels == idx
        if name == OFF:
            out["offboard"] = polys
            continue
        if name == LAKE:
            out["water"] = polys
            continue
        if name.startswith(OFF):
            continue
        if not mask.any():
            raise SystemExit(f"{name}: no cells")
        first = regions[name]["places"][0]
        fr, fc = grid.cell_of(first[0], first[1])
        rings_here = rings.get(idx, [])

        def valid(p, rings_here=rings_here):
            return contains(rings_here, p)
        unit = best_point(mask, prefer=(fc + 0.5, fr + 0.5), valid=valid)
        entry = {"outline": polys, "unit": pt(unit)}
        avoid = [unit]
        if kinds[name] in ("impassable",):
            entry["label"] = entry.pop("unit")
            out["impassable"][name] = entry
            continue
        prov = the_map.provinces[name]
        if prov.coasts:
            from dipsat.board import Location
            entry["coasts"] = {}
            reach = {c: {l.province for l in the_map.fleet_adjacency[Location(name, c)]} for c in prov.coasts}
            shore = mask & ndimage.binary_dilation(np.isin(labels, [names.index(p) for p in the_map.sea_provinces]),
                                                   iterations=5)
            for coast in prov.coasts:
                seas = [names.index(p) for p in reach[coast] if the_map.provinces[p].is_sea]
                near = ndimage.binary_dilation(np.isin(labels, seas), iterations=5) & shore
                at = regions[name]["coasts"][coast]  # a place on that coast
                cr, cc = grid.cell_of(at[0], at[1])
                p = best_point(mask, near=near, prefer=(cc + 0.5, cr + 0.5), avoid=avoid, spacing=10, cap=4,
                               valid=valid)
                entry["coasts"][coast] = pt(p)
                avoid.append(p)
        if prov.centre:
            p = best_point(mask, prefer=unit, ring=12, avoid=avoid, spacing=11, cap=3, valid=valid)
            entry["centre"] = pt(p)
            avoid.append(p)
        p = best_point(mask, prefer=unit, ring=13, avoid=avoid, spacing=11, cap=4, valid=valid)
        entry["label"] = pt(p)
        out["provinces"][name] = entry
    seen = set()
    for c in crossings:
        a, b = sorted(c["between"])
        if (a, b) in seen:
            continue
        seen.add((a, b))
        if c.get("kind") == "waterway":  # along the river(s): from one unit point to the other
            line = [out["provinces"][a]["unit"], out["provinces"][b]["unit"]]
        else:  # across the water, between the nearest points
            line = [pt(_crossing_end(grid, labels, names, a, b)), pt(_crossing_end(grid, labels, names, b, a))]
        out["crossings"].append({"between": [a, b], "kind": c.get("kind", "crossing"), "line": line})
    out["crossings"].sort(key=lambda c: c["between"])
    path = ROOT / "maps" / f"{variant_name}.geometry.json"
    text = json.dumps(out, separators=(",", ":"), sort_keys=True)
    path.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)} ({len(text) // 1024} KiB)")


def _crossing_end(grid, labels, names, a, b):
    """The cell of a nearest to b (the end of a crossing line in a)."""
    ma, mb = labels == names.index(a), labels == names.index(b)
    dist, (ri, ci) = ndimage.distance_transform_edt(~mb, return_indices=True)
    d = np.where(ma, dist, np.inf)
    r, c = np.unravel_index(int(np.argmin(d)), d.shape)
    # step back into a, a couple of cells, so the line starts inside
    inner = ndimage.distance_transform_edt(np.pad(ma, 1))[1:-1, 1:-1]
    rows, cols = np.nonzero(ma & (np.hypot(np.arange(ma.shape[0])[:, None] - r, np.arange(ma.shape[1])[None, :] - c) < 4))
    k = int(np.argmax(inner[rows, cols]))
    return float(cols[k] + 0.5), float(rows[k] + 0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=["standard", "modern"])
    parser.add_argument("--png", help="also write a raster picture of the grown provinces")
    args = parser.parse_args()
    return build(args.variant, args.png)


if __name__ == "__main__":
    sys.exit(main())
