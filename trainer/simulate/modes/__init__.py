"""Each mode's simulated player, one module per mode; importing this package imports every module
of it (sorted by name), which registers them all with :func:`trainer.simulate.engine.plays`. A new
mode adds a module here, and no import line."""

import importlib
import pkgutil

for _module in sorted(info.name for info in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")
