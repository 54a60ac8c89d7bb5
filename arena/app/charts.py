"""Altair charts of the leaderboard: forest plot, win-rate heatmap, categories, cost, trends.

Every chart takes plain DataFrames and the ordered list of variant names; a variant's colour
comes from its name (:func:`arena.app.palette.variant_colors`, colour-blind safe), so it keeps
it in every chart whatever the judge or the ranking. Values are printed on the marks (labels
formatted by :mod:`arena.display`, as everywhere else), so no chart is read by colour alone.
"""

from __future__ import annotations

from typing import Any, Final

import altair as alt
import pandas as pd

from arena import display
from arena.app.palette import TEXT, variant_colors

HEAT_SCHEME: Final = "blueorange"
"""Diverging and colour-blind safe (no red against green)."""
PASS_SCHEME: Final = "viridis"
LABEL_LIMIT: Final = 220


def _color(variants: list[str], legend: bool = False) -> alt.Color:
    colors = variant_colors(variants)
    return alt.Color(
        "variant:N",
        scale=alt.Scale(domain=variants, range=[colors[v] for v in variants]),
        legend=alt.Legend(title="Variant", orient="right", labelLimit=160) if legend else None,
    )


def _title(text: str) -> alt.TitleParams:
    """A chart title that is never cut off (no length limit, wraps nothing)."""
    return alt.TitleParams(text, anchor="start", limit=0, color=TEXT, fontSize=14)


def forest_plot(entries: pd.DataFrame, variants: list[str]) -> alt.LayerChart:
    """Each variant's rating (dot) with its 95% interval (bar), best at the top."""
    data = entries.dropna(subset=["rating"]).copy()
    data["label"] = [display.rating(v) for v in data["rating"]]
    base = alt.Chart(data).encode(
        y=alt.Y("variant:N", sort=variants, title=None, axis=alt.Axis(labelLimit=220)),
        color=_color(variants),
    )
    tooltip = [
        alt.Tooltip("variant:N", title="Variant"),
        alt.Tooltip("rating:Q", title="Rating", format=".0f"),
        alt.Tooltip("ci_low:Q", title="95% low", format=".0f"),
        alt.Tooltip("ci_high:Q", title="95% high", format=".0f"),
        alt.Tooltip("battles:Q", title="Battles"),
        alt.Tooltip("description:N", title="Description"),
    ]
    bars = base.mark_rule(strokeWidth=4, opacity=0.6).encode(
        x=alt.X(
            "ci_low:Q",
            scale=alt.Scale(zero=False, nice=True),
            title="Bradley-Terry rating, 95% interval",
        ),
        x2="ci_high:Q",
        tooltip=tooltip,
    )
    dots = base.mark_point(filled=True, size=140, opacity=1).encode(x="rating:Q", tooltip=tooltip)
    labels = base.mark_text(dy=-13, fontSize=12, fontWeight="bold", color=TEXT).encode(
        x="rating:Q", text="label:N"
    )
    return (bars + dots + labels).properties(
        height=alt.Step(46), title=_title("Ratings with 95% intervals")
    )


