#!/usr/bin/env python3
"""Tests of the `colosseum` Python package (crates/python) inside OpenSpiel 2.0.2.

* OpenSpiel's own checks (`pyspiel.random_sim_test`, with serialization) on every game, with
  its default options and with small variants, plus the Python game API: clone, serialize and
  deserialize, information states (a state's information state fixes the seat's legal actions),
  observations, bad options refused with a message saying what is allowed.
* Classic Goofspiel through the package agrees with OpenSpiel's native `goofspiel` (imp_info
  off, as Colosseum reveals the bids) on the same random games: chance outcomes, legal actions,
  returns, and information states up to encoding: each of ours stands for exactly one native
  one. (Ours can be finer: the native string keeps the hands and who won each turn, not which
  card was played in which turn, so it merges histories that differ only in that; ours, built
  from the seat's views, keeps every turn.)
* OpenSpiel's CFR on small variants: Thwart Omega on a 2×2 board (advantage p1 and none) and
  Goofspiel with 4 cards in descending order; NashConv falls below a stated bound, for Goofspiel
  beside CFR on the native game with the same iterations, and the average policy's value lies
  within its NashConv of the exact value Colosseum's own solver gives
  (crates/ai/tests/openspiel_values.rs).
* OpenSpiel's CFR+ on the small variants for research (Square Goofspiel `size` 2 with `draw`
  fixed, All-In Goofspiel with hands -1..1 to 3 points, Galespiel on the 5×5 lattice with three
  fixed prizes, The Witch's Brew's endgame): NashConv below a stated bound, and the
  average policy's value within its NashConv of the exact value (`exact_value`, LPs over the
  package's game) and of Colosseum's own solver where it applies.

Run after installing the wheel: `python3 tests/openspiel/test_package.py [--quick]`.
Ends with the line `N passed, N failed`; exit status 1 if anything failed.
"""

from __future__ import annotations

import random
import sys
import time
import traceback

import numpy as np
import pyspiel

import colosseum
from open_spiel.python.algorithms import exploitability

QUICK = "--quick" in sys.argv


def load(game_id: str, **params) -> pyspiel.Game:
    return pyspiel.load_game(colosseum.short_name(game_id), params)


# Small variants: options that exist and make a game small. Square Goofspiel's `size`, All-In
# Goofspiel's `lowest`/`highest`/`target` and Galespiel's `size`/`prizes`/`draw`/`hand`/`rounds`
# are variants for research, not in the seed.
# Galespiel's small variant for CFR: the 5×5 lattice (5 spots), the prizes 3 4 5 in that order,
# the cards 1 2 3, three rounds (one cycle).
GALESPIEL_SMALL = {"size": 5, "prizes": "3 4 5", "draw": "fixed", "hand": 3, "rounds": 3}
# The Witch's Brew's endgame, a variant for research: the fixed position before Placement round
# 12 of a seed game (docs/rules/witchs-brew.md shows it), played by the seed rules from there.
WITCHS_BREW_ENDGAME = {"start": "endgame"}

