"""Page sections: the empty page, sidebar filters, leaderboard, breakdown, trends, judge health.

Model outputs never reach Markdown here: they are shown in DataFrame cells or code blocks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import streamlit as st

from arena import display
from arena.app import charts, data
from arena.app.text import code, md, missing, plural
from arena.defaults import TIER_NAMES
from arena.storage import DatabaseProblem, masked_url
from arena.votes import default_voter
from judges._human import is_human_label as is_human

TIER_LABELS = {
    data.ALL: "all counted tiers",
    "critical": "critical tier",
    "standard": "standard tier",
    "pending": "pending tier (never counted)",
}
HOW_TO_READ = (
    "**How to read the ratings:** each variant's *rating* is a Bradley-Terry strength fitted on "
    "the judge's pairwise verdicts, on the Elo scale (a 100-point gap means the higher one is "
    "expected to win about 64% of battles). The *95% interval* comes from resampling golden "
    "cases; variants whose intervals overlap share a rank, and a variant with fewer than "
    f"{display.MIN_BATTLES} battles gets neither a rank nor an interval. *Pass rate* and "
    "*score* (mean golden score, 0 to 1) are absolute figures for the tier and category "
    "picked in the sidebar."
)
COMMANDS = """\
arena demo                 # run the demo variants on the critical tier (local model)
arena run --variants data/variants/baseline.yaml data/variants/small-model.yaml
arena judge                # pairwise verdicts, both orders, for the latest run
arena score                # golden scores (the app falls back to keyword scores)"""


@dataclass
class Context:
    """What the sidebar selected."""

    url: str
    run: dict[str, Any]
    dataset_runs: list[dict[str, Any]]
    tier: str = data.ALL
    category: str = data.ALL
    judge_key: str | None = None
    judge_label: str | None = None
    judges: list[tuple[str, str, int]] = field(default_factory=list)
    voter: str = ""

    @property
    def run_id(self) -> int:
        """The selected run's id."""
        return int(self.run["id"])

    @property
    def scope(self) -> str:
        """The golden selection in words, e.g. 'critical tier · edge_case'."""
        category = "all categories" if self.category == data.ALL else self.category
        return f"{TIER_LABELS.get(self.tier, self.tier)} · {category}"


def problem_text(problem: DatabaseProblem) -> str:
    """The page's Markdown sentence for a database problem (names and errors escaped)."""
    path = code(problem.path or "")
    return {
        "bad_url": f"`ARENA_DB_URL` is not a valid database URL ({md(problem.detail)}).",
        "missing": f"There is no arena database at `{path}` yet.",
        "folder": f"`{path}` is a folder, not a database file.",
        "empty": f"The database file `{path}` is empty.",
        "unreadable": f"The database could not be read ({md(problem.detail)}).",
        "no_tables": "The database holds no arena tables yet.",
    }[problem.kind]


def run_label(run: dict[str, Any]) -> str:
    """'#2 · 2026-05-01 14:02 · 4 variants' (plus the status when not finished)."""
    label = f"#{run['id']} · {run['created_at']:%Y-%m-%d %H:%M} · {len(run['variants'])} variants"
    return label if run["status"] == "finished" else f"{label} · {run['status']}"


def empty_page(problem: str, url: str) -> None:
    """The friendly page shown when there is nothing to read yet."""
    st.info(
        f"{problem} Nothing to show yet: this page only reads what the `arena` commands "
        "store, and never calls a model."
    )
    st.markdown(
        f"**Produce data** (into `{code(masked_url(url))}`: pass `--db URL` or set "
        "`ARENA_DB_URL`), then reload this page:"
    )
    st.code(COMMANDS, language="bash")
    st.button("Check again", on_click=data.clear_caches)


