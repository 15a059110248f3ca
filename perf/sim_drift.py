"""How far two `sim --json` documents of one case drift apart, for perf/sim-identical.sh DRIFT=1.

Prints one line per scheme result found (at any depth: plain runs, sweeps): the relative change of
FCT p50 and p99, PFC pauses sent and drops, and the largest of them. Exits 1 when drops or
lossless violations appear in AFTER where BEFORE had none.
"""
import json
import sys

HEADLINE = (("fctP50Ns", ("flows", "fctP50Ns")), ("fctP99Ns", ("flows", "fctP99Ns")),
            ("pauses", ("pfcPausesSent",)), ("drops", ("drops",)))


def results(doc, path=""):
    """(path, scheme result) for every dict that looks like one scheme's result."""
    if isinstance(doc, dict):
        if "pfcPausesSent" in doc and "flows" in doc:
            yield path, doc
            return
        for k, v in doc.items():
            yield from results(v, f"{path}/{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from results(v, f"{path}[{i}]")


def get(d, keys):
    for k in keys:
        d = d.get(k) if isinstance(d, dict) else None
    return d


def relative(a, b):
    """(b - a) / a, signed; 0 when either is missing."""
    if a is None or b is None or a == b:
        return 0.0
    return (b - a) / max(abs(a), 1)


def main(name, before_file, after_file):
    with open(before_file) as f:
        before = dict(results(json.load(f)))
    with open(after_file) as f:
        after = dict(results(json.load(f)))
    ok = True
    for path in sorted(set(before) | set(after)):
        a, b = before.get(path), after.get(path)
        if a is None or b is None:
            print(f"drift  {name}{path}: only in {'after' if a is None else 'before'}")
            ok = False
            continue
        parts = []
        worst = 0.0
        for label, keys in HEADLINE:
            x, y = get(a, keys), get(b, keys)
            r = relative(x, y)
            worst = max(worst, abs(r))
            parts.append(f"{label} {x}->{y} ({100 * r:+.1f}%)" if x != y else f"{label} {x}")
        for key in ("drops", "losslessViolations"):
            if (a.get(key) or 0) == 0 and (b.get(key) or 0) > 0:
                parts.append(f"NEW {key}")
                ok = False
        print(f"drift  {name}{path}: largest {100 * worst:.1f}%; " + ", ".join(parts))
    return ok


if __name__ == "__main__":
    sys.exit(0 if main(*sys.argv[1:4]) else 1)