VARIANTS = [
    ("goofspiel", {"cards": 4}),
    ("goofspiel", {"cards": 5, "order": "descending", "returns": "point_difference"}),
    ("goofspiel", {"cards": 4, "order": "ascending", "returns": "total_points"}),
    ("thwart-omega", {"size": 2}),
    ("thwart-omega", {"size": 3}),
    ("thwart-omega", {"size": 1}),
    ("all-in-goofspiel", {"first": "p2"}),
    ("all-in-goofspiel", {"lowest": -1, "highest": 1, "target": 3}),
    ("all-in-goofspiel", {"lowest": 0, "highest": 3, "target": 5, "first": "p2"}),
    ("square-goofspiel", {"size": 2}),
    ("square-goofspiel", {"size": 3, "advantage": "none"}),
    ("square-goofspiel", {"size": 2, "draw": "fixed"}),
    ("galespiel", {"items": "elder-tree"}),
    ("galespiel", GALESPIEL_SMALL),
    ("galespiel", {"size": 9, "prizes": "4 5 6", "hand": 4, "rounds": 12, "items": "elder-tree"}),
    ("witchs-brew", {}),
    ("witchs-brew", WITCHS_BREW_ENDGAME),
]


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    for game_id in colosseum.game_ids():
        assert colosseum.short_name(game_id) in names, game_id
    assert "colosseum_square_goofspiel" in names
    game = load("square-goofspiel")
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert load("thwart-omega").get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    total = load("goofspiel", returns="total_points")
    assert total.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    # Parameters come from the options, typed from their defaults.
    params = load("goofspiel").get_type().parameter_specification
    assert params["cards"] == 13 and params["order"] == "random", params
    assert load("witchs-brew").get_type().parameter_specification["p1_chance"] == 0.5
    assert load("goofspiel", cards=6).num_distinct_actions() == 6
    assert load("thwart-omega", size=3).num_distinct_actions() == 9 * 8
    assert load("witchs-brew").num_distinct_actions() == 589
    assert load("witchs-brew").max_chance_outcomes() == 391
    # Tensors: every game provides both.
    with_tensors = set(colosseum.game_ids())
    for game_id in colosseum.game_ids():
        t = load(game_id).get_type()
        has = game_id in with_tensors
        assert t.provides_information_state_tensor == has, game_id
        assert t.provides_observation_tensor == has, game_id
    assert load("goofspiel", cards=4).information_state_tensor_size() == 4 * 4 + 2 + 3 * 16
    assert load("thwart-omega", size=2).observation_tensor_size() == 9 * 4 + 2
    # All-In Goofspiel over k cards: 2k + 2 + 11 + 1 + (k + 1) + k² observed, 1 + 2k² a round.
    k = 3
    small = load("all-in-goofspiel", lowest=-1, highest=1, target=3)
    assert small.observation_tensor_size() == 2 * k + 2 + 11 + 1 + (k + 1) + k * k
    assert small.information_state_tensor_size() == small.observation_tensor_size() + 11 * (1 + 2 * k * k)
    assert load("all-in-goofspiel").observation_tensor_size() == 2 * 16 + 2 + 11 + 1 + 17 + 256
    # Galespiel with its 9 default card slots; The Witch's Brew (docs/openspiel.md lays both out).
    slots = 9
    observation = 3 * 61 + 2 * (3 * slots + 12) + 2 + 9 + 7 * 9 + 9 + 5 + (1 + 9 + 2 * (slots + 3) + 4)
    assert load("galespiel").observation_tensor_size() == observation == 387
    assert load("galespiel").information_state_tensor_size() == observation + 70 * (9 + 2 * (slots + 2) + 2 + 61)
    assert load("witchs-brew").observation_tensor_size() == 518
    assert load("witchs-brew").information_state_tensor_size() == 2640
    # The variants' parameters are the options', typed from their defaults.
    spec = load("all-in-goofspiel").get_type().parameter_specification
    assert (spec["lowest"], spec["highest"], spec["target"]) == (-3, 12, 28), spec
    assert load("square-goofspiel").get_type().parameter_specification["size"] == 6


def test_random_sim_every_game_defaults():
    sims = 2 if QUICK else 5
    for game_id in colosseum.game_ids():
        start = time.perf_counter()
        pyspiel.random_sim_test(load(game_id), num_sims=sims, serialize=True, verbose=False)
        print(f"    random_sim_test {game_id}: {sims} games, {time.perf_counter() - start:.1f} s")


def test_random_sim_small_variants():
    for game_id, params in VARIANTS:
        pyspiel.random_sim_test(load(game_id, **params), num_sims=3, serialize=True, verbose=False)


def walk(game: pyspiel.Game, rng: random.Random, check) -> pyspiel.State:
    """Plays one random game, calling `check(state)` at every state."""
    state = game.new_initial_state()
    while True:
        check(state)
        if state.is_terminal():
            return state
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_clone_serialize_and_information_states():
    rng = random.Random(7)
    for game_id, params in VARIANTS + [("square-goofspiel", {})]:
        game = load(game_id, **params)
        seen: dict[tuple[int, str], list[int]] = {}

        def check(state):
            copy = state.clone()
            assert str(copy) == str(state) and copy.history() == state.history()
            back = game.deserialize_state(state.serialize())
            assert back.history() == state.history(), (back.history(), state.history())
            for p in range(2):
                info = state.information_state_string(p)
                assert back.information_state_string(p) == info
                assert copy.observation_string(p) == state.observation_string(p)
                legal = state.legal_actions(p)
                if legal and not state.is_terminal() and not state.is_chance_node():
                    # Perfect recall: one information state, one set of legal actions (for the
                    # seats that act: a seat waiting at another's node has none).
                    assert seen.setdefault((p, info), legal) == legal, (game_id, info)
                    for a in legal:
                        assert state.action_to_string(p, a)
            if state.is_terminal():
                r = state.returns()
                assert game.min_utility() <= min(r) and max(r) <= game.max_utility(), r

        for _ in range(3 if QUICK else 6):
            walk(game, rng, check)


