#!/usr/bin/env python3
"""Checks the alert rules and the Grafana dashboard against what almanac really exposes
(part of `make test`, through scripts/observability-check.sh).

  python3 scripts/observability_check.py METRICS_FILE

METRICS_FILE is a scrape of /metrics from the real binary with every optional family on
(the shared cache configured, requests answered). The check:
- every metric name used in deploy/prometheus/alerts.yml and in deploy/grafana/almanac.json
  is a family /metrics serves (a histogram's `_bucket`, `_sum`, `_count` count as its family);
- every metric an alert uses is also on the dashboard (the dashboard shows what pages you);
- the dashboard is well formed: title, uid, the data source variable; every panel has a unique
  id, a known type, a title, a grid position inside the 24-column grid that overlaps no other
  panel; every non-row panel has the data source and at least one target, each with an
  expression and a refId unique in its panel.
Metric names are the tokens of an expression that start with `almanac_` or `process_`, once
label matchers and quoted strings are removed (so label values never count as names).

Exit status 0 when every check passes; each failure is printed.
"""

import json
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALERTS = os.path.join(ROOT, "deploy", "prometheus", "alerts.yml")
DASHBOARD = os.path.join(ROOT, "deploy", "grafana", "almanac.json")
PANEL_TYPES = {"row", "timeseries", "stat", "gauge", "bargauge", "table", "state-timeline", "text"}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def exposed_families(text):
    """Names a scrape serves: each `# TYPE` family, plus a histogram's sample suffixes."""
    names = set()
    for match in re.finditer(r"^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (\w+)$", text, re.M):
        name, kind = match.groups()
        names.add(name)
        if kind == "histogram":
            names.update(name + suffix for suffix in ("_bucket", "_sum", "_count"))
    return names


def metric_names(expression):
    """The metric names a PromQL expression (or a Grafana query) reads."""
    without_strings = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expression)
    without_matchers = re.sub(r"\{[^}]*\}", "{}", without_strings)
    return set(re.findall(r"\b(?:almanac|process)_[a-zA-Z0-9_:]+", without_matchers))


def alert_expressions():
    with open(ALERTS) as f:
        rules = yaml.safe_load(f)
    for group in rules.get("groups", []):
        for rule in group.get("rules", []):
            yield rule.get("alert") or rule.get("record"), str(rule.get("expr", ""))


def check_dashboard_shape(dashboard):
    check(isinstance(dashboard.get("title"), str) and dashboard["title"], "dashboard: no title")
    check(isinstance(dashboard.get("uid"), str) and dashboard["uid"], "dashboard: no uid")
    check(isinstance(dashboard.get("schemaVersion"), int), "dashboard: no integer schemaVersion")
    variables = {v.get("name"): v for v in dashboard.get("templating", {}).get("list", [])}
    check(variables.get("datasource", {}).get("type") == "datasource", "dashboard: no `datasource` variable of type datasource")
    panels = dashboard.get("panels")
    if not check(isinstance(panels, list) and panels, "dashboard: no panels"):
        return
    ids, cells = set(), {}
    for panel in panels:
        name = f"panel {panel.get('id')} ({panel.get('title')!r})"
        check(isinstance(panel.get("id"), int) and panel["id"] not in ids, f"{name}: id missing or not unique")
        ids.add(panel.get("id"))
        check(panel.get("type") in PANEL_TYPES, f"{name}: unknown type {panel.get('type')!r}")
        check(isinstance(panel.get("title"), str) and panel["title"].strip(), f"{name}: no title")
        grid = panel.get("gridPos", {})
        x, y, w, h = (grid.get(k) for k in ("x", "y", "w", "h"))
        if check(all(isinstance(v, int) for v in (x, y, w, h)) and x >= 0 and y >= 0 and w > 0 and h > 0 and x + w <= 24,
                 f"{name}: gridPos {grid} outside the 24-column grid"):
            covered = {(cx, cy) for cx in range(x, x + w) for cy in range(y, y + h)}
            overlapped = sorted({cells[cell] for cell in covered if cell in cells})
            check(not overlapped, f"{name}: overlaps panel(s) {overlapped}")
            cells.update((cell, panel.get("id")) for cell in covered)
        if panel.get("type") in ("row", "text"):
            continue
        check(panel.get("datasource", {}).get("uid") == "${datasource}", f"{name}: data source is not ${{datasource}}")
        targets = panel.get("targets") or []
        check(targets, f"{name}: no targets")
        ref_ids = [t.get("refId") for t in targets]
        check(len(set(ref_ids)) == len(ref_ids) and all(ref_ids), f"{name}: refIds missing or repeated: {ref_ids}")
        for target in targets:
            check(isinstance(target.get("expr"), str) and metric_names(target["expr"]),
                  f"{name}: target {target.get('refId')} reads no almanac metric: {target.get('expr')!r}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        exposed = exposed_families(f.read())
    check("almanac_build_info" in exposed, f"{sys.argv[1]} is not a scrape of almanac's /metrics")

    alert_names = set()
    for alert, expression in alert_expressions():
        names = metric_names(expression)
        check(names, f"alerts.yml {alert}: no almanac metric in {expression!r}")
        for name in sorted(names - exposed):
            failures.append(f"alerts.yml {alert}: {name} is not served by /metrics")
        alert_names |= names

    with open(DASHBOARD) as f:
        dashboard = json.load(f)
    check_dashboard_shape(dashboard)
    dashboard_names = set()
    queries = [t.get("expr", "") for p in dashboard.get("panels", []) for t in p.get("targets", [])]
    queries += [str(v.get("query", "")) for v in dashboard.get("templating", {}).get("list", []) if v.get("type") == "query"]
    for query in queries:
        dashboard_names |= metric_names(query)
    for name in sorted(dashboard_names - exposed):
        failures.append(f"almanac.json: {name} is not served by /metrics")
    for name in sorted(alert_names - dashboard_names):
        failures.append(f"almanac.json: {name} (used by an alert) is on no panel")

    for failure in failures:
        print("FAIL:", failure)
    print(f"observability check: {len(alert_names)} alert metrics, {len(dashboard_names)} dashboard metrics, "
          f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
