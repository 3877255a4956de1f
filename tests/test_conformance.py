"""Conformance: one set of checks run over every registered game and the Nim test game (tests/nim).

For each game, seeded random playouts go to the end (real-time Gobble through ``Match.advance`` and
its timers, Tokami's physics outcomes from its driver) and after every action:

* the rules' invariants hold;
* every action ``legal_actions`` lists is accepted by ``check``; actions made by mutating a legal one
  (a value changed, a key dropped or added, a bad type) are either listed as legal or refused with
  ``IllegalAction`` (never another exception), and ``Match.submit`` leaves the match unchanged; a
  player who may not act is refused, and so is everything once the game is over;
* wherever ``Match.can_undo()``, undo then redo gives back the same record and state, the undone state
  equals a fresh replay of the shorter log, and the policy holds (never across chance, physics, a timer
  or another player's action; never in real-time games);
* ``observe()`` hides each game's secrets (:data:`SECRETS`): a secret re-dealt changes the observation
  of the seat that owns it and of no other seat; piles that no seat may see in order are kept without
  an order (each draw is chance).

Finished playouts go through ``to_record`` / ``from_record`` and a ``save`` / ``load`` file round trip
and must replay to the same state. Each game's screen and set-up dialog take random input through
``sim.app.fuzz`` (hostile input too: extreme wheel deltas, hostile text, key floods, focus and letterbox
events, window sizes from 1x1 to 8K) with the invariants checked after every frame.
"""
from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, replace
from typing import Any, Callable

import pytest

from sim.core import record, registry
from sim.core.match import Match
from sim.core.rules import CHANCE, CLOCK, PHYSICS, IllegalAction

NIM = "nim"


@pytest.fixture(scope="module", autouse=True)
def nim_registered():
    """The Nim test game is registered for this module only."""
    undo = registry.register(NIM, "nim:SPEC")
    yield
    undo()


GAMES = [n for n in registry.game_names() if n != NIM] + [NIM]


@dataclass(frozen=True)
class Case:
    """How a game is played out here: its config, the seeds, and a cap on actions per playout."""

    config: dict | None
    seeds: tuple[int, ...]
    cap: int = 3000
    #: this share of the players' moves is made by the game's bot at ``level`` (to reach late phases,
    #: e.g. Streetcar's trips), the rest are uniformly random legal actions
    bot: float = 0.0
    level: str = ""


CASES: dict[str, Case] = {
    "gobble-solitaire": Case(None, (1, 2, 3)),
    "gobble": Case({"players": 3}, (1, 2)),
    "tumbleweed": Case({"size": 5}, (1, 2, 3)),
    "tokami": Case({"players": 2, "rounds": 1}, (4,), cap=600),
    "streetcar": Case({"players": 3}, (1, 2, 3), bot=0.7, level="easy"),
    "tomtube": Case(None, (1, 2, 3), bot=0.9, level="bot"),
    NIM: Case({"heaps": [2, 3, 4], "misere": True, "first": "random"}, (1, 2, 3, 4)),
}


def canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True)


# ------------------------------------------------------------------------------------- drivers
def _tokami_physics(state: Any, rng: random.Random) -> dict:
    """The PHYSICS outcome of the current Tokami phase from its driver: the settle, or a short plan
    (grab, a nudge up or aside, release) for the held stick in a raise or draw."""
    from games.tokami import driver
    if state.phase == "settle":
        return driver.settle_action(state)
    plan: list[list] = [["grab"]]
    if rng.random() < 0.7:
        _, _, x, y, a = state.poses[state.held]
        plan.append(["center", x + rng.uniform(-30, 30), y + rng.uniform(0, 40), a])
    plan.append(["release"])
    return driver.run_plan(state, plan)