def test_hidden_information_stays_hidden():
    # All-In Goofspiel: the starter's cards lie face down; the responder's strings must not
    # depend on which cards they are.
    game = load("all-in-goofspiel")
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_action(16)  # p1 plays the single card 12
    b.apply_action(15)  # p1 plays the single card 11
    assert a.action_to_string(0, 16) != ""  # the name of an action no longer legal
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.observation_string(1) == b.observation_string(1)
    assert a.information_state_string(0) != b.information_state_string(0)
    # The public observer sees the spectator's view.
    obs = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    public = game.make_py_observer(obs, None)
    assert public.string_from(a, 0) == public.string_from(b, 0) == public.string_from(a, 1)


def test_notation_and_encodings():
    s = load("goofspiel", cards=4).new_initial_state()
    assert s.is_chance_node() and s.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "3"
    s.apply_action(2)
    assert s.legal_actions(0) == [0, 1, 2, 3] and s.action_to_string(0, 3) == "4"
    t = load("thwart-omega", size=2).new_initial_state()
    assert len(t.legal_actions(0)) == 12
    assert t.action_to_string(0, 0) == "B a1 W b1", t.action_to_string(0, 0)
    sq = load("square-goofspiel").new_initial_state()
    for _ in range(6):  # a phase's draw: six chance nodes of one cell each
        outcomes = sq.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        sq.apply_action(outcomes[0][0])
    assert sq.is_simultaneous_node() and sq.legal_actions(0) == list(range(7))
    assert sq.action_to_string(0, 0) == "pass"
    allin = load("all-in-goofspiel").new_initial_state()
    assert allin.current_player() == 0 and allin.legal_actions(0) == list(range(19))
    assert allin.action_to_string(0, 17) == "9 8 7 6 5 4 3 2 12 1 11 10 0"
    assert allin.action_to_string(0, 18) == "9 8 7 6 5 4 3 2 12 1 11 10 0 -1 -2 -3"


def test_bad_options_are_refused_with_what_is_allowed():
    for game_id, params, words in [
        ("goofspiel", {"cards": 99}, "option `cards` = 99 is not allowed: an integer from 1 to"),
        ("goofspiel", {"order": "sideways"}, "random, descending or ascending"),
        ("galespiel", {"size": 7}, "5, 9 or 13"),
        ("galespiel", {"prizes": "3 4 5", "hand": 2}, "an integer from 3 (one card for each"),
        ("witchs-brew", {"start": "middle"}, "is not allowed: seed or endgame"),
        ("witchs-brew", {"start": "endgame", "schedule": "MM1 DM1"}, "schedule changed"),
    ]:
        try:
            load(game_id, **params)
        except Exception as e:  # pyspiel reports the Python error
            assert words in str(e), str(e)
        else:
            raise AssertionError(f"{params} was accepted")
    try:
        pyspiel.load_game("colosseum_goofspiel", {"cardz": 3})
    except Exception as e:
        assert "cardz" in str(e), str(e)
    else:
        raise AssertionError("an unknown parameter was accepted")
    state = load("goofspiel", cards=4).new_initial_state()
    state.apply_action(0)
    try:
        state.apply_actions([0, 7])
    except Exception as e:
        assert "action 7 is not legal for p2 now; the legal actions are 0, 1, 2, 3" in str(e), str(e)
    else:
        raise AssertionError("an illegal action was applied")


