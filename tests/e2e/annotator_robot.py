"""A robot annotator for the workbench, driven from a page's truth: it makes the page right with the tools
a person has there, and counts what that took, so that the cost of a correct page can be compared with
and without a tool.

What it counts: keys (each character typed is one key; a Chinese character is four, the pinyin and the
choice an input method needs), clicks, drags, and decisions (one per SKU it corrects, adds or deletes, and
per table column whose role it sets). Its own seconds are a robot's; a person's are estimated with the
keystroke-level model (Card, Moran and Newell): 0.28 s a key (an average typist), 1.3 s a click (point
1.1 s and press), 2.4 s a drag (point, press, point, release), 1.35 s a decision (mental preparation).

The plan is pure (``plan_fixes``, ``table_regions``, ``column_roles``): what to change, from the truth
and what the workbench holds; ``Robot`` carries it out in the browser.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from skuflow_cli.evaluation.scoring import normalize, same_price, score_page, sku_key_attribute

FIELDS = ("model", "product_name", "price", "size", "color", "material")  # the editor's order (edits.ts)
SECONDS = {"keys": 0.28, "clicks": 1.3, "drags": 2.4, "decisions": 1.35}
CJK_KEYS = 4
ALIGNED = 0.03  # of the page's width: keys starting this close are one column
ROW = 26  # the SKU list's row height in pixels (SkuList.tsx)


@dataclass
class Cost:
    keys: int = 0
    clicks: int = 0
    drags: int = 0
    decisions: int = 0
    robot_seconds: float = 0.0

    def person_seconds(self) -> float:
        return sum(getattr(self, name) * seconds for name, seconds in SECONDS.items())

    def row(self) -> dict:
        return {"keys": self.keys, "clicks": self.clicks, "drags": self.drags, "decisions": self.decisions,
                "person_seconds": round(self.person_seconds(), 1), "robot_seconds": round(self.robot_seconds, 1)}


def _wide(text: str) -> bool:
    return all(unicodedata.east_asian_width(c) in "WF" for c in text)


def keys_of(text: str) -> int:
    return sum(CJK_KEYS if _wide(c) else 1 for c in text)


def _correct(name: str, got: object, expected: object) -> bool:
    if got in (None, ""):
        return False
    return same_price(got, expected) if name == "price" else normalize(got) == normalize(expected)


def _wrong(truth: dict, attributes: dict) -> dict[str, str]:
    """The truth's values the SKU does not hold, by field."""
    return {name: truth[name] for name in FIELDS if truth.get(name) is not None
            and not _correct(name, attributes.get(name), truth[name])}


def valid(attributes: dict) -> bool:
    return bool(attributes.get("model") or attributes.get("product_name"))


@dataclass
class Plan:
    edits: dict[int, dict[str, str]] = field(default_factory=dict)  # SKU index → field → value to type
    deletions: list[int] = field(default_factory=list)
    additions: list[dict] = field(default_factory=list)  # truth SKUs to draw anew

    @property
    def size(self) -> int:
        return len(self.edits) + len(self.deletions) + len(self.additions)


def plan_fixes(truth: list[dict], skus: list[dict]) -> Plan:
    """What makes the page right, cheapest first: a SKU already holding a truth's key is corrected;
    the truths left over take the SKUs left over in page order (retyping beats drawing anew); what
    remains is deleted or drawn. SKUs with neither code nor name count for nothing and are left."""
    plan = Plan()
    waiting = list(range(len(truth)))
    free = [i for i, s in enumerate(skus) if valid(s["attributes"])]
    for exact in (True, False):
        for t in list(waiting):
            key = sku_key_attribute(truth[t])
            found = next((i for i in free if normalize(skus[i]["attributes"].get(key) or "") == normalize(truth[t][key])
                          and (not exact or not _wrong(truth[t], skus[i]["attributes"]))), None)
            if found is not None:
                free.remove(found)
                waiting.remove(t)
                if wrong := _wrong(truth[t], skus[found]["attributes"]):
                    plan.edits[found] = wrong
    for t, i in zip(list(waiting), list(free), strict=False):
        plan.edits[i] = _wrong(truth[t], skus[i]["attributes"])
        waiting.remove(t)
        free.remove(i)
    plan.deletions = free
    plan.additions = [truth[t] for t in waiting]
    return plan