def win_rate_heatmap(
    models: list[str], matrix: list[list[float | None]], counts: list[list[int]]
) -> alt.LayerChart:
    """Share of battles the row variant won against the column variant (ties count half)."""
    rows = [
        {
            "variant": a,
            "opponent": b,
            "win_rate": matrix[i][j],
            "battles": counts[i][j],
            "label": display.percent(matrix[i][j]),
        }
        for i, a in enumerate(models)
        for j, b in enumerate(models)
        if i != j and matrix[i][j] is not None
    ]
    data = pd.DataFrame(rows, columns=["variant", "opponent", "win_rate", "battles", "label"])
    base = alt.Chart(data).encode(
        y=alt.Y("variant:N", sort=models, title="Variant (row) ...", axis=alt.Axis(labelLimit=220)),
        x=alt.X(
            "opponent:N",
            sort=models,
            title="... against opponent (column)",
            axis=alt.Axis(labelAngle=-35, labelLimit=220, labelOverlap=False),
        ),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.Color(
            "win_rate:Q",
            title="Win rate",
            scale=alt.Scale(scheme=HEAT_SCHEME, domain=[0, 1], domainMid=0.5),
            legend=alt.Legend(format=".0%"),
        ),
        tooltip=[
            alt.Tooltip("variant:N", title="Variant"),
            alt.Tooltip("opponent:N", title="Opponent"),
            alt.Tooltip("label:N", title="Win rate"),
            alt.Tooltip("battles:Q", title="Battles"),
        ],
    )
    text = base.mark_text(fontSize=13).encode(
        text="label:N",
        color=alt.condition(
            "abs(datum.win_rate - 0.5) > 0.3", alt.value("white"), alt.value("black")
        ),
    )
    return (cells + text).properties(
        width=alt.Step(84),
        height=alt.Step(46),
        title=_title("Pairwise win rate (row beats column)"),
    )


def category_grid(data: pd.DataFrame, variants: list[str]) -> alt.LayerChart:
    """Golden pass rate per variant (row) and category (column), labelled in every cell."""
    categories = sorted(data["category"].unique())
    data = data.assign(
        label=[display.rate_of(r, n) for r, n in zip(data["pass_rate"], data["cases"], strict=True)]
    )
    base = alt.Chart(data).encode(
        y=alt.Y("variant:N", sort=variants, title=None, axis=alt.Axis(labelLimit=220)),
        x=alt.X(
            "category:N",
            sort=categories,
            title=None,
            axis=alt.Axis(labelAngle=-35, labelLimit=220, labelOverlap=False),
        ),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.Color(
            "pass_rate:Q",
            title="Pass rate",
            scale=alt.Scale(scheme=PASS_SCHEME, domain=[0, 1]),
            legend=alt.Legend(format=".0%"),
        ),
        tooltip=[
            alt.Tooltip("variant:N", title="Variant"),
            alt.Tooltip("category:N", title="Category"),
            alt.Tooltip("label:N", title="Passed"),
        ],
    )
    text = base.mark_text(fontSize=12).encode(
        text="label:N",
        color=alt.condition("datum.pass_rate < 0.6", alt.value("white"), alt.value("black")),
    )
    return (cells + text).properties(
        width=alt.Step(110), height=alt.Step(46), title=_title("Golden pass rate per category")
    )


def spend_axis(data: pd.DataFrame) -> tuple[str, str, str]:
    """(column, axis title, what) of the spend axis: cost per query, or tokens per query
    when every cost is $0 (local models), so the chart still separates the variants."""
    costs = pd.to_numeric(data.get("cost", pd.Series(dtype=float)), errors="coerce")
    if bool((costs.fillna(0) > 0).any()):
        return "cost", "Cost per query (USD, lower is better)", "Cost"
    return "tokens_per_query", "Tokens per query (lower is better; every cost is $0)", "Tokens"


