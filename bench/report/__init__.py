"""bench/run's report: results.json, report.md, the plots and a printed summary.

Run as `python3 -m report` with bench/ on PYTHONPATH (bench/run does).
Modules, by concern:
  rounds      the rounds bench/run recorded, and statistics over them
  figures     the figure set (median, min, max over rounds)
  benchmarks  the figures of each benchmark program
  aims        the aims, met or not, and why not from the figures
  findings    other findings, each computed from the figures
  tables      the printed summary and the markdown tables
  markdown    report.md
  plots       the gnuplot PNGs
  machine     the host and its load
Standard library only.
"""
