"""What every stage of convert shares: where the semantic patches are,
their order, the errors that stop a run."""

import os
import sys

# the semantic patches' folder (this package's parent), and the project's
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(HERE)


# The fixed order: rename before anything changes the declarations (the
# tasks of private queues are hidden from every stage before any runs, so
# that they keep their type: tqprep.kept_task_tokens); sync and init need
# the declarations as struct
# tq_struct (a DECLARE_WORK() hides the type); callback-cast sees the
# INIT_WORK/DECLARE_WORK that init produced; types last; residue reports
# on the result.
STAGES = [
    "tqueue-rename.cocci",
    "tqueue-sync.cocci",
    "tqueue-init.cocci",
    "tqueue-immediate.cocci",
    "tqueue-calls.cocci",
    "tqueue-callback-cast.cocci",
    "tqueue-types.cocci",
]
RESIDUE = "tqueue-residue.cocci"
MACROS = os.path.join(HERE, "kernel-macros.h")
STANDARD_MACROS = "/usr/lib/coccinelle/standard.h"


def err(msg):
    print(msg, file=sys.stderr, flush=True)


class Interrupted(Exception):
    def __init__(self, signum):
        Exception.__init__(self, signum)
        self.signum = signum


class SpatchError(Exception):
    pass


# marker macros the macro files define (coccinelle parses them itself):
# filled once by convert's main()
KNOWN_MARKERS = set()