def test_goofspiel_agrees_with_native():
    games = 100 if QUICK else 400
    rng = random.Random(2024)
    for index in range(games):
        cards = rng.choice([2, 3, 4, 5, 6, 13])
        order = rng.choice(["random", "descending", "ascending"])
        returns = rng.choice(["win_loss", "point_difference", "total_points"])
        native = pyspiel.load_game(
            "goofspiel",
            {"num_cards": cards, "points_order": order, "returns_type": returns, "imp_info": False},
        )
        ours = load("goofspiel", cards=cards, order=order, returns=returns)
        a, b = native.new_initial_state(), ours.new_initial_state()
        back: list[dict] = [{}, {}]  # our information state -> native, per seat
        where = f"game {index} (cards={cards}, order={order}, returns={returns})"
        while not a.is_terminal():
            assert a.current_player() == b.current_player(), where
            if a.is_chance_node():
                assert sorted(a.chance_outcomes()) == sorted(b.chance_outcomes()), where
                actions, probs = zip(*a.chance_outcomes())
                x = rng.choices(actions, probs)[0]
                a.apply_action(x)
                b.apply_action(x)
                continue
            joint = []
            for p in range(2):
                assert a.legal_actions(p) == b.legal_actions(p), where
                na, nb = a.information_state_string(p), b.information_state_string(p)
                assert back[p].setdefault(nb, na) == na, f"{where}: one of ours, two native"
                joint.append(rng.choice(a.legal_actions(p)))
            a.apply_actions(joint)
            b.apply_actions(joint)
        # OpenSpiel plays the last turn itself; Colosseum asks for it (one legal action each).
        while not b.is_terminal():
            if b.is_chance_node():
                assert len(b.chance_outcomes()) == 1, where
                b.apply_action(b.chance_outcomes()[0][0])
            else:
                assert all(len(b.legal_actions(p)) == 1 for p in range(2)), where
                b.apply_actions([b.legal_actions(p)[0] for p in range(2)])
        assert a.returns() == b.returns(), f"{where}: native {a.returns()}, ours {b.returns()}"


def cfr_nash_conv(game: pyspiel.Game, iterations: int) -> list[float]:
    """NashConv of CFR's average policy after 1 and after `iterations` iterations, then the
    average policy's value for p1."""
    solver = pyspiel.CFRSolver(game)
    solver.evaluate_and_update_policy()
    out = [pyspiel.nash_conv(game, solver.average_policy())]
    for _ in range(iterations - 1):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    out.append(pyspiel.nash_conv(game, policy))
    out.append(pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0])
    return out


# Colosseum's own exact solver on the same variants (crates/ai/tests/openspiel_values.rs, which
# asserts these numbers): the value for p1 on OpenSpiel's ±1 scale. A policy profile with
# NashConv d earns within d of the value.
EXACT = {
    ("thwart-omega", "p1"): 1.0,
    ("thwart-omega", "none"): 0.0,
    ("goofspiel", 4): 0.0,
}


def test_cfr_thwart_omega_2x2():
    for advantage in ["p1", "none"]:
        game = pyspiel.convert_to_turn_based(load("thwart-omega", size=2, advantage=advantage))
        first, conv, value = cfr_nash_conv(game, 100)
        exact = EXACT[("thwart-omega", advantage)]
        print(f"    CFR Thwart Omega size 2, advantage {advantage}: NashConv {first:.4f} after 1 "
              f"iteration, {conv:.5f} after 100; value {value:+.5f}, Colosseum's solver {exact:+.1f}")
        assert conv < 0.05, conv
        assert abs(value - exact) <= conv + 1e-9, (value, exact, conv)


def test_cfr_goofspiel_4_beside_native():
    iterations = 30
    ours = pyspiel.convert_to_turn_based(
        load("goofspiel", cards=4, order="descending", returns="win_loss"))
    native = pyspiel.convert_to_turn_based(pyspiel.load_game(
        "goofspiel",
        {"num_cards": 4, "points_order": "descending", "returns_type": "win_loss", "imp_info": False},
    ))
    start = time.perf_counter()
    a = cfr_nash_conv(ours, iterations)
    mid = time.perf_counter()
    b = cfr_nash_conv(native, iterations)
    end = time.perf_counter()
    print(f"    CFR Goofspiel 4 descending win_loss, {iterations} iterations: NashConv "
          f"{a[0]:.4f} -> {a[1]:.5f} (package, {mid - start:.1f} s), "
          f"{b[0]:.4f} -> {b[1]:.5f} (native, {end - mid:.1f} s)")
    # The first iteration's average policy is uniform in both: the same NashConv.
    assert abs(a[0] - b[0]) < 1e-9, (a[0], b[0])
    assert a[1] < 0.1 and b[1] < 0.1, (a, b)
    # Beside Colosseum's exact solver (value 0 by symmetry; GoofspielWinLoss computes it).
    print(f"    value for p1 {a[2]:+.5f} (package), {b[2]:+.5f} (native), Colosseum's solver "
          f"{EXACT[('goofspiel', 4)]:+.1f}")
    assert abs(a[2] - EXACT[("goofspiel", 4)]) <= a[1] + 1e-9, a


