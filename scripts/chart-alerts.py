"""The chart's alerts, as rendered: written out for promtool, each with a tested firing and quiet case,
each linking a runbook section of docs/operations.md that exists (decision 0161).

argv: rendered manifests (helm template), promtool test file, docs/operations.md, output rules file.
Prints one line per problem and exits 1 if there is any.
"""
import re
import sys
from urllib.parse import urlsplit

import yaml


def rendered_rules(manifests):
    """The `spec` of the one rendered PrometheusRule: a Prometheus rule file as the chart ships it."""
    with open(manifests) as f:
        rules = [d for d in yaml.safe_load_all(f) if d and d.get("kind") == "PrometheusRule"]
    if len(rules) != 1:
        sys.exit(f"[chart-check]   ERROR expected one PrometheusRule in {manifests}, found {len(rules)}")
    return rules[0]["spec"]


def anchors(markdown):
    """Explicit `<a id>` anchors and the GitHub slugs of the headings."""
    with open(markdown) as f:
        text = f.read()
    ids = set(re.findall(r'<a id="([^"]+)"></a>', text))
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        ids.add(slug)
    return ids


def main():
    manifests, test_file, operations, out = sys.argv[1:5]
    spec = rendered_rules(manifests)
    with open(out, "w") as f:
        yaml.safe_dump(spec, f, sort_keys=False)
    alerts = [r for g in spec["groups"] for r in g["rules"] if "alert" in r]
    names = sorted({r["alert"] for r in alerts})
    with open(test_file) as f:
        tests = yaml.safe_load(f)["tests"]
    cases = [c for t in tests for c in t.get("alert_rule_test", [])]
    known = anchors(operations)
    errors = []
    for name in names:
        mine = [c for c in cases if c["alertname"] == name]
        if not any(c.get("exp_alerts") for c in mine):
            errors.append(f"{name}: no promtool case where it fires ({test_file})")
        if not any(not c.get("exp_alerts") for c in mine):
            errors.append(f"{name}: no promtool case where it stays quiet ({test_file})")
    for rule in alerts:
        url = (rule.get("annotations") or {}).get("runbook_url")
        if not url:
            errors.append(f"{rule['alert']}: no runbook_url annotation")
            continue
        parts = urlsplit(url)
        if not parts.path.endswith("docs/operations.md") or not parts.fragment:
            errors.append(f"{rule['alert']}: runbook_url {url} does not point into a section of docs/operations.md")
        elif parts.fragment not in known:
            errors.append(f"{rule['alert']}: runbook_url anchor #{parts.fragment} is not in docs/operations.md")
    for e in errors:
        print(f"[chart-check]   ERROR {e}", file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"[chart-check]   {len(names)} alerts ({len(alerts)} rules): each with a firing and a quiet promtool case "
          "and a runbook section in docs/operations.md")


if __name__ == "__main__":
    main()
