"""The public path of the plug-in listing (``from estimators.plugins import registered``, as
the user guide and the plug-in tutorial write it): the code lives on the learning floor,
:mod:`estimators.learning.plugin_registry`."""

from estimators.learning.plugin_registry import (
    GROUPS,
    PluginWarning,
    Registration,
    RegistryName,
    check_new_name,
    load_plugins,
    registered,
)

__all__ = ["GROUPS", "PluginWarning", "RegistryName", "Registration", "check_new_name",
           "load_plugins", "registered"]