def random_step(match: Match, rng: random.Random, bots: dict | None = None,
                bot_share: float = 0.0) -> tuple[int, dict] | None:
    """Make one random move in ``match``: a random legal action of an active player (a physics
    outcome from the game's driver), or in a real-time game sometimes only let time pass; with
    ``bots`` (seat -> agent), a ``bot_share`` of the moves are the bot's. Returns the (player, action)
    submitted, or None when only time passed."""
    rules = match.rules
    if rules.info.realtime:
        players = match.active_players()
        if rng.random() < 0.25 or not players:
            match.advance(rng.choice((0.05, 0.5, 2.0, 6.0)))
            return None
        p = rng.choice(players)
        acts = rules.legal_actions(rules.at_time(match.state, match.time), p)
        if not acts:
            match.advance(0.5)
            return None
        places = [a for a in acts if a.get("t") == "place"]
        a = rng.choice(places if places and rng.random() < 0.8 else acts)
        match.submit(p, a)
        match.advance(rng.choice((0.0, 0.01, 0.2)))
        return p, a
    p = match.active_players()[0]
    if p == PHYSICS:
        a = _tokami_physics(match.state, rng)
    elif bots and p in bots and rng.random() < bot_share:
        a = bots[p].select_action(rules, match.state, p)
    else:
        a = rng.choice(rules.legal_actions(match.state, p))
    match.submit(p, a)
    return p, a


def playout(name: str, seed: int, each: Callable[[Match, tuple[int, dict] | None, Any], None] | None = None) -> Match:
    """A whole seeded random playout of ``name`` with its :data:`CASES` config; ``each(match, move,
    state_before)`` runs after every step. Fails if the game has not ended within the cap."""
    case = CASES[name]
    spec = registry.get_spec(name)
    match = Match(spec.make_rules(), case.config, seed)
    rng = random.Random(f"conformance/{name}/{seed}")
    bots = {}
    if case.bot:
        n = match.rules.info.max_players if not isinstance(match.config.get("players"), int) else match.config["players"]
        bots = {i: spec.make_bot(i, case.level, seed * 8 + i) for i in range(n)}
    for _ in range(case.cap):
        if match.is_over():
            break
        before = match.state
        move = random_step(match, rng, bots, case.bot)
        if each is not None:
            each(match, move, before)
    assert match.is_over(), f"{name} seed {seed}: not over after {case.cap} steps"
    return match


# ------------------------------------------------------------------------------------ playouts
@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_end_with_invariants_after_every_action(name):
    for seed in CASES[name].seeds:
        seen = [0]

        def each(m, move, before):
            for st in m.states[seen[0] + 1: m.cursor + 1]:  # every state since the last step, chance too
                assert m.rules.invariants(st) == [], (name, seed, len(m.log))
            seen[0] = m.cursor
        m = playout(name, seed, each)
        assert seen[0] == len(m.log) > 0
        assert m.rules.invariants(m.state) == []
        assert m.active_players() == []
        out = m.outcome()
        json.dumps(out)  # JSON-compatible


# ------------------------------------------------------------------------ legal and illegal
def mutations(action: Any) -> list[Any]:
    """Actions made from a legal one: each value changed (out of range, a wrong type), each key
    dropped, a key added; and the action wrapped in a list."""
    out: list[Any] = [[action], {**action, "zz": 1}]
    for k, v in action.items():
        out.append({x: y for x, y in action.items() if x != k})
        if isinstance(v, bool):
            out += [{**action, k: int(v)}, {**action, k: None}]
        elif isinstance(v, int):
            out += [{**action, k: v + 1000}, {**action, k: -1000 - v}, {**action, k: str(v)},
                    {**action, k: v + 0.5}, {**action, k: None}, {**action, k: True}]
        elif isinstance(v, float):
            out += [{**action, k: float("nan")}, {**action, k: None}, {**action, k: "x"}]
        elif isinstance(v, str):
            out += [{**action, k: v + "?"}, {**action, k: 7}, {**action, k: None}]
        else:
            out += [{**action, k: None}, {**action, k: 3}, {**action, k: "x"}]
    return out


def snapshot(m: Match) -> tuple:
    """Everything a refused action must leave as it was."""
    return canon(record.to_record(m)), m.cursor, len(m.states), m.time, id(m.state)


def seat_count(m: Match) -> int:
    n = m.config.get("players") if isinstance(m.config, dict) else None
    return n if isinstance(n, int) else m.rules.info.max_players


def at_now(m: Match) -> Any:
    return m.rules.at_time(m.state, m.time) if m.rules.info.realtime else m.state


