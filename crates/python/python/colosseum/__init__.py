"""Colosseum's games as OpenSpiel games.

Importing this package registers every game of Colosseum's registry with OpenSpiel, named
``colosseum_`` + the game id with ``_`` for ``-`` (``colosseum_square_goofspiel``)::

    import pyspiel
    import colosseum  # registers the games

    game = pyspiel.load_game("colosseum_thwart_omega", {"size": 3})

Every call goes into Rust (``colosseum._core``) once per step: no rule is written in Python.
Actions are integers from a per-game action space (see docs/openspiel.md for each game's
encoding); ``action_to_string`` gives Colosseum's notation. Information-state and observation
strings are built from the seat's own views: the perfect-recall information state lists the
seat's actions and its view after every decision (cached in Rust: extended by every action, not
replayed); the observation is its current view (the spectator's view for a public observer).
Every game also provides observation and information-state tensors, built from the seat's view.
"""

from __future__ import annotations

import json

import numpy as np
import pyspiel

from colosseum import _core

__all__ = ["GAMES", "short_name", "game_ids", "parameters"]

#: Every game of the registry: id, name, summary, options and the OpenSpiel info of its defaults.
GAMES: list[dict] = json.loads(_core.games())


def short_name(game_id: str) -> str:
    """OpenSpiel's name of a Colosseum game: ``colosseum_`` + the id with ``_`` for ``-``."""
    return "colosseum_" + game_id.replace("-", "_")


def game_ids() -> list[str]:
    """The ids of Colosseum's games, in the registry's order."""
    return [g["id"] for g in GAMES]


def _typed(text: str):
    """An option's default, as written on its rules page, with the type OpenSpiel should see."""
    t = text.strip()
    if t in ("true", "false"):
        return t == "true"
    for kind in (int, float):
        try:
            return kind(t)
        except ValueError:
            pass
    return text


def parameters(game_id: str) -> dict:
    """The game's OpenSpiel parameters: its options, each with its default."""
    game = next(g for g in GAMES if g["id"] == game_id)
    return {o["name"]: _typed(o["default"]) for o in game["options"]}


def _game_type(entry: dict, info: dict) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(entry["id"]),
        long_name="Colosseum " + entry["name"],
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if info["stochastic"]
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=getattr(pyspiel.GameType.Utility, info["utility"]),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=info["information_state_tensor_size"] is not None,
        provides_observation_string=True,
        provides_observation_tensor=info["observation_tensor_size"] is not None,
        provides_factored_observation_string=False,
        parameter_specification=parameters(entry["id"]),
    )


class ColosseumState(pyspiel.State):
    """A state: a thin shell around ``colosseum._core.State``."""

    def __init__(self, game, core):
        super().__init__(game)
        self._core = core

    def current_player(self):
        return self._core.current_player()

    def _legal_actions(self, player):
        return self._core.legal_actions(player)

    def chance_outcomes(self):
        return self._core.chance_outcomes()

    def _apply_action(self, action):
        self._core.apply_action(action)

    def _apply_actions(self, actions):
        self._core.apply_actions(actions[0], actions[1])

    def _action_to_string(self, player, action):
        return self._core.action_to_string(player, action)

    def is_terminal(self):
        return self._core.is_terminal()

    def returns(self):
        return self._core.returns()

    def __str__(self):
        return str(self._core)


class ColosseumObserver:
    """OpenSpiel's observer, from the seat's views: strings for every game, a flat tensor for the
    games that provide one (``None`` otherwise)."""

    def __init__(self, info, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"Colosseum's observers take no parameters, not {params}")
        obs = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self.perfect_recall = obs.perfect_recall
        self.public_only = obs.private_info == pyspiel.PrivateInfoType.NONE
        size = info["information_state_tensor_size" if self.perfect_recall else "observation_tensor_size"]
        if size is None or self.public_only:
            self.tensor = None
            self.dict = {}
        else:
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.tensor is None:
            return
        if self.perfect_recall:
            self.tensor[:] = state._core.information_state_tensor(player)
        else:
            self.tensor[:] = state._core.observation_tensor(player)

    def string_from(self, state, player):
        if self.perfect_recall:
            return state._core.information_state_string(player)
        if self.public_only:
            return state._core.public_observation_string()
        return state._core.observation_string(player)


class ColosseumGame(pyspiel.Game):
    """A Colosseum game with given parameters (its options)."""

    GAME_ID = ""  # set by each registered subclass

    def __init__(self, params=None):
        params = dict(params or {})
        self._options = json.dumps(params, sort_keys=True)
        probe = _core.State(self.GAME_ID, self._options)  # refuses bad options with a message
        info = json.loads(probe.info())
        entry = next(g for g in GAMES if g["id"] == self.GAME_ID)
        self.colosseum_info = info
        super().__init__(
            _game_type(entry, info),
            pyspiel.GameInfo(
                num_distinct_actions=info["num_distinct_actions"],
                max_chance_outcomes=info["max_chance_outcomes"],
                num_players=2,
                min_utility=info["min_utility"],
                max_utility=info["max_utility"],
                utility_sum=info["utility_sum"],
                max_game_length=info["max_game_length"],
            ),
            params,
        )

    def new_initial_state(self):
        return ColosseumState(self, _core.State(self.GAME_ID, self._options))

    def max_chance_nodes_in_history(self):
        return self.colosseum_info["max_chance_nodes"]

    def make_py_observer(self, iig_obs_type=None, params=None):
        return ColosseumObserver(self.colosseum_info, iig_obs_type, params)


def _register() -> None:
    for entry in GAMES:
        name = short_name(entry["id"])
        if name in pyspiel.registered_names():
            continue
        cls = type(
            "Colosseum_" + entry["id"].replace("-", "_"),
            (ColosseumGame,),
            {"GAME_ID": entry["id"], "__doc__": entry["summary"]},
        )
        globals()[cls.__name__] = cls
        pyspiel.register_game(_game_type(entry, entry["info"]), cls)


_register()
