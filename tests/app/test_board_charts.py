"""Charts that inform and read accessibly: tokens when every cost is $0, whole-case axes,
colours fixed per variant name from a colour-blind-safe palette, values printed with the
shared number formats, AA text contrast."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from arena.app import charts
from arena.app.palette import AA, MUTED_TEXT, OKABE_ITO, TEXT, contrast, variant_colors
from arena.app.sequence_view import sequence_chart

pytestmark = pytest.mark.unit

VARIANTS = ["prompt-v2", "baseline", "small-model"]


def _frame(costs: list[float]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "variant": VARIANTS,
            "cost": costs,
            "tokens_per_query": [50.0, 27.0, 38.0],
            "rating": [1100.0, 1000.0, 900.0],
            "pass_rate": [0.625, 1.0, 0.5],
            "description": ["", "", ""],
        }
    )


def _spec(chart: object) -> str:
    return json.dumps(chart.to_dict())  # type: ignore[attr-defined]


def test_an_all_zero_cost_run_charts_tokens_and_has_no_cost_axis() -> None:
    free = _spec(charts.cost_quality(_frame([0.0, 0.0, 0.0]), VARIANTS, "rating", "Rating", ",.0f"))
    assert "Cost per query" not in free and '"field": "cost"' not in free
    assert "Tokens per query (lower is better; every cost is $0)" in free
    assert "Tokens against rating" in free
    paid = _spec(
        charts.cost_quality(_frame([0.001, 0.002, 0.0]), VARIANTS, "pass_rate", "Pass", ".0%")
    )
    assert "Cost per query (USD, lower is better)" in paid and '"field": "cost"' in paid
    assert "62.5%" in paid  # the point's label text, formatted as everywhere else


def test_the_case_axis_counts_whole_cases() -> None:
    points = [
        {"n": n, "mean": 0.5, "lower": 0.1, "upper": 0.9, "case_id": f"C{n}", "outcome": 1.0}
        for n in range(1, 4)
    ]
    spec = sequence_chart(points).to_dict()
    axis = spec["layer"][0]["encoding"]["x"]["axis"]
    assert axis["values"] == [0, 1, 2, 3] and axis["format"] == "d"


def test_colours_follow_the_name_never_the_rank() -> None:
    one = variant_colors(["prompt-v2", "baseline", "small-model"])
    other = variant_colors(["small-model", "baseline", "prompt-v2"])  # another judge's order
    assert one == other and len(set(one.values())) == 3
    assert set(one.values()) <= set(OKABE_ITO)
    forest = charts.forest_plot(
        _frame([0.0] * 3).assign(
            ci_low=[1000.0, 900, 800], ci_high=[1200.0, 1100, 1000], battles=[18] * 3
        ),
        ["small-model", "baseline", "prompt-v2"],
    ).to_dict()
    scale = forest["layer"][0]["encoding"]["color"]["scale"]
    assert dict(zip(scale["domain"], scale["range"], strict=True)) == one


def test_the_heatmap_prints_shared_percentages_on_a_colour_blind_safe_scale() -> None:
    chart = charts.win_rate_heatmap(["a", "b"], [[None, 0.625], [0.375, None]], [[0, 8], [8, 0]])
    spec = _spec(chart)
    assert '"62.5%"' in spec and '"37.5%"' in spec  # 62.5 + 37.5 = 100, never 63 + 38
    assert "redblue" not in spec and "redyellowgreen" not in spec and "blueorange" in spec


def test_text_colours_pass_aa_and_the_check_tells_them_apart() -> None:
    assert contrast(TEXT) >= AA and contrast(MUTED_TEXT) >= AA
    assert contrast("#FFA421") < AA  # the orange label the issue measured at 2.55:1
    assert round(contrast("#000000"), 1) == 21.0


def test_a_winner_from_a_near_tie_is_marked_and_explained_in_compare() -> None:
    from types import SimpleNamespace

    from arena.app.compare_view import _orders, near_tie

    battle = SimpleNamespace(
        winner="model_b",
        variant_a="baseline",
        variant_b="prompt-v2",
        ab_label="A=B",
        ba_label="A=B",
        ab_error="",
        ba_error="",
        ab_rationale="close",
        ba_rationale="close",
        p_a=0.484,
        tie_margin=0.01,
        suspected_injection="",
    )
    winner = _orders(battle, "baseline", "prompt-v2")[0]
    assert winner == "prompt-v2 (near tie)"
    assert "P(A better) = 0.484 is 0.016 from one half" in near_tie(battle)
    clear = SimpleNamespace(**{**vars(battle), "ab_label": "B>A", "ba_label": "A>B"})
    assert near_tie(clear) == "" and _orders(clear, "baseline", "prompt-v2")[0] == "prompt-v2"