def check_legality(m: Match, rng: random.Random, where: str) -> dict[int, list[dict]]:
    """The legal/illegal checks in the current position (see the module doc); returns a sample of
    the legal actions per player."""
    rules, st = m.rules, at_now(m)
    active = [p for p in m.active_players() if p != CHANCE]
    sample: dict[int, list[dict]] = {}
    for p in active:
        if p == PHYSICS:
            continue
        legal = rules.legal_actions(st, p)
        listed = {canon(a) for a in legal}
        assert len(listed) == len(legal), f"{where}: legal_actions lists an action twice"
        for a in rng.sample(legal, min(len(legal), 150)):
            rules.check(st, p, a)  # raises IllegalAction if a listed action is refused
        picked = rng.sample(legal, min(len(legal), 2))
        sample[p] = picked
        for a in picked:
            for b in mutations(a):
                try:
                    rules.check(st, p, b)
                except IllegalAction:
                    continue
                assert isinstance(b, dict) and canon(b) in listed, \
                    f"{where}: check accepts {b!r}, which legal_actions does not list"
        if picked:
            bad = next((b for b in mutations(picked[0]) if not (isinstance(b, dict) and canon(b) in listed)), None)
            before = snapshot(m)
            with pytest.raises(IllegalAction):
                m.submit(p, bad)
            assert snapshot(m) == before, f"{where}: a refused action changed the match"
    # players who may not act now, and the special players
    acts = next((a for a in sample.values() if a), None)
    if acts:
        others = [q for q in range(seat_count(m) + 1) if q not in m.active_players()] + [CHANCE, CLOCK]
        for q in others:
            before = snapshot(m)
            with pytest.raises(IllegalAction):
                m.submit(q, acts[0])
            assert snapshot(m) == before
            if q >= 0:
                with pytest.raises(IllegalAction):
                    rules.check(st, q, acts[0])
    return sample


@pytest.mark.parametrize("name", GAMES)
def test_legal_actions_accepted_and_illegal_ones_refused(name):
    seed = CASES[name].seeds[0]
    rng = random.Random(f"legal/{name}")
    last: dict = {}

    def each(m, move, before):
        if not m.is_over():
            last.update(check_legality(m, rng, f"{name} seed {seed} action {len(m.log)}"))
    m = playout(name, seed, each)
    assert last, f"{name}: no position with a legal action was checked"
    # after the end, nothing is legal
    for p, acts in last.items():
        assert m.rules.legal_actions(m.state, p) == []
        for a in acts:
            before = snapshot(m)
            with pytest.raises(IllegalAction):
                m.rules.check(at_now(m), p, a)
            with pytest.raises(IllegalAction):
                m.submit(p, a)
            assert snapshot(m) == before


# ------------------------------------------------------------------------------------ records
def replayed(rec: dict) -> Match:
    return record.from_record(json.loads(json.dumps(rec)))


@pytest.mark.parametrize("name", GAMES)
def test_record_save_load_replay_equality(name, tmp_path):
    for seed in CASES[name].seeds[:2]:
        m = playout(name, seed)
        rec = record.to_record(m)
        m2 = replayed(rec)
        assert m2.state == m.state and m2.log == m.log and m2.outcome() == m.outcome()
        assert canon(record.to_record(m2)) == canon(rec)
        path = tmp_path / f"{name}-{seed}.json"
        record.save(m, path)
        m3 = record.load(path, expect_game=name)
        assert m3.state == m.state and canon(record.to_record(m3)) == canon(rec)
        # every prefix of the log replays to the state the match had there (chance due at the end of a
        # prefix is drawn again from the seed, so it lands on a later state of the same match)
        rng = random.Random(seed)
        for k in sorted(rng.sample(range(len(m.log) + 1), min(8, len(m.log) + 1))):
            part = replayed({**rec, "actions": rec["actions"][:k], "cursor": k})
            assert part.log == m.log[: part.cursor] and part.state == m.states[part.cursor], (name, seed, k)
        # a tampered record is refused with a reason
        if rec["actions"]:
            bad = copy.deepcopy(rec)
            bad["actions"][-1][0] = 99
            with pytest.raises(record.RecordError):
                record.from_record(bad)


