"""The server layer: ``manila.server``, the HTTP API and the players' page.

A standard-library server (``http.server``): the routes and their limits in :mod:`.app`,
the OpenAPI document in :mod:`.openapi`, the page's words in :mod:`.names`, the page in
``web/``. ``python -m manila serve`` starts it.
"""

from .app import DEFAULT_HOST, DEFAULT_PORT, ManilaServer, make_server, serve

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "ManilaServer", "make_server", "serve"]