def sidebar(url: str, runs: list[dict[str, Any]]) -> Context:
    """Dataset, run, tier, category and judge filters."""
    bar = st.sidebar
    bar.header("Filters")
    datasets = list(dict.fromkeys(r["dataset"] for r in runs))
    dataset = bar.selectbox("Dataset", datasets, key="dataset")
    dataset_runs = [r for r in runs if r["dataset"] == dataset]
    ids = [r["id"] for r in dataset_runs]
    by_id = {r["id"]: r for r in dataset_runs}
    run_id = bar.selectbox("Run", ids, key="run", format_func=lambda i: run_label(by_id[i]))
    ctx = Context(url=url, run=by_id[run_id], dataset_runs=dataset_runs)
    scores = data.load_scores(url, ctx.run_id)
    present = set(scores["tier"]) if not scores.empty else set()
    tiers = [data.ALL, *[t for t in TIER_NAMES if t in present]]
    ctx.tier = bar.selectbox(
        "Golden tier",
        tiers,
        key="tier",
        index=tiers.index("critical") if "critical" in tiers else 0,
        format_func=lambda t: TIER_LABELS.get(t, t),
        help="Which golden cases the pass rate and mean score cover.",
    )
    categories = [data.ALL, *sorted(set(scores["category"]))] if not scores.empty else [data.ALL]
    ctx.category = bar.selectbox(
        "Category",
        categories,
        key="category",
        format_func=lambda c: "all categories" if c == data.ALL else c,
    )
    # Model judges first (the default), then each person who voted in the Vote tab.
    ctx.judges = sorted(data.load_judges(url, ctx.run_id), key=lambda j: is_human(j[1]))
    if ctx.judges:
        labels = {
            key: f"{label} · {count} {'votes' if is_human(label) else 'battles'}"
            for key, label, count in ctx.judges
        }
        ctx.judge_key = bar.selectbox(
            "Judge",
            list(labels),
            key="judge",
            format_func=lambda k: labels[k],
            help="A model judge, or a person (human:NAME) whose "
            "votes from the Vote tab are rated on their own.",
        )
        ctx.judge_label = next(label for key, label, _ in ctx.judges if key == ctx.judge_key)
    else:
        bar.caption(
            f"Judge: none yet. Run `arena judge {ctx.run_id}` for ratings, or vote in the Vote tab."
        )
    ctx.voter = voter_field(bar)
    bar.divider()
    bar.caption(f"Database: `{code(masked_url(url))}`  \nCached reads refresh every {data.TTL} s.")
    bar.button("Reload data", on_click=data.clear_caches)
    return ctx


def voter_field(bar: Any) -> str:
    """The voter's name for the Vote tab (``ARENA_USER`` fills it in); '' when unusable."""
    from arena.errors import InputError
    from judges._human import voter_name

    typed = bar.text_input(
        "Your name (for voting)",
        value=default_voter(),
        key="voter",
        max_chars=64,
        help="Your votes are stored as the judge human:NAME.",
    )
    if not typed.strip():
        return ""
    try:
        return voter_name(typed)
    except InputError as exc:
        bar.warning(md(exc))
        return ""


def run_header(ctx: Context) -> None:
    """One line saying which run, dataset and judge the page shows."""
    run = ctx.run
    judge = f"judge **{md(ctx.judge_label)}**" if ctx.judge_label else "**not judged yet**"
    st.markdown(
        f"Run **#{run['id']}** of **{md(run['dataset'])}** "
        f"v{md(run['dataset_version'])}, {run['created_at']:%Y-%m-%d %H:%M} UTC · "
        f"{plural(len(run['variants']), 'variant')} × {plural(run['cases'], 'case')} × "
        f"{plural(run['repeats'], 'repeat')} · {plural(run['results'], 'result')} "
        f"({plural(run['errors'], 'error')}) · {judge}"
    )


def leaderboard_frame(ctx: Context) -> pd.DataFrame:
    """Leaderboard entries with golden figures recomputed for the selected tier/category."""
    board = data.load_leaderboard(ctx.url, ctx.run_id, ctx.judge_key)
    entries = pd.DataFrame(board["entries"])
    numeric = [
        "rank",
        "rating",
        "ci_low",
        "ci_high",
        "elo",
        "win_rate",
        "cost_per_query",
        "tokens_per_query",
        "p90_latency_s",
        "error_rate",
    ]
    entries[numeric] = entries[numeric].apply(pd.to_numeric, errors="coerce")
    golden = data.golden_figures(ctx.url, ctx.run_id, ctx.tier, ctx.category)
    entries = entries.drop(columns=["pass_rate", "mean_score", "cases"]).merge(
        golden[["variant", "pass_rate", "mean_score", "cases"]], on="variant", how="left"
    )
    return entries