# --------------------------------------------------------------------------------------- undo
@pytest.mark.parametrize("name", GAMES)
def test_undo_redo_round_trips_and_policy(name):
    rounds = [0]
    for seed in CASES[name].seeds[:2]:
        rng = random.Random(f"undo/{name}/{seed}")

        def each(m, move, before):
            if not m.log or m.cursor != len(m.log):
                return
            last = m.log[-1]
            if m.rules.info.realtime or last["p"] in (CHANCE, PHYSICS, CLOCK) or m.is_over():
                assert not m.can_undo() and not m.undo(), f"{name}: undo across {last['p']} or in real time"
                return
            if not m.can_undo():
                return
            for q in range(seat_count(m)):
                if q != last["p"]:
                    assert not m.can_undo(q), f"{name}: seat {q} may undo seat {last['p']}'s action"
            rec, st = canon(record.to_record(m)), m.state
            assert m.undo(last["p"]) and m.can_redo()
            undone = record.to_record(m)
            if rng.random() < 0.3:  # the undone position is what the shorter log replays to
                fresh = replayed({**undone, "actions": undone["actions"][: m.cursor]})
                assert fresh.state == m.state and fresh.cursor == m.cursor
            assert replayed(undone).state == m.state  # the record with its redo tail loads there too
            assert m.redo()
            assert canon(record.to_record(m)) == rec and m.state is st \
                and m.state == replayed(record.to_record(m)).state
            rounds[0] += 1
        playout(name, seed, each)
    info = registry.get_spec(name).make_rules().info
    if name in ("tumbleweed", "tomtube", "streetcar", "gobble-solitaire", NIM):
        assert rounds[0] > 0, f"{name}: no undo was tried"
    if info.realtime or name == "tokami":
        assert rounds[0] == 0


# ------------------------------------------------------------------------------------ secrets
def _gobble_redeal(s: Any, seat: int, rng: random.Random) -> Any:
    """Seat ``seat``'s top (revealed) pile tile swapped with a face-down one further down."""
    pile = list(s.seats[seat].pile)
    deep = [i for i in range(s.hand, len(pile)) if pile[i] != pile[0]]
    if not deep:
        return None
    j = rng.choice(deep)
    pile[0], pile[j] = pile[j], pile[0]
    seats = list(s.seats)
    seats[seat] = replace(seats[seat], pile=tuple(pile))
    return replace(s, seats=tuple(seats))


def _gobble_hidden(s: Any, rng: random.Random) -> Any:
    """Every pile's face-down part shuffled: nobody may see it."""
    seats = []
    for st in s.seats:
        rest = list(st.pile[s.hand:])
        rng.shuffle(rest)
        seats.append(replace(st, pile=st.pile[: s.hand] + tuple(rest)))
    return replace(s, seats=tuple(seats))


def _streetcar_redeal(s: Any, seat: int, rng: random.Random) -> Any:
    """Seat ``seat`` given another line and route card."""
    from games.streetcar.data import route_cards_for, stops_of
    st = s.seats[seat]
    if not st.line:
        return None
    line = st.line % 6 + 1
    card = rng.choice([c for c in route_cards_for(s.players) if c != st.card])
    seats = list(s.seats)
    seats[seat] = replace(st, line=line, card=card, stops=stops_of(card, line))
    return replace(s, seats=tuple(seats))


def _streetcar_hidden(s: Any, rng: random.Random) -> Any:
    """The lines and route cards still in the box, another way round: nobody may see them."""
    return replace(s, lines_left=tuple(reversed(s.lines_left)), cards_left=tuple(reversed(s.cards_left)))


@dataclass(frozen=True)
class Secrets:
    """What a game keeps from its seats. ``redeal(state, seat, rng)``: the state with that seat's secret
    dealt otherwise (None if there is nothing to re-deal now); ``public(state, seat)``: whether that
    seat's secret is shown to all by now; ``hidden(state, rng)``: the state with what no seat may see
    changed; ``unordered(state)``: piles kept as sets (no draw order in the state)."""

    redeal: Callable[[Any, int, random.Random], Any] | None = None
    public: Callable[[Any, int], bool] = lambda s, seat: False
    hidden: Callable[[Any, random.Random], Any] | None = None
    unordered: Callable[[Any], list] = lambda s: []