def cost_quality(
    data: pd.DataFrame, variants: list[str], quality: str, quality_title: str, quality_format: str
) -> alt.LayerChart:
    """Spend per query against quality: up and to the left is better and cheaper. Spend is
    the cost, or the tokens when every cost is $0 (no cost axis then)."""
    spend, spend_title, what = spend_axis(data)
    data = data.dropna(subset=[spend, quality]).copy()
    positive = bool(len(data)) and bool((data[spend] > 0).all())
    money = spend == "cost"
    data["spend_text"] = [display.dollars(v) if money else display.tokens(v) for v in data[spend]]
    data["quality_text"] = [
        display.percent(v) if quality_format.endswith("%") else display.rating(v)
        for v in data[quality]
    ]
    scale = alt.Scale(type="log") if positive and money else alt.Scale(zero=True, nice=True)
    axis = (
        alt.Axis(format="$.2~g" if positive else "$.4f", grid=not positive, tickCount=5)
        if money
        else alt.Axis(format=",d", tickMinStep=1)
    )
    base = alt.Chart(data).encode(
        x=alt.X(f"{spend}:Q", scale=scale, title=spend_title, axis=axis),
        y=alt.Y(
            f"{quality}:Q",
            scale=alt.Scale(zero=False, nice=True),
            title=f"{quality_title} (higher is better)",
            axis=alt.Axis(format=quality_format, titleLimit=0),
        ),
        color=_color(variants),
    )
    points = base.mark_point(filled=True, size=160).encode(
        tooltip=[
            alt.Tooltip("variant:N", title="Variant"),
            alt.Tooltip("spend_text:N", title=f"{what} per query"),
            alt.Tooltip("quality_text:N", title=quality_title),
            alt.Tooltip("description:N", title="Description"),
        ]
    )
    labels = base.mark_text(align="left", dx=10, dy=-8, fontSize=12, color=TEXT).encode(
        text="variant:N"
    )
    return (points + labels).properties(
        height=340, title=_title(f"{what} against {quality_title.lower()}")
    )


def trend_chart(
    data: pd.DataFrame, variants: list[str], value: str, title: str, value_format: str
) -> alt.Chart:
    """One line per variant name over successive runs of the same dataset."""
    order = list(dict.fromkeys(data.sort_values("run_id")["run"]))
    tooltip: list[Any] = [
        alt.Tooltip("variant:N", title="Variant"),
        alt.Tooltip("run:N", title="Run"),
        alt.Tooltip("version:N", title="Version"),
        alt.Tooltip(f"{value}:Q", title=title, format=value_format),
    ]
    return (
        alt.Chart(data.dropna(subset=[value]))
        .mark_line(point=alt.OverlayMarkDef(size=80))
        .encode(
            x=alt.X("run:N", sort=order, title="Run", axis=alt.Axis(labelAngle=0)),
            y=alt.Y(
                f"{value}:Q",
                title=title,
                scale=alt.Scale(zero=False, nice=True),
                axis=alt.Axis(format=value_format),
            ),
            color=_color(variants, legend=True),
            tooltip=tooltip,
        )
        .properties(height=320, title=_title(f"{title} over runs"))
    )


def shadow_trend(data: pd.DataFrame) -> alt.LayerChart:
    """The candidate's win rate against production per shadow run, with its 95% interval,
    over a dashed line at one half (as good as production)."""
    order = list(data.sort_values("run_id")["run"])
    x = alt.X("run:N", sort=order, title="Shadow run", axis=alt.Axis(labelAngle=0))
    tooltip: list[Any] = [
        alt.Tooltip("run:N", title="Run"),
        alt.Tooltip("win_rate:Q", title="Win rate", format=".0%"),
        alt.Tooltip("ci_low:Q", title="95% low", format=".0%"),
        alt.Tooltip("ci_high:Q", title="95% high", format=".0%"),
        alt.Tooltip("battles:Q", title="Battles"),
    ]
    base = alt.Chart(data.dropna(subset=["win_rate"]))
    y = alt.Y("win_rate:Q", title="Win rate vs production", scale=alt.Scale(domain=[0, 1]),
              axis=alt.Axis(format=".0%"))  # fmt: skip
    band = base.mark_rule(strokeWidth=2).encode(x=x, y=alt.Y("ci_low:Q"), y2="ci_high:Q")
    points = base.mark_line(point=alt.OverlayMarkDef(size=80)).encode(x=x, y=y, tooltip=tooltip)
    even = alt.Chart(pd.DataFrame({"even": [0.5]})).mark_rule(strokeDash=[4, 4]).encode(y="even:Q")
    return (band + points + even).properties(
        height=320, title="Candidate win rate against production over shadow runs"
    )