def short(text: Any, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (the full text is in the
    chart tooltips and under "advanced")."""
    value = "" if missing(text) else " ".join(str(text).split())
    return value if len(value) <= limit else value[: limit - 1].rstrip() + "…"


def leaderboard_table(ctx: Context, entries: pd.DataFrame, advanced: bool = False) -> pd.DataFrame:
    """The leaderboard: rank, variant, short description, pass rate as "5/8 (62.5%)", rating
    with its interval, tokens per query and p90 (cost too when anything costs money); the
    rest (version, Elo, win rate, battles, crashes, score, errors) when ``advanced``. Every
    figure is formatted by :mod:`arena.display`, as in the CLI. Returns the table shown."""
    battles = [int(b) for b in entries["battles"].fillna(0)]
    cases = [None if missing(n) else int(n) for n in entries["cases"]]
    table = pd.DataFrame(
        {
            "Rank": [
                display.rank_text(None if missing(r) else int(r), b)
                for r, b in zip(entries["rank"], battles, strict=True)
            ],
            "Variant": entries["variant"],
            "Description": [short(d) for d in entries["description"]],
            "Pass rate": [
                display.rate_of(r, n) for r, n in zip(entries["pass_rate"], cases, strict=True)
            ],
            "Rating (95% CI)": [
                display.rating_with_interval(r, lo, hi, b)
                for r, lo, hi, b in zip(
                    entries["rating"], entries["ci_low"], entries["ci_high"], battles, strict=True
                )
            ],
            "Tokens / query": [display.tokens(v) for v in entries["tokens_per_query"]],
            "p90": [display.seconds(v) for v in entries["p90_latency_s"]],
        }
    )
    costs = entries["cost_per_query"].fillna(0)
    if advanced or bool((costs > 0).any()):
        table["Cost / query"] = [display.dollars(v) for v in entries["cost_per_query"]]
    if advanced:
        table["Version"] = entries["version"]
        table["Elo"] = [display.rating(v) for v in entries["elo"]]
        table["Win rate"] = [display.percent(v) for v in entries["win_rate"]]
        table["Battles"] = battles
        table["Crashed"] = entries["crashes"].fillna(0).astype(int)
        table["Score"] = [display.score(v) for v in entries["mean_score"]]
        table["Errors"] = [display.percent(v) for v in entries["error_rate"]]
        table["Description"] = [short(d, 400) for d in entries["description"]]
    simulated = entries.get("simulator_errors")
    if simulated is not None and simulated.fillna(0).sum() > 0:
        table["Simulator errors"] = simulated.fillna(0).astype(int)
    cfg = st.column_config
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        column_config={
            "Rank": cfg.TextColumn(
                width="small",
                help="CI-aware: 1 + variants certainly better; variants whose intervals "
                f"overlap share a rank; none below {display.MIN_BATTLES} battles",
            ),
            "Variant": cfg.TextColumn(width="medium"),
            "Description": cfg.TextColumn(width="large" if advanced else "medium"),
            "Pass rate": cfg.TextColumn(help=f"Golden cases passed ({ctx.scope})"),
            "Rating (95% CI)": cfg.TextColumn(
                help="Bradley-Terry rating (Elo scale) with its 95% interval, bootstrap over "
                f"golden cases; no interval below {display.MIN_BATTLES} battles"
            ),
            "Tokens / query": cfg.TextColumn(help="Mean input plus output tokens of one answer"),
            "p90": cfg.TextColumn(help="90th percentile latency"),
            "Cost / query": cfg.TextColumn(help="Mean cost of one answer in US dollars"),
            "Version": cfg.TextColumn(help="Hash of the variant's full configuration"),
            "Elo": cfg.TextColumn(help="Online Elo, for reference"),
            "Win rate": cfg.TextColumn(help="Battles won against every opponent; ties count half"),
            "Crashed": cfg.NumberColumn(
                format="%d", help="Battles its answer crashed in: lost (tied if both crashed)"
            ),
            "Score": cfg.TextColumn(help=f"Mean golden score, 0 to 1 ({ctx.scope})"),
            "Errors": cfg.TextColumn(help="Results that ended in an error"),
            "Simulator errors": cfg.NumberColumn(
                format="%d", help="Results whose simulated user failed (not agent failures)"
            ),
        },
    )
    screen_reader_table(table)
    st.caption(
        f"Pass rate covers **{md(ctx.scope)}** (change it in the sidebar); tokens, latency "
        "and cost cover every result of the run."
        + (
            " Simulator errors (the simulated user failed) are not agent failures: they "
            "are left out of the pass rate, the score and the errors."
            if "Simulator errors" in table
            else ""
        )
    )
    return table


def screen_reader_table(table: pd.DataFrame) -> None:
    """The same table as plain HTML, every column in the page, for screen readers (the grid
    above draws on a canvas and exposes only the columns scrolled into view)."""
    with st.expander("The table as text (for screen readers)"):
        st.table(table.astype(str))


def board_notes(board: dict[str, Any]) -> None:
    """The leaderboard in words, as ``arena ratings`` prints it: the best variant, shared
    ranks, unranked variants (info), descriptions the measurements contradict (warning)."""
    from arena.leaderboard import VariantStanding
    from arena.leaderboard import board_notes as notes_of

    entries = [VariantStanding.model_validate(e) for e in board["entries"]]
    notes = notes_of(entries)
    plain = [n for n in notes if not n.startswith("warning: ")]
    if plain:
        st.markdown("\n".join(f"- {md(n)}" for n in plain))
    for warning in (n.removeprefix("warning: ") for n in notes if n.startswith("warning: ")):
        st.warning(f"Description check: {md(warning)}.")


def leaderboard_section(ctx: Context) -> None:
    """The decision card, then the table and what it says, then the charts."""
    from arena.app.answers_view import answers_card

    answers_card(ctx.url, ctx.run_id, ctx.judge_key)
    board = data.load_leaderboard(ctx.url, ctx.run_id, ctx.judge_key)
    entries = leaderboard_frame(ctx)
    variants = list(entries["variant"])
    rated = entries["rating"].notna().any()
    if not rated:
        st.info(
            f"Run #{ctx.run_id} has not been judged yet, so there are no ratings: produce "
            f"pairwise verdicts with `arena judge {ctx.run_id}` (golden figures are shown "
            "meanwhile)."
        )
    advanced = st.toggle(
        "Advanced columns",
        key="board_advanced",
        help="Version, Elo, win rate, battles, crashes, score, cost and errors",
    )
    leaderboard_table(ctx, entries, advanced)
    board_notes(board)
    st.caption(HOW_TO_READ)
    left, right = st.columns(2, gap="large")
    with left:
        if rated:
            st.altair_chart(charts.forest_plot(entries, variants), width="stretch")
        else:
            st.caption("The forest plot of ratings appears once the run is judged.")
    with right:
        options = ["Rating", "Golden pass rate"] if rated else ["Golden pass rate"]
        axis = st.radio("Quality axis", options, horizontal=True, key="quality_axis")
        frame = entries.rename(columns={"cost_per_query": "cost"})
        if axis == "Rating":
            chart = charts.cost_quality(frame, variants, "rating", "Rating", ",.0f")
        else:
            chart = charts.cost_quality(
                frame, variants, "pass_rate", f"Pass rate ({ctx.scope})", ".0%"
            )
        st.altair_chart(chart, width="stretch")
        if charts.spend_axis(frame)[0] != "cost":
            st.caption(
                "Every cost is $0 (local models): the chart places the variants by tokens "
                "per query instead, so it has no cost axis."
            )


def breakdown_section(ctx: Context) -> None:
    """Pairwise win-rate heatmap and pass rate per category (under the leaderboard)."""
    board = data.load_leaderboard(ctx.url, ctx.run_id, ctx.judge_key)
    variants = [e["variant"] for e in board["entries"]]
    left, right = st.columns(2, gap="large")
    with left:
        if board["models"]:
            st.altair_chart(
                charts.win_rate_heatmap(
                    board["models"], board["win_rate_matrix"], board["battle_counts"]
                )
            )
        else:
            st.info(f"No judged battles yet: run `arena judge {ctx.run_id}`.")
    with right:
        per_category = data.category_pass_rates(ctx.url, ctx.run_id, ctx.tier, ctx.category)
        if per_category.empty:
            st.info(f"No scored golden cases in {ctx.scope}.")
        else:
            st.altair_chart(charts.category_grid(per_category, variants))
            st.caption(
                f"Golden cases: {md(ctx.scope)}. Categories without a case in the "
                "selection are left out."
            )