SECRETS: dict[str, Secrets] = {
    # the bag is drawn by chance; the one player sees all else
    "gobble-solitaire": Secrets(unordered=lambda s: [s.bag]),
    # each seat sees only its own revealed tiles; piles are face down, the bag is drawn by chance
    "gobble": Secrets(redeal=_gobble_redeal, hidden=_gobble_hidden, unordered=lambda s: [s.bag]),
    "tumbleweed": Secrets(),                       # perfect information
    "tokami": Secrets(),                           # colours are dealt by chance and seen by all
    # line and route cards are secret until their seat drives; the pile is counts per tile
    "streetcar": Secrets(redeal=_streetcar_redeal, public=lambda s, seat: s.seats[seat].driving,
                         hidden=_streetcar_hidden),
    "tomtube": Secrets(unordered=lambda s: [s.stack]),  # rhombs drawn by chance
    NIM: Secrets(),
}


def test_every_game_declares_its_secrets():
    assert set(SECRETS) == set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_observe_hides_what_a_seat_must_not_see(name):
    sec = SECRETS[name]
    rules = registry.get_spec(name).make_rules()
    observe = getattr(rules, "observe", None)
    if sec.redeal is not None or sec.hidden is not None:
        assert observe is not None, f"{name} has secrets but no observe()"
    counts = {"redealt": 0, "public": 0}
    for seed in CASES[name].seeds[:2]:
        rng = random.Random(f"secrets/{name}/{seed}")

        def each(m, move, before):
            s = m.state
            for pile in sec.unordered(s):
                assert list(pile) == sorted(pile), f"{name}: a pile keeps an order that draws would follow"
            if observe is None or rng.random() < 0.5:
                return
            n = seat_count(m)
            views = [canon_view(observe(s, q)) for q in range(n)]
            if sec.hidden is not None:
                s2 = sec.hidden(s, rng)
                assert [canon_view(observe(s2, q)) for q in range(n)] == views, f"{name}: a hidden part shows"
            for seat in range(n):
                s2 = sec.redeal(s, seat, rng) if sec.redeal else None
                if s2 is None:
                    continue
                after = [canon_view(observe(s2, q)) for q in range(n)]
                assert after[seat] != views[seat], f"{name}: seat {seat} does not see its own secret"
                if sec.public(s, seat):
                    counts["public"] += 1
                    assert all(a != v for a, v in zip(after, views)), f"{name}: a public card is hidden"
                else:
                    counts["redealt"] += 1
                    for q in range(n):
                        if q != seat:
                            assert after[q] == views[q], f"{name}: seat {q} sees seat {seat}'s secret"
        playout(name, seed, each)
    if sec.redeal is not None:
        assert counts["redealt"] > 10
    if name == "streetcar":
        assert counts["public"] > 0  # cards shown once a tram drives


def canon_view(view: Any) -> Any:
    """A comparable form of an observation (a dict as JSON; a state as it is)."""
    return canon(view) if isinstance(view, (dict, list)) else view


# --------------------------------------------------------------------------------------- fuzz
#: The match each game's screen is fuzzed on: every seat at this machine (the random input plays them
#: all), except where a bot seat is the point (Nim's bot answers on the frame).
SCREENS: dict[str, dict | None] = {
    "gobble-solitaire": None,
    "gobble": {"players": 2, "seats": ["human", "bot:easy"]},
    "tumbleweed": {"size": 6, "seats": ["human", "human"]},
    "tokami": {"players": 2, "seats": ["human", "human"], "rounds": 1},
    "streetcar": {"players": 2, "seats": ["human", "human"]},
    "tomtube": {"seats": ["human", "human"]},
    NIM: {"heaps": [3, 4, 5], "seats": ["human", "bot:perfect"]},
}
FUZZ_EVENTS = 2000


def _tokami_spots(scene: Any) -> list:
    """Points worth clicking on the Tokami screen: the front faces of the sticks (the held one first),
    so random presses and drags take sticks and move them."""
    from games.tokami import draw
    s = scene.match.state
    ids = ([s.held] if getattr(s, "held", None) in s.poses else []) or sorted(s.poses)[:12]
    return [scene.proj.to_screen(s.poses[i][2], s.poses[i][3], draw.depth_range(s.poses[i])[0]) for i in ids]


#: ``spots(scene)``: logical points the fuzz aims at for a quarter of its presses (see ``fuzz_scene``).
HOTSPOTS: dict[str, Callable[[Any], list]] = {"tokami": _tokami_spots}


