"""Altair charts of the leaderboard: forest plot, win-rate heatmap, categories, cost, trends.

Every chart takes plain DataFrames and the ordered list of variant names, so a variant keeps
the same colour in every chart.
"""

from __future__ import annotations

from typing import Any, Final

import altair as alt
import pandas as pd

SCHEME: Final = "tableau10"


def _color(variants: list[str], legend: bool = False) -> alt.Color:
    return alt.Color(
        "variant:N",
        scale=alt.Scale(domain=variants, scheme=SCHEME),
        legend=alt.Legend(title="Variant", orient="right", labelLimit=160) if legend else None,
    )


def forest_plot(entries: pd.DataFrame, variants: list[str]) -> alt.LayerChart:
    """Each variant's rating (dot) with its 95% interval (bar), best at the top."""
    data = entries.dropna(subset=["rating"])
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
    labels = base.mark_text(dy=-13, fontSize=12, fontWeight="bold").encode(
        x="rating:Q", text=alt.Text("rating:Q", format=".0f")
    )
    return (bars + dots + labels).properties(
        height=alt.Step(46), title="Ratings with 95% intervals"
    )


def win_rate_heatmap(
    models: list[str], matrix: list[list[float | None]], counts: list[list[int]]
) -> alt.LayerChart:
    """Share of battles the row variant won against the column variant (ties count half)."""
    rows = [
        {"variant": a, "opponent": b, "win_rate": matrix[i][j], "battles": counts[i][j]}
        for i, a in enumerate(models)
        for j, b in enumerate(models)
        if i != j and matrix[i][j] is not None
    ]
    data = pd.DataFrame(rows, columns=["variant", "opponent", "win_rate", "battles"])
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
            scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5),
            legend=alt.Legend(format=".0%"),
        ),
        tooltip=[
            alt.Tooltip("variant:N", title="Variant"),
            alt.Tooltip("opponent:N", title="Opponent"),
            alt.Tooltip("win_rate:Q", title="Win rate", format=".0%"),
            alt.Tooltip("battles:Q", title="Battles"),
        ],
    )
    text = base.mark_text(fontSize=13).encode(
        text=alt.Text("win_rate:Q", format=".0%"),
        color=alt.condition(
            "abs(datum.win_rate - 0.5) > 0.3", alt.value("white"), alt.value("black")
        ),
    )
    return (cells + text).properties(
        width=alt.Step(84), height=alt.Step(46), title="Pairwise win rate (row beats column)"
    )


def category_grid(data: pd.DataFrame, variants: list[str]) -> alt.LayerChart:
    """Golden pass rate per variant (row) and category (column), labelled in every cell."""
    categories = sorted(data["category"].unique())
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
            scale=alt.Scale(scheme="redyellowgreen", domain=[0, 1]),
            legend=alt.Legend(format=".0%"),
        ),
        tooltip=[
            alt.Tooltip("variant:N", title="Variant"),
            alt.Tooltip("category:N", title="Category"),
            alt.Tooltip("pass_rate:Q", title="Pass rate", format=".0%"),
            alt.Tooltip("cases:Q", title="Cases"),
        ],
    )
    text = base.mark_text(fontSize=13).encode(
        text=alt.Text("pass_rate:Q", format=".0%"),
        color=alt.condition(
            "datum.pass_rate < 0.2 || datum.pass_rate > 0.85",
            alt.value("white"),
            alt.value("black"),
        ),
    )
    return (cells + text).properties(
        width=alt.Step(96), height=alt.Step(46), title="Golden pass rate per category"
    )


def cost_quality(
    data: pd.DataFrame, variants: list[str], quality: str, quality_title: str, quality_format: str
) -> alt.LayerChart:
    """Cost per query against quality: up and to the left is better and cheaper."""
    data = data.dropna(subset=["cost", quality])
    positive = bool(len(data)) and bool((data["cost"] > 0).all())
    scale = alt.Scale(type="log") if positive else alt.Scale(zero=True)
    base = alt.Chart(data).encode(
        x=alt.X(
            "cost:Q",
            scale=scale,
            title="Cost per query (USD, lower is better)",
            axis=alt.Axis(format="$.2~g" if positive else "$.4f", grid=not positive, tickCount=5),
        ),
        y=alt.Y(
            f"{quality}:Q",
            scale=alt.Scale(zero=False, nice=True),
            title=f"{quality_title} (higher is better)",
            axis=alt.Axis(format=quality_format),
        ),
        color=_color(variants),
    )
    points = base.mark_point(filled=True, size=160).encode(
        tooltip=[
            alt.Tooltip("variant:N", title="Variant"),
            alt.Tooltip("cost:Q", title="Cost per query", format="$.6f"),
            alt.Tooltip(f"{quality}:Q", title=quality_title, format=quality_format),
            alt.Tooltip("description:N", title="Description"),
        ]
    )
    labels = base.mark_text(align="left", dx=10, fontSize=12).encode(text="variant:N")
    return (points + labels).properties(height=340, title=f"Cost against {quality_title.lower()}")


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
        .properties(height=320, title=f"{title} over runs")
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