def matrix_game(payoff) -> float:
    """The value for the row player (who maximises) of a zero-sum matrix game: an LP."""
    from scipy.optimize import linprog

    m = np.asarray(payoff, dtype=float)
    rows, cols = m.shape
    # Variables: the row player's mixed strategy x, then the value v; maximise v subject to
    # v <= x . m[:, j] for every column j.
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-m.T, np.ones((cols, 1))])
    a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * rows + [(None, None)], method="highs")
    assert res.status == 0, res.message
    return -res.fun


def face_down_game(groups) -> float:
    """The value for the starter (who maximises) of a round in which the responder sees only
    which group the starter's play is in: `groups` lists, per group, the payoff matrix (starter's
    plays in the group x responder's answers). The responder answers each group on its own, so
    the starter maximises the sum over groups of min over answers of its weighted payoffs: an LP
    over the starter's mixed strategy x (all plays) and one bound z per group."""
    from scipy.optimize import linprog

    plays = sum(len(m) for m in groups)
    n = plays + len(groups)
    cost = np.zeros(n)
    cost[plays:] = -1.0
    a_ub, at = [], 0
    for g, m in enumerate(groups):
        m = np.asarray(m, dtype=float)
        for j in range(m.shape[1]):
            row = np.zeros(n)
            row[at:at + len(m)] = -m[:, j]
            row[plays + g] = 1.0
            a_ub.append(row)
        at += len(m)
    a_eq = np.zeros((1, n))
    a_eq[0, :plays] = 1.0
    res = linprog(cost, A_ub=np.array(a_ub), b_ub=np.zeros(len(a_ub)), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * plays + [(None, None)] * len(groups), method="highs")
    assert res.status == 0, res.message
    return -res.fun


def exact_value(state) -> float:
    """The exact value for p1 of a (simultaneous-move) Colosseum game in which everything is
    public between rounds: Square Goofspiel (hands, board and bids public; a matrix game at each
    auction, the average at each chance node), Galespiel with the fixed draw (a matrix game at
    each bid, the builder's best build) and All-In Goofspiel (a one-seat starter whose
    play the responder sees only as its count: the responder's information state groups the
    starter's plays, then the round is public). A small exact computation beside CFR, written
    independently of OpenSpiel's algorithms."""
    if state.is_terminal():
        return state.returns()[0]
    if state.is_chance_node():
        return sum(p * exact_value(state.child(a)) for a, p in state.chance_outcomes())
    if state.is_simultaneous_node():
        rows, cols = state.legal_actions(0), state.legal_actions(1)
        m = []
        for a in rows:
            line = []
            for b in cols:
                child = state.clone()
                child.apply_actions([a, b])
                line.append(exact_value(child))
            m.append(line)
        return matrix_game(m)
    starter = state.current_player()
    responder = 1 - starter
    sign = 1.0 if starter == 0 else -1.0
    children = [state.child(a) for a in state.legal_actions(starter)]
    if not any(c.current_player() == responder for c in children):
        # A public one-seat decision that the other seat does not answer at once (Galespiel's
        # build with the fixed draw: everything is public but the bids): the seat picks its best.
        return sign * max(sign * exact_value(c) for c in children)
    groups: dict[str, list[list[float]]] = {}
    for a in state.legal_actions(starter):
        child = state.child(a)
        assert child.current_player() == responder, "the responder answers at once"
        key = child.information_state_string(responder)
        groups.setdefault(key, []).append(
            [sign * exact_value(child.child(b)) for b in child.legal_actions(responder)])
    return sign * face_down_game(list(groups.values()))


def test_exact_value_of_known_games():
    # Matching pennies is 0; a dominated row does not count; the face-down LP with one group per
    # play is backward induction (the responder sees the play) and with one group the matrix game.
    assert abs(matrix_game([[1, -1], [-1, 1]])) < 1e-9
    assert abs(matrix_game([[1, 2], [0, -5]]) - 1) < 1e-9
    assert abs(face_down_game([[[1, -1]], [[-1, 1]]]) + 1) < 1e-9
    assert abs(face_down_game([[[1, -1], [-1, 1]]])) < 1e-9
    # Thwart Omega 2x2: +1 with the default advantage, 0 without (Colosseum's solve_endgame gives
    # the same); Goofspiel 3 descending, win/loss: 0 by symmetry.
    assert abs(exact_value(load("thwart-omega", size=2).new_initial_state()) - 1) < 1e-9
    assert abs(exact_value(load("thwart-omega", size=2, advantage="none").new_initial_state())) < 1e-9
    assert abs(exact_value(load("goofspiel", cards=3, order="descending").new_initial_state())) < 1e-9