def _fuzz_check(app, frames: list[int], shown: list, nudge: random.Random | None = None):
    """After every frame: the invariants hold in the match of the game screen being fuzzed (``shown[0]``,
    followed into new games) or else the one the app last started, and every 10th frame a second draw
    leaves that match exactly as it was (drawing never changes state). With ``nudge``, every 20th
    frame a seat at this machine whose move it is makes a random legal move, so the screen is fuzzed
    in later phases of the game too."""
    from sim.app import widgets

    def cut_labels() -> list[str]:
        """Labels the frames drawn since the last call cut, or ran over a card's edge."""
        cut = sorted({t for t, _w in widgets.CLIPPED})
        for scene in list(app.stack):
            kit = getattr(scene, "kit", None) or getattr(scene, "_kit", None)
            if kit is not None:
                cut += [f"over an edge: {t!r}" for t, _r in kit.overflow()]
        widgets.CLIPPED.clear()
        return cut

    def check():
        frames[0] += 1
        top = app.top
        if shown and type(top) is type(shown[0]):
            shown[0] = top
        cut = cut_labels()
        assert not cut, cut
        m = getattr(shown[0], "match", None) if shown else app.match
        if m is None:
            return
        assert m.rules.invariants(m.state) == [], m.rules.invariants(m.state)
        if frames[0] % 10 == 0:
            before = snapshot(m)
            app.draw()
            assert snapshot(m) == before, "drawing changed the match"
            cut = cut_labels()
            assert not cut, cut
        if nudge is not None and frames[0] % 20 == 0 and not m.is_over() and m.cursor == len(m.log):
            seats = m.config.get("seats") or ["human"] * 6
            players = [p for p in m.active_players() if 0 <= p < len(seats) and seats[p] == "human"]
            acts = m.rules.legal_actions(at_now(m), players[0]) if players else []
            if acts:
                m.submit(players[0], nudge.choice(acts))
        frames.append(len(m.log))
    return check


def test_every_game_has_a_fuzzed_screen():
    assert set(SCREENS) == set(GAMES)


@pytest.fixture
def fit_checked(monkeypatch):
    """The UI kit keeps what it draws, so the fuzz checks fail on any label cut or over a card's edge."""
    from sim.app import widgets
    monkeypatch.setattr(widgets, "CHECK_FIT", True)
    widgets.CLIPPED.clear()
    yield
    widgets.CLIPPED.clear()


@pytest.mark.parametrize("name", GAMES)
def test_fuzz_game_screen(name, app, fit_checked):
    from sim.app.fuzz import fuzz_scene
    from sim.app.launcher import LauncherScene

    spec = registry.get_spec(name)
    app.push(LauncherScene(app))
    match = Match(spec.make_rules(), SCREENS[name], 11)
    scene = app.start_match(spec, match)
    frames: list[int] = [0]
    shown = [scene]
    spots = HOTSPOTS.get(name)
    stats = fuzz_scene(app, FUZZ_EVENTS, seed=5, check=_fuzz_check(app, frames, shown, random.Random(name)), follow=True,
                       events_per_frame=6, hotspots=(lambda: spots(shown[0])) if spots else None, hostile=True)
    assert stats["events"] == FUZZ_EVENTS and frames[0] == stats["frames"] and stats["resizes"] > 0
    assert type(app.top) is type(scene) and shown[0].match is not None
    assert max(frames[1:]) > 0, f"{name}: the random input never made a move"
    print(name, stats, "most actions", max(frames[1:]))


@pytest.mark.parametrize("name", [n for n in registry.game_names() if registry.get_spec(n).make_setup is not None])
def test_fuzz_setup_dialog(name, app, fit_checked):
    from sim.app.fuzz import fuzz_scene
    from sim.app.launcher import LauncherScene

    spec = registry.get_spec(name)
    app.push(LauncherScene(app))
    dialog = app.push(spec.make_setup(app, spec))
    frames: list[int] = [0]
    stats = fuzz_scene(app, FUZZ_EVENTS, seed=9, check=_fuzz_check(app, frames, []), scene=dialog,
                       events_per_frame=6, hostile=True)
    assert stats["events"] == FUZZ_EVENTS and stats["resizes"] > 0
    assert stats["repushed"] > 0, f"{name}: the dialog never started a game"  # Start was pressed
    print(name, stats)
