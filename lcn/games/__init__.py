"""One package per game: its rules written once, as a fast state and step.

Today each game's rules are also written in ``lcn.variants`` (the full engine, an express
check and random players). The packages here hold the one fast core that validation, the
random players and a search are meant to share, so that a search plays on exactly the rules
that judge a record. Games move here one at a time, each proven equal to the engine it
replaces before anything is rewired onto it; ``classic`` is the first.
"""
