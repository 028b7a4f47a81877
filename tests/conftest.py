import os
import sys

from hypothesis import settings

# The reference and the state generator live beside the tests, not in the package.
sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile("ci")
