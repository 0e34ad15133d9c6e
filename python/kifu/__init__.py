from ._kifu import *  # noqa: F401,F403
from ._kifu import __doc__, __all__, __version__  # noqa: F401