# CFR on the small variants for research: OpenSpiel's CFR+ (CFRPlusSolver) on the turn-based
# game for a stated number of iterations, its NashConv below a stated bound, and the value of
# its average policy within that NashConv of the exact value (exact_value: LPs over the same
# game), and of Colosseum's own solver where it applies (solve_endgame, for games of
# simultaneous decisions without chance: crates/ai/tests/openspiel_values.rs asserts these
# values). docs/openspiel.md has the table.
RESEARCH_VARIANTS = [
    # (game, options, CFR+ iterations, NashConv bound, Colosseum's solver or None)
    ("all-in-goofspiel", {"lowest": -1, "highest": 1, "target": 3}, 100, 0.01, None),
    ("square-goofspiel", {"size": 2, "draw": "fixed"}, 100, 0.1, 3 / 7),
    ("square-goofspiel", {"size": 2, "draw": "fixed", "advantage": "none"}, 100, 0.1, 0.0),
    ("galespiel", GALESPIEL_SMALL, 100, 0.05, None),
    # The Witch's Brew's endgame: Colosseum's own value is the games crate's backward induction
    # over the engine (witchs_brew/tests.rs, the_endgame_is_worth_one_half_to_p1); solve_endgame
    # does not apply (the stones are one-seat decisions). 40 iterations: its states are few but
    # heavy (an information state is the view of the whole game behind the position), so an
    # iteration costs about twice one of Galespiel's variant; 100 reach 0.01373 in about 80 s.
    ("witchs-brew", WITCHS_BREW_ENDGAME, 40, 0.05, 0.5),
]


def test_cfr_on_the_small_variants_beside_the_exact_value():
    for game_id, params, iterations, bound, solver_value in RESEARCH_VARIANTS:
        start = time.perf_counter()
        base = load(game_id, **params)
        exact = exact_value(base.new_initial_state())
        mid = time.perf_counter()
        game = pyspiel.convert_to_turn_based(base)
        solver = pyspiel.CFRPlusSolver(game)
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        conv = pyspiel.nash_conv(game, policy)
        value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0]
        end = time.perf_counter()
        solver = "" if solver_value is None else f", Colosseum's solver {solver_value:+.5f}"
        print(f"    CFR+ {game_id} {params}: {iterations} iterations, NashConv {conv:.5f} "
              f"(bound {bound}), value {value:+.5f}, exact {exact:+.5f}{solver} "
              f"(CFR+ {end - mid:.1f} s, exact {mid - start:.1f} s)")
        assert conv < bound, (game_id, params, conv)
        assert abs(value - exact) <= conv + 1e-6, (game_id, params, value, exact, conv)
        if solver_value is not None:
            assert abs(exact - solver_value) < 1e-6, (game_id, params, exact, solver_value)


def test_the_witchs_brew_ids_are_stable():
    # An id names the same move in every state where it is legal, and chance outcomes too.
    game = load("witchs-brew")
    names: dict[tuple[int, int], str] = {}
    rng = random.Random(11)
    intermission = 0

    def check(state):
        nonlocal intermission
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                n = state.action_to_string(pyspiel.PlayerId.CHANCE, a)
                assert names.setdefault((-1, a), n) == n, (a, n, names[(-1, a)])
            return
        for p in range(2):
            for a in state.legal_actions(p):
                assert 0 <= a < game.num_distinct_actions()
                n = state.action_to_string(p, a)
                # The same name for both seats and in every state.
                assert names.setdefault((0, a), n) == n, (a, n, names[(0, a)])
                if 534 <= a < 588:
                    intermission += 1

    for _ in range(3 if QUICK else 8):
        walk(game, rng, check)
    assert intermission > 0, "no Intermission assignment was seen"
    assert len(names) > 150, len(names)


