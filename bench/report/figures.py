"""The figures of one run: a named value with its median, min and max over rounds.

Each figure is a dict, as results.json stores it: name, unit, median, min,
max, rounds, what (one line on how it was measured) and extra fields.
"""

import statistics


def rounded(x, nd=3):
    return round(x, nd) if isinstance(x, float) else x


class Figures:
    """The figures of a run, in the order they were made."""

    def __init__(self):
        self.all = []
        self._by_name = {}

    def add(self, name, unit, values, what, **extra):
        """One figure from per-round values (None values are dropped)."""
        values = [v for v in values if v is not None]
        fig = {"name": name, "unit": unit,
               "median": rounded(statistics.median(values)) if values else None,
               "min": rounded(min(values)) if values else None,
               "max": rounded(max(values)) if values else None,
               "rounds": len(values), "what": what}
        for k, v in extra.items():
            fig[k] = rounded(v)
        self.all.append(fig)
        self._by_name[name] = fig
        return fig

    @classmethod
    def load(cls, stored):
        """The figures as results.json stored them."""
        figs = cls()
        for fig in stored:
            figs.all.append(fig)
            figs._by_name[fig["name"]] = fig
        return figs

    def missing(self, name, unit, what, reason):
        fig = self.add(name, unit, [], what)
        fig["missing"] = reason
        return fig

    def get(self, name):
        return self._by_name.get(name)

    def value(self, name, key="median"):
        """A field of a figure, or None if the figure or the field is not there."""
        fig = self._by_name.get(name)
        return fig.get(key) if fig else None
