"""How numbers are written in the report and the summary."""


def fmt(x, nd=2):
    """A figure's value: 1.23M, 4567, 12.34; "-" for none."""
    if x is None:
        return "-"
    if isinstance(x, float):
        if abs(x) >= 1e6:
            return "%.2fM" % (x / 1e6)
        if abs(x) >= 1000:
            return "%.0f" % x
        return ("%." + str(nd) + "f") % x
    return str(x)


def times(r, nd=2):
    """A ratio: x0.93."""
    return "-" if r is None else ("x%." + str(nd) + "f") % r


def num(x, nd=1):
    """A plain number with @nd decimals, "-" for none."""
    return ("%." + str(nd) + "f") % x if isinstance(x, (int, float)) else "-"


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def percent(x):
    return "%.0f%%" % (100 * x)