def test_tensors_from_the_seats_view():
    rng = random.Random(3)
    for game_id, params in [
        ("goofspiel", {"cards": 5}),
        ("goofspiel", {"cards": 4, "order": "descending"}),
        ("square-goofspiel", {}),
        ("thwart-omega", {"size": 3}),
        ("all-in-goofspiel", {}),
        ("all-in-goofspiel", {"lowest": -1, "highest": 1, "target": 3}),
        ("square-goofspiel", {"size": 2}),
        ("galespiel", {}),
        ("galespiel", {"items": "elder-tree"}),
        ("witchs-brew", {}),
    ]:
        game = load(game_id, **params)
        # Galespiel's and The Witch's Brew's games are long: one each.
        games = 1 if game_id in ("galespiel", "witchs-brew") else 4
        by_info: dict[tuple[int, str], list[float]] = {}

        def check(state):
            for p in range(2):
                tensor = state.information_state_tensor(p)
                assert len(tensor) == game.information_state_tensor_size()
                assert len(state.observation_tensor(p)) == game.observation_tensor_size()
                # One information state, one tensor; and different seats see different tensors
                # only through their own perspective (checked by random_sim_test's sizes).
                key = (p, state.information_state_string(p))
                assert by_info.setdefault(key, list(tensor)) == list(tensor), (game_id, key)

        for _ in range(games):
            walk(game, rng, check)
    # Goofspiel 3 descending: after p1 bids 3 and p2 bids 1, p1's tensor has the prize 3 turn
    # with its own bid 3 and the other's 1 (own seat first).
    s = load("goofspiel", cards=3, order="descending").new_initial_state()
    s.apply_actions([2, 0])
    n = 3
    t1, t2 = s.information_state_tensor(0), s.information_state_tensor(1)
    turn = 4 * n + 2
    assert t1[turn:turn + 3 * n] == [0, 0, 1, 0, 0, 1, 1, 0, 0], t1
    assert t2[turn:turn + 3 * n] == [0, 0, 1, 1, 0, 0, 0, 0, 1], t2
    assert t1[4 * n] == 3 and t2[4 * n + 1] == 3  # p1 took 3 points


def test_all_in_goofspiel_tensors_hide_the_face_down_cards():
    # Hands -1..1 (k = 3). p1 puts down 1 face down: its own tensors show it, p2's do not depend
    # on which card it is.
    game = load("all-in-goofspiel", lowest=-1, highest=1, target=3)
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_action(1 + 4)  # the single card 1
    b.apply_action(0 + 4)  # the single card 0
    k, rounds = 3, 11
    assert a.observation_tensor(1) == b.observation_tensor(1)
    assert a.information_state_tensor(1) == b.information_state_tensor(1)
    assert a.observation_tensor(0) != b.observation_tensor(0)
    obs = a.observation_tensor(0)
    count = 2 * k + 2 + rounds + 1
    assert obs[count:count + k + 1] == [0, 1, 0, 0], obs  # one card face down
    own = obs[count + k + 1:]
    assert own[:k] == [0, 0, 1], own  # the first face-down card is 1 (cards -1, 0, 1)
    # p2 answers 0; the round is public: both seats' information states hold it, own seat first.
    a.apply_action(0 + 4)
    t1, t2 = a.information_state_tensor(0), a.information_state_tensor(1)
    start = game.observation_tensor_size()
    r1, r2 = t1[start:start + 1 + 2 * k * k], t2[start:start + 1 + 2 * k * k]
    assert r1[0] == 1 and r2[0] == 0  # p1 started round 1
    assert r1[1:1 + k] == [0, 0, 1] and r1[1 + k * k:1 + k * k + k] == [0, 1, 0], r1
    assert r2[1:1 + k] == [0, 1, 0] and r2[1 + k * k:1 + k * k + k] == [0, 0, 1], r2
    assert t1[2 * k] == 1 and t2[2 * k + 1] == 1  # p1 took round 1's point


def test_galespiel_tensors_hide_the_cycle_order():
    # Two prize orders with the same first prize look the same to both seats (no Crystal Ball):
    # their observation strings and tensors agree; the game knows them apart.
    game = load("galespiel")
    root = game.new_initial_state()
    by_view: dict[str, int] = {}
    pair = None
    for a, _ in root.chance_outcomes():
        child = root.child(a)
        key = child.observation_string(0) + child.observation_string(1)
        if key in by_view:
            pair = (by_view[key], a)
            break
        by_view[key] = a
    assert pair is not None
    a, b = (root.child(x) for x in pair)
    assert str(a) != str(b) or a.history() != b.history()
    for p in range(2):
        assert a.observation_tensor(p) == b.observation_tensor(p)
        assert a.information_state_tensor(p) == b.information_state_tensor(p)
    # A round: p1 bids its highest card, p2 its lowest; p1's tensor has its own bid first.
    while a.is_chance_node() or not a.is_simultaneous_node():
        a.apply_action(a.chance_outcomes()[0][0] if a.is_chance_node() else a.legal_actions()[0])
    a.apply_actions([max(a.legal_actions(0)), min(a.legal_actions(1))])
    t1, t2 = a.observation_tensor(0), a.observation_tensor(1)
    assert t1 != t2
    assert len(t1) == game.observation_tensor_size()


