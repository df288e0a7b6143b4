"""§ 196-15 classifications: the vectorised engine agrees with a plain reading, sample by sample.

The oracle below reads the two definitions one result at a time with :class:`Decimal`, from the
numbers of the law and of the documented defaults (docs/interpretations.md): BOD and SS "in excess
of 10", oil and grease not detected at a reporting limit of 5 mg/l or less, the unpolluted-water
maxima, pH 6.5–8.5 and the NYS drinking-water levels. Hypothesis draws whole files of several
samples with values at and around every boundary, non-detects and declared sources.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.case_kinds.result import evaluate

D = Decimal
# spelling, unit, (minimum, maximum) for unpolluted water, required there
UNPOLLUTED = {
    "TDS": ("mg/l", None, D(10000), True),
    "chloride": ("mg/l", None, D(2500), True),
    "TSS": ("mg/l", None, D(10), True),
    "BOD": ("mg/l", None, D(10), True),
    "color": ("PCU", None, D(50), True),
    "pH": ("SU", D("6.5"), D("8.5"), True),
    "phenols": ("mg/l", None, D("0.001"), True),
    "cyanide": ("mg/l", None, D("0.2"), False),
    "chromium": ("mg/l", None, D("0.1"), False),
    "copper": ("mg/l", None, D("1.3"), False),
    "zinc": ("mg/l", None, D(5), False),
    "lead": ("mg/l", None, D("0.015"), False),
    "nickel": ("mg/l", None, None, False),
}
OIL_RL = D(5)
PARAMETERS = [*UNPOLLUTED, "O&G", "iron"]
COOLING_WORDS = {"cooling_system", "Air Conditioning", "refrigeration"}


def _values(parameter: str) -> st.SearchStrategy[str]:
    """Mostly values that meet the criterion (at the boundary, just below, non-detects at a
    meaningful reporting limit), so that whole samples often meet a definition; otherwise just
    beyond it, or a non-detect at a reporting limit that shows nothing."""
    if parameter == "pH":
        return st.sampled_from(["6.5", "8.5", "7"] * 6 + ["6.499", "8.501", "5"])
    if parameter == "nickel":  # no drinking-water level: only a non-detect is judged
        return st.sampled_from(["<0.01"] * 6 + ["0.01"])
    if parameter == "O&G":
        return st.sampled_from(["<5", "<4.999"] * 8 + ["<5.001", "0.5", "<10"])
    hi = UNPOLLUTED.get(parameter, ("", None, D(10), False))[2] or D("0.01")
    small = D("0.001") if hi < 1 else D(1)
    good = [str(hi), str(hi - small / 10), "0", f"<{hi}"]
    bad = [str(hi + small / 10), f"<{hi + small / 10}"]
    if parameter in ("BOD", "TSS"):  # the cooling-water limit is 10 for both
        good, bad = [*good, "10", "<10"], [*bad, "10.001"]
    return st.sampled_from(good * 12 + bad)


@st.composite
def sample(draw: st.DrawFn, name: str) -> list[dict[str, str]]:
    source = draw(st.sampled_from(["", *sorted(COOLING_WORDS), "cooling_system", "process"]))
    rows = []
    for parameter in PARAMETERS:
        spec = UNPOLLUTED.get(parameter)
        required = parameter in ("BOD", "TSS", "O&G") or (spec is not None and spec[3])
        if draw(st.integers(0, 19)) >= (19 if required else 8):
            continue
        for _ in range(draw(st.integers(1, 2))):
            mixed = draw(st.integers(0, 19)) == 0
            rows.append(
                {
                    "sample_id": name,
                    "parameter": parameter,
                    "value": draw(_values(parameter)),
                    "unit": UNPOLLUTED.get(parameter, ("mg/l",))[0],
                    "sample_type": "composite",
                    "source": "process" if mixed else source,
                }
            )
    return rows


def _judge(value: Decimal, nd: bool, lo: Decimal | None, hi: Decimal | None, req: bool) -> int:
    if lo is None and hi is None:
        return 0 if (not nd or req) else 1
    if not nd:
        ok = (lo is None or value >= lo) and (hi is None or value <= hi)
        return 1 if ok else -1
    return 1 if lo is None and hi is not None and value <= hi else 0


def _decide(verdicts: dict[str, list[int]], required: set[str]) -> bool | None:
    flat = [v for vs in verdicts.values() for v in vs]
    if -1 in flat:
        return False
    if 0 in flat or not required <= {k for k, vs in verdicts.items() if vs}:
        return None
    return True


def oracle(rows: list[dict[str, str]]) -> tuple[bool | None, bool | None]:
    cw: dict[str, list[int]] = {"source": [], "BOD": [], "TSS": [], "O&G": []}
    uw: dict[str, list[int]] = {k: [] for k in [*UNPOLLUTED, "O&G"]}
    for r in rows:
        p, text = r["parameter"], r["value"]
        nd, value = text.startswith("<"), D(text.lstrip("<"))
        if r["source"]:
            words = r["source"].strip().lower().replace(" ", "_")
            cw["source"].append(
                1 if words in {"cooling_system", "air_conditioning", "refrigeration"} else -1
            )
        if p in ("BOD", "TSS"):
            cw[p].append(_judge(value, nd, None, D(10), True))
        if p == "O&G":
            oil = -1 if not nd else (1 if value <= OIL_RL else 0)
            cw[p].append(oil)
            uw[p].append(oil)
        if p in UNPOLLUTED:
            _, lo, hi, req = UNPOLLUTED[p]
            uw[p].append(_judge(value, nd, lo, hi, req))
    required_uw = {k for k, spec in UNPOLLUTED.items() if spec[3]} | {"O&G"}
    return _decide(cw, set(cw)), _decide(uw, required_uw)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_classification_agrees_with_a_plain_reading(data: st.DataObject) -> None:
    n_samples = data.draw(st.integers(min_value=1, max_value=4))
    rows: list[dict[str, str]] = []
    for s in range(n_samples):
        rows += data.draw(sample(f"S{s}")) or [
            {
                "sample_id": f"S{s}",
                "parameter": "iron",
                "value": "1",
                "unit": "mg/l",
                "sample_type": "composite",
                "source": "",
            }
        ]
    order = data.draw(st.permutations(range(len(rows))))
    rows = [rows[i] for i in order]
    ev = evaluate({"date": "2026-03-02"}, rows)
    assert ev.errors.height == 0, ev.errors.to_dicts()
    first_seen = list(dict.fromkeys(r["sample_id"] for r in rows))
    got = {s: (cw, uw) for s, cw, uw in ev.samples.iter_rows()}
    assert list(got) == first_seen
    for s in first_seen:
        expected = oracle([r for r in rows if r["sample_id"] == s])
        assert got[s] == expected, (s, [r for r in rows if r["sample_id"] == s])
        for definition, answer in zip(("cooling", "unpolluted"), expected, strict=True):
            event(f"{definition}: {answer}")
