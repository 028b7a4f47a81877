"""The arena: games played to their end by bots, one at a time (``simulate``) or as a rated
ladder (``ladder``)."""