def test_galespiel_small_variant():
    # The 5x5 lattice with the fixed draw: no chance, the seed's action ids over its 5 spots
    # (36 + spot builds one bridge, named on the small lattice), the cards 1 2 3 (164 + 2^3 ids).
    game = load("galespiel", **GALESPIEL_SMALL)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game.num_distinct_actions() == 164 + 8
    assert game.max_chance_outcomes() == 0
    state = game.new_initial_state()
    assert state.is_simultaneous_node()
    assert state.legal_actions(0) == [2, 4, 6]  # the bids 1, 2, 3 (2 + 2 * slot)
    state.apply_actions([6, 2])  # p1 bids 3, p2 bids 1: p1 takes 3 M (p2's Scavenge: +2 M)
    assert state.current_player() == 0
    builds = state.legal_actions(0)
    assert [state.action_to_string(0, a) for a in builds] == ["done", "b2", "d2", "b4", "d4"]
    state.apply_action(36 + 0)  # b2
    assert state.is_simultaneous_node() and state.legal_actions(0) == [2, 4]
    assert '"b2"' in state.observation_string(1)


def test_witchs_brew_endgame():
    # The last round of a seed game: no chance, p1 holds 1 8 8 and p2 4 8 8 (Duplicards used),
    # nine empty cells; p2 wins equal values (it lost round 11).
    game = load("witchs-brew", **WITCHS_BREW_ENDGAME)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game.max_chance_outcomes() == 0 and game.num_distinct_actions() == 589
    assert game.max_game_length() == 6
    state = game.new_initial_state()
    assert state.is_simultaneous_node()
    assert state.legal_actions(0) == [0, 62] and state.legal_actions(1) == [16, 62]
    assert [state.action_to_string(0, a) for a in (0, 62, 16)] == ["1", "8", "4"]
    view = state.observation_string(0)
    assert '"placement_round":12' in view.replace(" ", ""), view[:200]
    state.apply_actions([0, 62])  # p1's Snipe beats p2's Diminish
    assert state.current_player() == 0
    empty = ["d4", "e4", "g4", "a5", "d5", "g5", "c6", "f6", "g6"]
    assert sorted(state.action_to_string(0, a) for a in state.legal_actions(0)) == sorted(empty)
    for p, cell in [(0, "d4"), (1, "e4"), (0, "c6")]:
        assert state.current_player() == p
        state.apply_action(126 + cell_id(cell))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    # Equal values go to p2; p1 completing 2A at d4 holds the draw against p2's 2B and 3F.
    state = game.new_initial_state()
    state.apply_actions([62, 62])
    for p, cell in [(1, "e4"), (0, "d4"), (1, "g4")]:
        assert state.current_player() == p
        state.apply_action(126 + cell_id(cell))
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def cell_id(name: str) -> int:
    """The Witch's Brew's cell number, row * 7 + column (a1 = 0)."""
    return (int(name[1]) - 1) * 7 + ord(name[0]) - ord("a")


def test_information_states_are_cached_not_replayed():
    # A long game: asking every seat's information state at every node stays fast (was a
    # replay of the whole history on every call).
    game = load("witchs-brew")
    rng = random.Random(5)
    start = time.perf_counter()
    calls = 0

    def check(state):
        nonlocal calls
        for p in range(2):
            state.information_state_string(p)
            calls += 1

    walk(game, rng, check)
    secs = time.perf_counter() - start
    print(f"    The Witch's Brew: {calls} information-state calls in one game, {secs:.2f} s")
    assert secs < 20, secs


TESTS = [v for k, v in sorted(globals().items()) if k.startswith("test_")]

if __name__ == "__main__":
    passed = failed = 0
    for test in TESTS:
        start = time.perf_counter()
        try:
            test()
        except Exception:
            failed += 1
            print(f"FAIL {test.__name__}")
            traceback.print_exc()
        else:
            passed += 1
            print(f"ok   {test.__name__} ({time.perf_counter() - start:.1f} s)")
        sys.stdout.flush()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
