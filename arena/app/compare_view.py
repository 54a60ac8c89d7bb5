"""The compare view: verdict of candidate against baseline, per-case table, trajectories.

Outputs, rationales, tool arguments and observations come from models: they are shown in
DataFrame cells and code blocks only, so HTML or scripts in them are displayed, never run.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from arena import display
from arena.app import data
from arena.app.dialogue_view import load_dialogue, render_dialogue
from arena.app.graph_view import graph_path
from arena.app.state_view import end_state
from arena.app.text import VERDICT_STYLE, md, missing
from arena.app.views import Context
from arena.vocabulary import TIE, label_words, winner_words

FORMATS: dict[str, Callable[[Any], str]] = {
    "pct": display.percent,
    "usd": display.dollars,
    "num": display.score,
    "sec": display.seconds,
    "tok": display.tokens,
}
"""How the verdict box shows each kind of figure (the CLI's formats)."""
CHANGES = {"improved": "⬆ improved", "regressed": "⬇ regressed", "same": "= same"}
"""A case's golden change from baseline to candidate, in a symbol and a word."""
FILTER_NOTE = (
    "The verdict covers every counted golden case of the run (the sidebar's tier and "
    "category do not apply to it, as in `arena compare`); the per-case table below follows "
    "the sidebar's tier and category ({scope})."
)


def _defaults(names: list[str], ranked: list[str]) -> tuple[int, int]:
    base = names.index("baseline") if "baseline" in names else len(names) - 1
    best = next((v for v in ranked if v != names[base]), names[0])
    return base, names.index(best)


def presets(names: list[str], board: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """One-click pairs: "Cheaper model vs baseline" and "Best vs baseline" (baseline, then
    candidate), when the run has a variant named baseline and such a variant."""
    from arena.gate import cheaper_variant
    from arena.leaderboard import VariantStanding

    if "baseline" not in names:
        return {}
    entries = [VariantStanding.model_validate(e) for e in board["entries"]]
    found = {}
    cheap = cheaper_variant(entries)
    if cheap is not None:
        found["Cheaper model vs baseline"] = ("baseline", cheap)
    best = next((e.variant for e in entries if e.variant != "baseline" and e.rating), None)
    if best is not None:
        found["Best vs baseline"] = ("baseline", best)
    return found


def _pick(pair: tuple[str, str]) -> None:
    st.session_state["cmp_baseline"], st.session_state["cmp_candidate"] = pair


def compare_section(ctx: Context) -> None:
    """Pick two variants (or a preset); show the verdict, the per-case table (winner and
    pass/fail first, improved and regressed counted, regressions only on demand) and one
    case in detail."""
    names = list(ctx.run["variants"])
    if len(names) < 2:
        st.info("This run has a single variant: nothing to compare.")
        return
    board = data.load_leaderboard(ctx.url, ctx.run_id, ctx.judge_key)
    base_i, cand_i = _defaults(names, [e["variant"] for e in board["entries"]])
    for key, index in (("cmp_baseline", base_i), ("cmp_candidate", cand_i)):
        if st.session_state.get(key) not in names:
            st.session_state[key] = names[index]
    shortcuts = presets(names, board)
    if shortcuts:
        for column, (label, pair) in zip(
            st.columns(len(shortcuts) + 2), shortcuts.items(), strict=False
        ):
            column.button(
                label,
                key=f"cmp_preset_{label}",
                on_click=_pick,
                args=(pair,),
                help=f"{pair[1]} against {pair[0]}",
            )
    left, right = st.columns(2)
    baseline = left.selectbox("Baseline", names, key="cmp_baseline")
    candidate = right.selectbox("Candidate", names, key="cmp_candidate")
    if baseline == candidate:
        st.warning("Pick two different variants.")
        return
    report = data.load_compare(ctx.url, ctx.run_id, baseline, candidate, ctx.judge_key)
    cases = {e["variant"]: e.get("cases") for e in board["entries"]}
    verdict_box(report, (cases.get(baseline), cases.get(candidate)))
    st.caption(md(FILTER_NOTE.format(scope=ctx.scope)))
    with st.expander("Confidence sequence over cases"):
        from arena.app.sequence_view import sequence_section

        sequence_section(ctx.url, ctx.run_id, baseline, candidate, ctx.judge_key)
    table = case_table(ctx, baseline, candidate)
    st.subheader("Per case")
    per_case(table, baseline, candidate)
    if not table.empty:
        case_detail(ctx, table, baseline, candidate)


def change_counts(table: pd.DataFrame) -> str:
    """``2 improved / 1 regressed / 3 same`` over the table's rows."""
    if table.empty:
        return "no cases in the selection"
    counts = table["Change"].value_counts()
    return " / ".join(f"{int(counts.get(shown, 0))} {word}" for word, shown in CHANGES.items())


def per_case(table: pd.DataFrame, baseline: str, candidate: str) -> pd.DataFrame:
    """The per-case table: case, change, judge winner and both pass/fail badges first, the
    outputs in cells that open in full on click; the judge's verdicts and rationales with
    "advanced"; regressions only on demand. Returns the rows shown."""
    counts = md(change_counts(table))
    st.markdown(f"**{counts}** (golden pass/fail, {md(candidate)} against {md(baseline)})")
    left, right = st.columns(2)
    only = left.toggle("Regressions only", key="cmp_regressions")
    advanced = right.toggle(
        "Judge verdicts and rationales", key="cmp_advanced", help="Both orders, with scores"
    )
    st.caption(
        "One row per case and repeat; each pair was judged twice, once in each order. Click "
        "an output to read it whole, or open the case below."
    )
    shown = table
    if only and not table.empty:
        shown = table[table["Change"] == CHANGES["regressed"]]
    main = [
        "Case",
        *(["Repeat"] if "Repeat" in table else []),
        "Change",
        "Judge winner",
        baseline,
        candidate,
        "Question",
        f"{baseline} output",
        f"{candidate} output",
    ]
    extra = [
        "Category",
        "Tier",
        f"{baseline} score",
        f"{candidate} score",
        f"Verdict, {baseline} shown first",
        "Rationale (1st order)",
        f"Verdict, {candidate} shown first",
        "Rationale (2nd order)",
    ]
    columns = [c for c in [*main, *(extra if advanced else [])] if c in shown]
    text = st.column_config.TextColumn
    st.dataframe(
        shown[columns] if not shown.empty else shown,
        hide_index=True,
        width="stretch",
        column_config={
            "Case": text(width=70),
            "Change": text(width=100, help="Golden pass/fail from baseline to candidate"),
            "Judge winner": text(width=110),
            baseline: text(width=80, help=f"{baseline}'s golden check"),
            candidate: text(width=80, help=f"{candidate}'s golden check"),
            "Question": text(width=150),
            f"{baseline} output": text(width=180),
            f"{candidate} output": text(width=180),
            f"{baseline} score": text(width="small"),
            f"{candidate} score": text(width="small"),
        },
    )
    return shown


def verdict_box(
    report: dict[str, Any], cases: tuple[int | None, int | None] = (None, None)
) -> None:
    """The verdict, its reasons and the headline figures (pass rates with their counts
    when ``cases`` gives the counted cases of baseline and candidate)."""
    style = VERDICT_STYLE.get(report["verdict"], "info")
    getattr(st, style)(f"**{md(report['summary'])}**")
    for reason in report["reasons"]:
        st.caption(f"• {md(reason)}")
    cols = st.columns(5)
    win = report["win_rate"]
    cols[0].metric(
        "Candidate win rate",
        display.percent(win),
        help="Share of battles the candidate won against the baseline (ties half)",
    )
    if not missing(win):
        cols[0].caption(
            f"95%: {display.percent(report['ci_low'])} – {display.percent(report['ci_high'])}, "
            f"{report['battles']} battles"
        )
    for col, label, key, fmt, inverse in (
        (cols[1], "Golden pass rate", "pass_rate", "pct", False),
        (cols[2], "Mean golden score", "mean_score", "num", False),
        (cols[3], "Cost per query", "cost_per_query", "usd", True),
        (cols[4], "p90 latency", "p90_latency_s", "sec", True),
    ):
        base, cand = report[key]
        text = FORMATS[fmt]
        if fmt == "pct":
            text = _counted(cases)
        delta = cand - base
        shown = {
            "pct": display.points(delta),
            "usd": ("-" if delta < 0 else "+") + display.dollars(abs(delta)),
            "num": f"{delta:+.2f}",
            "sec": f"{delta:+.1f} s",
        }[fmt]
        col.metric(
            label,
            text(cand),
            shown if text(cand) != text(base) else None,
            delta_color="inverse" if inverse else "normal",
            help=f"Baseline: {text(base)}",
        )


def _counted(cases: tuple[int | None, int | None]) -> Callable[[Any], str]:
    """A pass rate as "5/8 (62.5%)" over the larger known case count, else a percentage."""
    whole = max((n for n in cases if n), default=None)
    return lambda rate: display.rate_of(rate, whole)


def _battle_index(ctx: Context, baseline: str, candidate: str) -> dict[tuple[str, int], Any]:
    if not ctx.judge_key:
        return {}
    battles = data.load_battles(ctx.url, ctx.run_id, ctx.judge_key)
    if battles.empty:
        return {}
    pair = battles[
        ((battles["variant_a"] == baseline) & (battles["variant_b"] == candidate))
        | ((battles["variant_a"] == candidate) & (battles["variant_b"] == baseline))
    ]
    return {(row.case_id, int(row.repeat)): row for row in pair.itertuples(index=False)}


def near_tie(battle: Any) -> str:
    """Why the battle has a winner although both orders read a tie ('' otherwise)."""
    if battle is None or battle.winner not in ("model_a", "model_b"):
        return ""
    labels = [None if missing(v) else v for v in (battle.ab_label, battle.ba_label)]
    return display.near_tie_note(
        labels[0],
        labels[1],
        winner_words(battle.winner, battle.variant_a, battle.variant_b),
        getattr(battle, "p_a", None),
        getattr(battle, "tie_margin", None),
    )


def _orders(battle: Any, baseline: str, candidate: str) -> tuple[str, str, str, str, str]:
    """(winner, verdict baseline-first, rationale, verdict candidate-first, rationale)."""
    if battle is None:
        return "not judged", "-", "", "-", ""
    winner = winner_words(battle.winner, battle.variant_a, battle.variant_b)
    if near_tie(battle):
        winner += " (near tie)"
    flagged = getattr(battle, "suspected_injection", "")
    if isinstance(flagged, str) and flagged:
        winner += f" ⚠ suspected injection ({flagged})"
    base_first = "ab" if battle.variant_a == baseline else "ba"
    cand_first = "ba" if base_first == "ab" else "ab"
    out = [winner]
    for order, first, second in (
        (base_first, baseline, candidate),
        (cand_first, candidate, baseline),
    ):
        label = getattr(battle, f"{order}_label")
        out.append(
            label_words(
                None if missing(label) else label, first, second, getattr(battle, f"{order}_error")
            )
        )
        out.append(getattr(battle, f"{order}_rationale"))
    if (
        battle.winner == TIE
        and missing(battle.ab_label)
        and missing(battle.ba_label)
        and not battle.ab_error
    ):
        out[1] = out[3] = "identical answers: tie without a call"
    return out[0], out[1], out[2], out[3], out[4]


def _output(row: Any) -> str:
    if row is None:
        return "(no result)"
    return f"[error] {row.error}\n{row.output}".strip() if row.error else row.output


def _badge(passed: Any) -> str:
    """A golden check as a badge: a symbol and a word."""
    if passed is None or missing(passed):
        return "- not scored"
    return "✓ pass" if passed else "✗ fail"


def _change(was: Any, now: Any) -> str:
    """improved (fail to pass), regressed (pass to fail) or same."""
    if was is None or now is None or missing(was) or missing(now) or bool(was) == bool(now):
        return "same"
    return "improved" if now else "regressed"


def case_table(ctx: Context, baseline: str, candidate: str) -> pd.DataFrame:
    """Both outputs, golden scores and both judge verdicts for every case of the selection."""
    cases = data.load_cases(ctx.url, ctx.run_id)
    if ctx.tier != data.ALL:
        cases = cases[cases["tier"] == ctx.tier]
    if ctx.category != data.ALL:
        cases = cases[cases["category"] == ctx.category]
    results = data.load_results(ctx.url, ctx.run_id)
    scores = data.load_scores(ctx.url, ctx.run_id)
    score_of = dict(zip(scores["result_id"], scores["score"], strict=True))
    verdict_of = {
        rid: ("passed" if ok else f"failed{': ' + why if why else ''}")
        for rid, ok, why in zip(
            scores["result_id"], scores["passed"], scores["fail_reasons"], strict=True
        )
    }
    passed_of = dict(zip(scores["result_id"], scores["passed"], strict=True))
    by_key = {(r.variant, r.case_id, int(r.repeat)): r for r in results.itertuples(index=False)}
    repeats = sorted({int(r) for r in results["repeat"]}) if not results.empty else [0]
    battles = _battle_index(ctx, baseline, candidate)
    rows = []
    for case in cases.itertuples(index=False):
        for repeat in repeats:
            a, b = (
                by_key.get((baseline, case.case_id, repeat)),
                by_key.get((candidate, case.case_id, repeat)),
            )
            if a is None and b is None:
                continue
            battle = battles.get((case.case_id, repeat))
            winner, v_ab, r_ab, v_ba, r_ba = _orders(battle, baseline, candidate)
            was = passed_of.get(a.id) if a is not None else None
            now = passed_of.get(b.id) if b is not None else None
            rows.append(
                {
                    "Case": case.case_id,
                    "Repeat": repeat,
                    "Change": CHANGES[_change(was, now)],
                    "Judge winner": winner,
                    baseline: _badge(was),
                    candidate: _badge(now),
                    "Category": case.category,
                    "Tier": case.tier,
                    "Question": case.input,
                    f"{baseline} output": _output(a),
                    f"{candidate} output": _output(b),
                    f"{baseline} score": display.score(score_of.get(a.id))
                    if a is not None
                    else display.MISSING,
                    f"{candidate} score": display.score(score_of.get(b.id))
                    if b is not None
                    else display.MISSING,
                    f"Verdict, {baseline} shown first": v_ab,
                    "Rationale (1st order)": r_ab,
                    f"Verdict, {candidate} shown first": v_ba,
                    "Rationale (2nd order)": r_ba,
                    "_a_id": a.id if a is not None else None,
                    "_b_id": b.id if b is not None else None,
                    "_a_golden": verdict_of.get(a.id, "") if a is not None else "",
                    "_b_golden": verdict_of.get(b.id, "") if b is not None else "",
                    "_near_tie": near_tie(battle),
                }
            )
    table = pd.DataFrame(rows)
    if not table.empty and len(repeats) == 1:
        table = table.drop(columns=["Repeat"])
    return table


def case_detail(ctx: Context, table: pd.DataFrame, baseline: str, candidate: str) -> None:
    """One case: both outputs, both verdicts with rationales, both trajectories (a
    conversation: its dialogue turn by turn), paths and state changes."""
    st.subheader("Open a case")
    labels = [
        f"{row['Case']}"
        + (f" · repeat {row['Repeat']}" if "Repeat" in row else "")
        + f" · {str(row['Question'])[:80]}"
        for _, row in table.iterrows()
    ]
    index = st.selectbox(
        "Case", range(len(labels)), format_func=lambda i: labels[i], key="cmp_case"
    )
    row = table.iloc[index]
    columns = st.columns(2, gap="large")
    for col, name, side in ((columns[0], baseline, "_a"), (columns[1], candidate, "_b")):
        id_key = f"{side}_id"
        with col:
            score = row[f"{name} score"]
            st.markdown(f"**{md(name)}** · golden score {md(score)}")
            if row[f"{side}_golden"]:
                st.caption(md(row[f"{side}_golden"]))
            conversation = (
                None if missing(row[id_key]) else load_dialogue(ctx.url, int(row[id_key]))
            )
            if conversation is not None:  # turn by turn, each turn's tool calls in it
                render_dialogue(conversation, name)
            else:
                st.code(row[f"{name} output"] or "(empty answer)", language=None, wrap_lines=True)
            if not missing(row[id_key]):
                if conversation is None:
                    trajectory(ctx.url, int(row[id_key]), name)
                graph_path(ctx.url, int(row[id_key]), name)
                end_state(ctx.url, int(row[id_key]), name)
                judge_details(ctx, int(row[id_key]), name)
    if "suspected injection" in str(row["Judge winner"]):
        st.warning(
            "An answer here seems to address the judge instead of the user (suspected "
            "injection): it cannot win this battle, whatever the verdicts below say. "
            f"{md(str(row['Judge winner']))}"
        )
    if row["_near_tie"]:
        st.info(md(row["_near_tie"][0].upper() + row["_near_tie"][1:]) + ".")
    first, second = st.columns(2, gap="large")
    for col, order, name in ((first, "1st order", baseline), (second, "2nd order", candidate)):
        with col:
            st.markdown(
                f"Judge, **{md(name)}** shown first: **{md(row[f'Verdict, {name} shown first'])}**"
            )
            st.text(row[f"Rationale ({order})"] or "(no rationale)")


def judge_details(ctx: Context, result_id: int, name: str) -> None:
    """What each judge's mode found about one answer (e.g. a checklist judge's items with
    their P(YES)), as the mode's table (text cells: never markdown)."""
    for judge, mode, rows in data.load_judge_details(ctx.url, ctx.run_id, result_id):
        with st.expander(f"{md(mode)} of judge {md(judge)} on {md(name)}"):
            st.dataframe(pd.DataFrame(rows), hide_index=True)


def trajectory(url: str, result_id: int, name: str) -> None:
    """Tool calls with arguments and observations, grouped by consecutive sub-agent."""
    steps = data.load_trajectory(url, result_id)
    with st.expander(f"Trajectory of {md(name)}: {len(steps)} tool call(s)"):
        if not steps:
            st.caption("No tool calls: the agent answered directly.")
        for agent, group in itertools.groupby(steps, key=lambda s: s["agent"]):
            st.markdown(f"Sub-agent **{md(agent)}**")
            for step in group:
                st.markdown(f"{step['index'] + 1}\\. tool **{md(step['tool'])}**")
                st.code(json.dumps(step["args"], indent=2, ensure_ascii=False), language="json")
                st.caption("observation")
                st.code(step["observation"] or "(empty)", language=None, wrap_lines=True)
                if step["error"]:
                    st.caption("error")
                    st.code(step["error"], language=None, wrap_lines=True)