def is_correct(truth_page: dict, skus: list[dict]) -> bool:
    """The page as the scorer sees it: every truth SKU read right, nothing extra."""
    predicted = {"needs_review": False, "skus": [
        {"validity": "valid" if valid(s["attributes"]) else "invalid", "attributes": s["attributes"]} for s in skus]}
    tally = score_page(truth_page, predicted)
    return tally.error_pages == 0


def _lines(words: list[dict]) -> list[list[dict]]:
    """Words in lines (middles within half a word's height), each left to right, as the table tool does."""
    heights = sorted(w["bbox"][3] - w["bbox"][1] for w in words) or [1.0]
    half = heights[len(heights) // 2] / 2
    found: list[list[dict]] = []
    for word in sorted(words, key=lambda w: w["bbox"][1] + w["bbox"][3]):
        middle = (word["bbox"][1] + word["bbox"][3]) / 2
        if found and abs(middle - (found[-1][-1]["bbox"][1] + found[-1][-1]["bbox"][3]) / 2) <= half:
            found[-1].append(word)
        else:
            found.append([word])
    return [sorted(line, key=lambda w: w["bbox"][0]) for line in found]


def _key_words(truth: list[dict], words: list[dict]) -> list[dict]:
    """Where the truth's keys are printed: runs of up to eight words of a line that read as a key
    (a letter-spaced name is several words)."""
    keys = {normalize(t[sku_key_attribute(t)]) for t in truth}
    found = []
    for line in _lines(words):
        start = 0
        while start < len(line):
            run = next((n for n in range(1, min(8, len(line) - start) + 1)
                        if normalize("".join(w["text"] for w in line[start:start + n])) in keys), 0)
            if run:
                boxes = [w["bbox"] for w in line[start:start + run]]
                found.append({"bbox": (min(b[0] for b in boxes), min(b[1] for b in boxes),
                                       max(b[2] for b in boxes), max(b[3] for b in boxes))})
            start += max(run, 1)
    return found


def _span(group: list[dict]) -> tuple[float, float]:
    return min(w["bbox"][1] for w in group), max(w["bbox"][3] for w in group)


def table_regions(truth: list[dict], words: list[dict], page_width: float) -> list[tuple[float, ...]]:
    """Where a person would draw each table: around the columns of the truth's keys, key columns side by
    side over the same rows in one table (its blocks), a table ending where the next one's keys start."""
    found = sorted(_key_words(truth, words), key=lambda w: w["bbox"][0])
    groups: list[list[dict]] = []
    for word in found:  # a key column: keys that start within a few points of the one before
        if groups and word["bbox"][0] - groups[-1][-1]["bbox"][0] <= ALIGNED * page_width:
            groups[-1].append(word)
        else:
            groups.append([word])
    groups = [g for g in groups if len(g) >= 2 or len(found) < 4]  # a key found alone elsewhere is not a column
    tables: list[list[dict]] = []
    for group in groups:
        (a0, a1), (b0, b1) = (_span(tables[-1]) if tables else (0, 0)), _span(group)
        if tables and min(a1, b1) - max(a0, b0) >= 0.5 * min(a1 - a0, b1 - b0):
            tables[-1] += group
        else:
            tables.append(list(group))
    regions = []
    for n, table in enumerate(tables):
        y0, y1 = _span(table)
        x0 = min(w["bbox"][0] for w in table) - 2
        beside = [w["bbox"][2] for w in words if w["bbox"][1] >= y0 - 2 and w["bbox"][3] <= y1 + 2
                  and w["bbox"][0] >= x0]
        x1 = (min(w["bbox"][0] for w in tables[n + 1]) - 2) if n + 1 < len(tables) else max(beside) + 2
        regions.append((x0, y0 - 2, x1, y1 + 2))
    return regions


def field_words(truth: list[dict], words: list[dict], region: tuple[float, ...]) -> dict[str, list[dict]]:
    """The region's words that print each field the truth holds for most of its SKUs (a Chinese word of a
    value counts: a letter-spaced name is one word a letter), each word for the first field it fits."""
    inside = [w for w in words if region[0] <= (w["bbox"][0] + w["bbox"][2]) / 2 <= region[2]
              and region[1] <= (w["bbox"][1] + w["bbox"][3]) / 2 <= region[3]]
    found: dict[str, list[dict]] = {}
    taken: set[int] = set()
    for name in FIELDS:
        values = [t[name] for t in truth if t.get(name) is not None]
        if len(values) < len(truth) / 2:
            continue
        found[name] = [w for w in inside if id(w) not in taken and (text := normalize(w["text"])) and any(
            _correct(name, w["text"], v) or (_wide(text) and text in normalize(v)) for v in values)]
        taken |= {id(w) for w in found[name]}
    return found


def _column(word: dict, edges: list[float]) -> int:
    x = (word["bbox"][0] + word["bbox"][2]) / 2
    return next((i for i in range(len(edges) - 1) if edges[i] <= x < edges[i + 1]), len(edges) - 2)


def _by_column(fields: dict[str, list[dict]], edges: list[float]) -> dict[int, dict[str, list[dict]]]:
    out: dict[int, dict[str, list[dict]]] = {}
    for name, found in fields.items():
        for word in found:
            out.setdefault(_column(word, edges), {}).setdefault(name, []).append(word)
    return out


def missing_cuts(fields: dict[str, list[dict]], region: tuple[float, ...], cuts: list[float]) -> list[float]:
    """Boundaries a person adds: across the region, the words of each field run in columns; between two
    runs of different fields, a boundary (unless one is there already). A word is placed by its middle
    half (the tool places it by its middle), so a long name reaching into the price column's edge does
    not join the two."""
    spans = sorted((w["bbox"][0] * 0.75 + w["bbox"][2] * 0.25, w["bbox"][0] * 0.25 + w["bbox"][2] * 0.75, name)
                   for name, found in fields.items() for w in found)
    runs: list[list] = []  # [field, x0, x1]
    for x0, x1, name in spans:
        if runs and (x0 <= runs[-1][2] or (name == runs[-1][0] and x0 <= runs[-1][2] + 1)):
            runs[-1][2] = max(runs[-1][2], x1)  # overlapping words are one run, whatever their fields
        else:
            runs.append([name, x0, x1])
    added = []
    for left, right in pairwise(runs):
        if left[0] != right[0] and not any(left[2] <= c <= right[1] for c in cuts):
            added.append((left[2] + right[1]) / 2)
    return added


def column_roles(fields: dict[str, list[dict]], region: tuple[float, ...], cuts: list[float],
                 roles: list[str]) -> dict[int, str]:
    """The role changes a person makes: a column takes the field most of its words print, if it holds a
    fair share of that field (a block printed twice holds it twice); a column the tool guessed a field
    for that holds none becomes 'other'."""
    columns = _by_column(fields, [region[0], *cuts, region[2]])
    best = {name: max((len(found.get(name, [])) for found in columns.values()), default=0) for name in fields}
    wanted = {}
    for index, found in columns.items():
        name = max(found, key=lambda n: len(found[n]))
        if len(found[name]) >= max(2, 0.3 * best[name]):
            wanted[index] = name
    changes = {i: role for i, role in wanted.items() if roles[i] != role}
    changes.update({i: "ignore" for i, role in enumerate(roles) if role in FIELDS and i not in wanted})
    return changes


class Robot:
    """Carries out plans in the workbench, counting every key, click, drag and decision."""

    def __init__(self, page, user: str, task_id: str, reading: list[dict], page_size: tuple[float, float]):
        self.page, self.user, self.task_id, self.reading, self.page_size = page, user, task_id, reading, page_size
        self.cost = Cost()
        self._started = time.perf_counter()

    async def left(self, truth: list[dict], seconds: float = 5) -> Plan:
        """What is still wrong on the page, waiting up to ``seconds`` for the workbench to settle (a
        loaded machine may render the last edit late): not a person's time, so not counted."""
        deadline = time.monotonic() + seconds
        while (plan := plan_fixes(truth, await self.state())).size and time.monotonic() < deadline:
            await self.page.wait_for_timeout(250)
        return plan

    def stop(self) -> Cost:
        self.cost.robot_seconds = time.perf_counter() - self._started
        return self.cost

    async def press(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            await self.page.keyboard.press(key)
        self.cost.keys += times

    async def type(self, text: str) -> None:
        await self.page.keyboard.insert_text(text)
        self.cost.keys += keys_of(text)

    async def click(self, locator) -> None:
        await locator.click()
        self.cost.clicks += 1

    async def drag(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        await self.page.mouse.move(*start)
        await self.page.mouse.down()
        await self.page.mouse.move(*end, steps=4)
        await self.page.mouse.up()
        self.cost.drags += 1

    async def state(self) -> list[dict]:
        """The SKUs as the workbench holds them: its draft of this task (once it stops changing: the draft
        is written after each render), else the reading as it came."""
        key, raw = f"skuflow.draft.{self.user}.{self.task_id}", None
        for _ in range(50):
            await self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 100)))")
            now = await self.page.evaluate("k => localStorage.getItem(k)", key)
            if now == raw:
                break
            raw = now
        return json.loads(raw)["skus"] if raw else self.reading

    async def select(self, index: int) -> None:
        await self.page.evaluate("([i, h]) => { document.querySelector('[data-testid=sku-list]').scrollTop ="
                                 " Math.max(0, i * h - 120); }", [index, ROW])
        row = self.page.get_by_test_id("sku-row").filter(
            has=self.page.locator(".n", has_text=re.compile(f"^{index + 1}$")))
        await self.click(row)

    async def _fill(self, values: dict[str, str]) -> None:
        """Type ``values`` into the editor's fields, the first field already focused."""
        at = 0
        for name in FIELDS:
            if name in values:
                await self.press("Tab", FIELDS.index(name) - at)
                at = FIELDS.index(name)
                await self.press("Control+a")
                await self.type(values[name])
        await self.press("Enter")

    async def fix(self, truth: list[dict]) -> Plan:
        """Make the page right SKU by SKU: correct, then delete (last first), then draw what is missing."""
        plan = plan_fixes(truth, await self.state())
        for index, values in sorted(plan.edits.items()):
            await self.select(index)
            await self.press("e")
            await self._fill(values)
        for index in sorted(plan.deletions, reverse=True):
            await self.select(index)
            await self.press("x")
        box = await self.page.get_by_test_id("page-viewport").bounding_box()  # its corner always shows the page
        for truth_sku in plan.additions:
            await self.press("n")
            await self.drag((box["x"] + 10, box["y"] + 10), (box["x"] + 60, box["y"] + 30))
            await self.page.locator("input[name=model]:focus").wait_for()
            await self._fill({k: v for k, v in truth_sku.items() if k in FIELDS and v is not None})
        self.cost.decisions += plan.size
        return plan

    async def fit_page(self) -> float:
        """Zoom out until the whole page shows (a table is drawn in one drag); the scale in pixels a point."""
        view = await self.page.get_by_test_id("page-viewport").bounding_box()
        while True:
            canvas = await self.page.get_by_test_id("page-canvas").bounding_box()
            if canvas["height"] <= view["height"] or await self.page.get_by_test_id("zoom").inner_text() == "50%":
                return canvas["width"] / self.page_size[0]
            await self.press("-")

    async def lay_tables(self, truth: list[dict], words: list[dict], shot: Path | None = None) -> int:
        """Draw each table, set the roles of its columns, make its rows SKUs; the tables laid (``shot``: a
        screenshot of the first, laid out, before its rows are made)."""
        regions = table_regions(truth, words, self.page_size[0])
        if regions:
            scale = await self.fit_page()
        for region in regions:
            canvas = await self.page.get_by_test_id("page-canvas").bounding_box()
            await self.press("t")
            await self.drag((canvas["x"] + region[0] * scale, canvas["y"] + region[1] * scale),
                            (canvas["x"] + region[2] * scale, canvas["y"] + region[3] * scale))
            tool = self.page.get_by_test_id("table-tool")
            fields = field_words(truth, words, region)
            cuts = json.loads(await tool.get_attribute("data-cuts"))
            for cut in missing_cuts(fields, region, cuts):  # a double-click adds a boundary
                await self.page.mouse.dblclick(canvas["x"] + cut * scale, canvas["y"] + (region[1] + 1) * scale)
                self.cost.clicks += 2
                self.cost.decisions += 1
            cuts = json.loads(await tool.get_attribute("data-cuts"))
            roles = [await self.page.get_by_test_id(f"column-role-{i}").input_value() for i in range(len(cuts) + 1)]
            changes = column_roles(fields, region, cuts, roles)
            for index, role in changes.items():
                await self.page.get_by_test_id(f"column-role-{index}").select_option(role)
                self.cost.clicks += 2  # open the list, choose
            self.cost.decisions += len(changes) + 1  # and the table itself
            if shot and region == regions[0]:
                await self.page.screenshot(path=shot)
            await self.press("Enter")
            await tool.wait_for(state="detached")
        return len(regions)
