"""Puts semantic-patches/ (tqlib, tqprep, tqbh and the tqconvert
package) on the path of a unit test."""

import os
import sys

sys.dont_write_bytecode = True
SP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   "..", "..", "..", "semantic-patches"))
if SP not in sys.path:
    sys.path.insert(0, SP)
