"""``hard``: search over samples consistent with the view (see :mod:`briscola.ai.search`).

:meth:`HardBot.evaluate` is the search itself: every candidate line in every sample, with
the mean utility and the mean final points of the seat's side per line
(:class:`Evaluation`); :meth:`HardBot.choose` turns it into a move (medium's move unless
the search shows a clear gain). The coach (:mod:`briscola.coach`) reads the same
evaluation.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Final

from briscola.ai.knowledge import Knowledge, partner_probabilities
from briscola.ai.learned import learned_action, network_for, play_rows
from briscola.ai.medium import direction_value, medium_action
from briscola.ai.search.core import Game, SearchRules, mask_of, play, utility
from briscola.ai.search.inference import GREEDY, HISTORY, NOISE, TEMPERATURE, History, Model
from briscola.ai.search.rollout import finish
from briscola.ai.search.sampling import (
    deal_of,
    enumerate2,
    from_engine,
    likelihood,
    sample_hands,
    sides_of,
)
from briscola.ai.signals import partner_direction
from briscola.engine import Action, Card, Play, PlayerView, Rules, Swap

__all__ = [
    "DEFAULT_BUDGET",
    "FORMER_BUDGET",
    "TEAM_VETO",
    "TWO_PLAYER_VETO",
    "Evaluation",
    "HardBot",
]

#: Work units per move by player count: tuned to about 250 ms per move at the 95th
#: percentile on one core for two players, 300 ms for five (measured: docs/ai.md). Two
#: players: 70 000 since the search was made cheaper per work unit (issue 51), 2.5 times
#: the 28 000 of :data:`FORMER_BUDGET` in the same time a move.
DEFAULT_BUDGET: Final[dict[int, int]] = {2: 70000, 3: 20000, 4: 30000, 5: 40000, 6: 30000}

#: The budgets before that (``former_budget``: the sparring pool's hard as it was).
FORMER_BUDGET: Final[dict[int, int]] = {2: 28000, 3: 20000, 4: 30000, 5: 40000, 6: 30000}

#: In team games the search must beat the learned medium's card by two standard errors:
#: against the learned medium's teams (teams4, 300 deals) 0.539 [0.519, 0.559], where the
#: hand-written rules on one standard error scored 0.494 [0.459, 0.529] (docs/ai.md). The
#: same with three players: one hard seat against two learned mediums won 0.373 [0.354,
#: 0.393] of the hands, 0.333 [0.305, 0.362] on the hand-written rules (300 deals).
TEAM_VETO: Final[tuple[str, float]] = ("learned", 2.0)

#: Samples before a search may stop early (``settle``), and then every eight.
SETTLE_AFTER: Final = 32

#: With two players the search must beat the learned medium's card by one standard error,
#: and weighs its samples by policy-based inference: against the learned medium 0.556
#: [0.530, 0.582] over 500 deals, where the hand-written rules with the trick factors
#: scored 0.533 [0.505, 0.562]; against the rule player 0.763 (0.728) (docs/ai.md).
TWO_PLAYER_VETO: Final[tuple[str, float]] = ("learned", 1.0)

#: Two players: the stock's size at or below which a search keeps the rollout policy's card
#: in each position it meets (:func:`.rollout.finish`'s ``choices``): near the end of the
#: stock the samples are many and meet the same positions again; earlier they seldom do,
#: and the keeping costs more than it saves. Time only: the moves are the same.
CHOICES_AT = 6

#: Cards left at which the rest of a hand is solved exactly, by player count.
_SOLVE_AT: Final[dict[int, int]] = {2: 8, 3: 6, 4: 8, 5: 10, 6: 12}


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What one search found. Line ``i`` is ``lines[i]``: an optional swap, then a card
    (``Card.index``). Sums are weighted by each sample's likelihood (``weight``)."""

    lines: tuple[tuple[Swap | None, int], ...]
    #: Per line: the weighted sum of utilities, and of the final points of the seat's side.
    utility_sums: tuple[float, ...]
    points_sums: tuple[float, ...]
    #: Per line: weighted sums of (utility - utility of the default line), and its squares.
    diff_sums: tuple[float, ...]
    diff2_sums: tuple[float, ...]
    weight: float
    weight2: float
    #: The line medium would play.
    default: int
    #: Solved or enumerated: no sampling noise.
    exact: bool
    samples: int
    #: How many standard errors a line must gain over the default one to be played.
    confidence: float = 1.0
    #: Per line: the learned evaluation's estimate of its utility, relative to the
    #: position's average card (empty: no estimate; the veto decides), and the standard
    #: error that estimate is given when it is blended with the search's (``blend``).
    prior: tuple[float, ...] = ()
    prior_error: float = 0.0

    def utility(self, i: int) -> float:
        """Mean utility of line ``i`` (win chance plus a small margin term)."""
        return self.utility_sums[i] / self.weight if self.weight else 0.0

    def points(self, i: int) -> float:
        """Expected final points of the seat's side after line ``i``."""
        return self.points_sums[i] / self.weight if self.weight else 0.0

    def label(self, i: int) -> str:
        """``"7B"``, or ``"swap 7B KB"`` for a line that swaps first."""
        swap_action, card = self.lines[i]
        return (str(swap_action) + " " if swap_action else "") + Card.from_index(card).code


class HardBot:
    """Search over samples consistent with the view (see :mod:`briscola.ai.search`).

    Options: ``budget`` (work units per move; fixed, reproducible), ``time_limit`` (seconds;
    a clock on top of the budget), ``inference`` (weight samples by the other seats' plays:
    ``"tricks"`` or True, two hand-set factors on the last trick and, in Chiamata, medium's
    partner odds; ``"policy"``, the likelihood of their recent plays under the rollout
    policy, :mod:`.inference`; False or 0, none; ``"auto"``, the default: policy with two
    players who need not follow suit, tricks elsewhere, as measured: docs/ai.md),
    ``epsilon`` (rollout randomness), ``margin`` (utility per point of margin),
    ``solve_at`` (cards left at which the rest of a hand is solved exactly), ``ending``
    (with three or more sides, ``maxn``: each player plays the ending for itself, the
    default; ``paranoid``: all against this seat), ``min_samples``,
    ``confidence`` (how many standard errors the best line must gain over medium's move for
    hard to leave it; 0 plays the best line whatever the noise), ``prior`` (that default
    move: ``"medium"``, the hand-written rules, or ``"learned"``, the learned medium's card,
    :mod:`briscola.ai.learned`; ``"auto"``, the default, is :data:`TEAM_VETO` in team games
    and with three players, :data:`TWO_PLAYER_VETO` with two players and the hand-written
    rules on one standard error in Chiamata), ``former_budget`` (with no ``budget``, the
    budgets of :data:`FORMER_BUDGET`, before the search was made cheaper: the sparring
    pool's hard as it was), ``temperature``, ``noise``, ``greedy`` and ``history`` (policy
    inference's model of the other seats' play and the tricks it scores,
    :class:`.inference.Model`).
    """

    def __init__(
        self,
        rng: random.Random | None = None,
        time_limit: float | None = None,
        budget: int | None = None,
        inference: bool | str = "auto",
        epsilon: float = 0.05,
        solve_at: int | None = None,
        min_samples: int = 8,
        deterministic: bool = False,
        margin: float = 0.002,
        confidence: float | None = None,
        prior: str = "auto",
        blend: float = 0.0,
        settle: float = 0.0,
        ending: str = "maxn",
        former_budget: bool = False,
        temperature: float = TEMPERATURE,
        noise: float = NOISE,
        greedy: float = GREEDY,
        history: int = HISTORY,
    ) -> None:
        self.name = "hard"
        if temperature <= 0 or not 0 <= noise <= 1 or not 0 <= greedy <= 1 or history < 1:
            raise ValueError(
                "temperature must be above 0, noise and greedy between 0 and 1, history 1 or more"
            )
        #: Policy inference's model of the other seats' play, and the tricks it scores.
        self.model = Model(temperature=float(temperature), noise=float(noise), greedy=float(greedy))
        self.history = int(history)
        #: The standard error (in utility) given to the learned evaluation's estimate of each
        #: card when it is blended with the search's (:meth:`_blended`); 0: no blend, the veto.
        if blend < 0:
            raise ValueError(f"blend must be 0 or more, not {blend!r}")
        self.blend = blend
        #: Stop a move's search once no line is within this many standard errors of beating
        #: the default one (0: always the whole budget).
        self.settle = settle
        if ending not in ("maxn", "paranoid"):
            raise ValueError(f"ending must be maxn or paranoid, not {ending!r}")
        #: With three or more sides, how endings are solved: each player for itself
        #: (``maxn``) or all against this seat (``paranoid``).
        self.ending = ending
        self.margin = margin
        #: None: the table's (see :meth:`veto`).
        self.confidence = confidence
        if prior not in ("auto", "medium", "learned"):
            raise ValueError(f"prior must be auto, medium or learned, not {prior!r}")
        #: The default move the veto keeps: medium's rules, the learned medium's card, or
        #: ``auto``, by table (see :meth:`veto`).
        self.prior = prior
        self.rng = rng or random.Random(0)
        self.time_limit = None if deterministic else time_limit
        self.budget = budget
        self.former_budget = former_budget
        if inference not in (True, False, 0, 1, "policy", "tricks", "auto"):
            raise ValueError(f"inference must be policy, tricks, auto or off, not {inference!r}")
        #: ``policy``, ``tricks``, ``auto`` (by table: :meth:`inference_for`) or None.
        self.inference: str | None = (
            None if not inference else inference if isinstance(inference, str) else "tricks"
        )
        self.epsilon = epsilon
        self.solve_at = solve_at
        self.min_samples = min_samples
        #: Statistics of the last search: samples taken, mean utility of each line.
        self.last_samples = 0
        self.last_values: dict[str, float] = {}

    def _budget(self, n: int) -> int:
        if self.budget is not None:
            return self.budget
        return (FORMER_BUDGET if self.former_budget else DEFAULT_BUDGET).get(n, 30000)

    def _solve_at(self, n: int) -> int:
        if self.solve_at is not None:
            return self.solve_at
        return _SOLVE_AT.get(n, 10)

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        if view.phase != "play":
            return medium_action(view)
        found = self.evaluate(view, settle=True)
        swap_action, card = found.lines[self.pick(view, found)]
        if swap_action is not None:
            return swap_action
        return Play(Card.from_index(card))

    def pick(self, seen: PlayerView, found: Evaluation) -> int:
        """The line hard plays after the search ``found`` from ``seen``: the default move
        unless the search shows a clear gain (:meth:`decide`), and a partner's request
        answered (partner signals). The coach's best card is this line's."""
        return self._directed(seen, found, self.decide(found))

    @staticmethod
    def _directed(seen: PlayerView, found: Evaluation, line: int) -> int:
        """A partner's "take it" / "let it go" in this trick (partner signals): when the
        search's line goes against it and medium's (which follows it) does not, medium's."""
        direction = partner_direction(seen)
        if direction is None or found.lines[line][0] is not None:
            return line
        kn = Knowledge.of(seen)
        default = found.default
        if found.lines[default][0] is not None:
            return line

        def follows(i: int) -> float:
            return direction_value(Card.from_index(found.lines[i][1]), kn, direction)

        return default if follows(line) < follows(default) else line

    def veto(self, rules: Rules) -> tuple[str, float]:
        """The default move the search must beat at a table of ``rules`` (``medium`` or
        ``learned``) and by how many standard errors: as set, else in team games, with three
        players and in Briscolone for two :data:`TEAM_VETO`, with two players
        :data:`TWO_PLAYER_VETO`, elsewhere (Chiamata) the hand-written rules on one
        (docs/ai.md, *Hard against the learned medium*)."""
        prior, confidence = self.prior, self.confidence
        if prior == "auto":
            if rules.teams or (rules.players == 2 and rules.follow_suit) or rules.players == 3:
                # (Briscolone for two: the search, weak where all must follow suit, leans on
                # the network as in team games: docs/ai.md, *Scoperta and Briscolone*; with
                # three players, as measured there: *Three players*.)
                prior, table = TEAM_VETO
            elif rules.players == 2:
                prior, table = TWO_PLAYER_VETO
            else:
                prior, table = "medium", 1.0
            return prior, table if confidence is None else confidence
        return prior, 1.0 if confidence is None else confidence

    def inference_for(self, rules: Rules) -> str | None:
        """How samples are weighed at a table of ``rules``: as set, else (``auto``) by the
        likelihood of the other players' plays under a model of their play (``policy``)
        with two players and in teams, where none need follow suit; by the hand-set factors
        of the last trick (``tricks``) elsewhere. (In team games the trick factors learn
        less than nothing about the hidden hands: policy there since 2026-12-05; in
        Briscolone policy inference measured no better: docs/ai.md.)"""
        if self.inference == "auto":
            policy = (rules.players == 2 or rules.teams) and not rules.follow_suit
            return "policy" if policy else "tricks"
        return self.inference

    def decide(self, found: Evaluation) -> int:
        """The line to play: the best one, unless it is medium's swap or sampling noise
        could explain its gain over medium's line."""
        lines = found.lines
        totals = found.utility_sums
        default = found.default
        if found.prior and not found.exact and found.weight > 0:
            return self._blended(found)
        best = max(range(len(lines)), key=lambda i: (totals[i], -i))
        if lines[default][0] is not None and lines[best][0] is not None:
            default = best  # medium swaps too; which card follows is search's choice
        wsum = found.weight
        if best != default and not found.exact and wsum > 0:
            # Sampling noise: leave the rule player's move only on clear evidence.
            mean = found.diff_sums[best] / wsum
            var = max(0.0, found.diff2_sums[best] / wsum - mean * mean)
            n_eff = wsum * wsum / found.weight2
            if mean <= found.confidence * math.sqrt(var / n_eff):
                best = default
        return best

    @staticmethod
    def _blended(found: Evaluation) -> int:
        """The line with the best estimate of its gain over the default line when the
        learned evaluation's estimate (a prior with standard error ``prior_error``) and the
        search's paired mean (with its standard error) are combined, each weighted by the
        inverse of its variance: a noisy search leans on the network, a clear one
        overrules it."""
        wsum = found.weight
        n_eff = wsum * wsum / found.weight2
        prior = found.prior
        default = found.default
        trust = found.prior_error * found.prior_error
        best, best_gain = default, 0.0
        for i in range(len(found.lines)):
            if i == default:
                continue
            mean = found.diff_sums[i] / wsum
            var = max(0.0, found.diff2_sums[i] / wsum - mean * mean) / n_eff
            guess = prior[i] - prior[default]
            gain = (guess * var + mean * trust) / (var + trust) if var + trust > 0 else mean
            if gain > best_gain:
                best, best_gain = i, gain
        return best

    def _prior(self, seen: PlayerView) -> tuple[float, ...]:
        """The learned evaluation's estimate of each card's utility relative to the
        position's average (utility units, as the search's), in the order of ``legal``'s
        plays; empty where it does not apply (no ``blend``, no network for the table, a
        swap to decide, a partner's request to answer)."""
        if not self.blend or any(isinstance(a, Swap) for a in seen.legal):
            return ()
        if partner_direction(seen) is not None:
            return ()
        net = network_for(seen.rules)
        if net is None:
            return ()
        _, rows = play_rows(seen)
        scale = float(net.provenance.get("label_scale", 10.0))
        values = [net.value(row) / scale for row in rows]
        mean = sum(values) / len(values)
        return tuple(v - mean for v in values)

    def _settled(
        self,
        diffs: list[float],
        diffs2: list[float],
        wsum: float,
        wsum2: float,
        default: int,
        estimate: tuple[float, ...],
    ) -> bool:
        """No line could beat the default one: even its gain raised by ``settle`` standard
        errors (blended with the network's estimate, with ``blend``) is below nothing."""
        z = self.settle
        trust = self.blend * self.blend
        for i in range(len(diffs)):
            if i == default:
                continue
            mean = diffs[i] / wsum
            var = max(0.0, diffs2[i] / wsum - mean * mean) * wsum2 / (wsum * wsum)
            high = mean + z * math.sqrt(var)
            if estimate and var + trust > 0:
                guess = estimate[i] - estimate[default]
                high = (guess * var + high * trust) / (var + trust)
            if high >= 0.0:
                return False
        return True

    def search_rules(self, seen: PlayerView) -> SearchRules:
        """What the search needs of the rules of ``seen``'s table, with this bot's options."""
        n = seen.rules.players
        return SearchRules.make(
            n=n,
            follow=seen.rules.follow_suit,
            trump=int(seen.trump) if seen.trump is not None else -1,
            solve_at=self._solve_at(n),
            epsilon=self.epsilon,
            three_as_three=seen.rules.three_as_three,
            turned=seen.rules.turned_briscola,
            alternating=n == 2 or seen.rules.teams,
            scoperta=seen.rules.scoperta,
            maxn=len(seen.rules.sides) > 2 and self.ending == "maxn",
        )

    def evaluate(self, seen: PlayerView, settle: bool = False) -> Evaluation:
        """Search every candidate line (each legal card; with a swap available, the swap
        followed by each card) in the same samples. The seat must be to play a card.
        ``settle`` (a move to choose, not values to show): stop early once no line can beat
        the default one (:attr:`settle` standard errors)."""
        settle = settle and self.settle > 0
        if seen.phase != "play" or not seen.legal:
            raise ValueError("evaluate needs a view in which this seat is to play a card")
        rng = self.rng
        n = seen.rules.players
        three_way = len(seen.rules.sides) > 2
        rules = self.search_rules(seen)
        plays = [a for a in seen.legal if isinstance(a, Play)]
        swap = next((a for a in seen.legal if isinstance(a, Swap)), None)
        deal = deal_of(seen)
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + 0.92 * self.time_limit
        budget = self._budget(n)
        # One sample tells all when the hidden cards have one place to go: a hand, or a
        # stock of at most one hidden card (a longer one hides its order; in Scoperta, where
        # every card drawn is seen, the stock is often the only place left).
        hands_hidden = sum(1 for s in range(n) if deal.needs[s])
        perfect = hands_hidden + (1 if deal.stock_hidden else 0) <= 1 and deal.stock_hidden <= 1
        # Candidate lines: each play, and (when legal) a swap followed by each play.
        lines: list[tuple[Swap | None, int]] = [(None, a.card.index) for a in plays]
        if swap is not None:
            briscola = seen.briscola
            assert briscola is not None
            swapped_hand = [c.index for c in seen.hand if c is not swap.card] + [briscola.index]
            lines += [(swap, c) for c in swapped_hand]
        totals = [0.0] * len(lines)
        point_totals = [0.0] * len(lines)
        utils = [0.0] * len(lines)
        diffs = [0.0] * len(lines)
        diffs2 = [0.0] * len(lines)
        wsum = wsum2 = 0.0
        # The rule player's choice is the default; search must show a clear gain to leave it
        # (with ``blend``, the learned evaluation's best card, the others weighed by it).
        prior, confidence = self.veto(seen.rules)
        estimate = self._prior(seen)
        if estimate:
            ruled: Action = plays[max(range(len(plays)), key=lambda i: (estimate[i], -i))]
        else:
            ruled = learned_action(seen) if prior == "learned" else medium_action(seen)
        default = 0
        for i, (swap_action, card) in enumerate(lines):
            if (isinstance(ruled, Swap) and swap_action is not None) or (
                isinstance(ruled, Play) and swap_action is None and card == ruled.card.index
            ):
                default = i
                break
        # Two players, at most one hidden card left in the stock: solve through the draws.
        stock_solve = n == 2 and seen.stock_size <= 2
        work = 0
        samples = 0
        inference = self.inference_for(seen.rules) if not perfect else None
        history = History(seen, rules, self.history, self.model) if inference == "policy" else None
        infer_rng = random.Random(rng.random()) if history is not None else None
        # Few possible deals (two players near the end of the stock): take each once.
        every = enumerate2(deal) if n == 2 and not perfect else None
        gone = mask_of(c for c in range(40) if deal.gone[c])
        endings: dict[tuple[tuple[int, ...], tuple[int, ...], bool], int] = {}
        choices: dict[tuple[int, ...], int] | None = (
            {} if n == 2 and seen.stock_size <= CHOICES_AT else None
        )
        exact = perfect or every is not None
        # Chiamata: who holds the called card, as the play so far suggests.
        partner_odds = (
            partner_probabilities(seen) if inference == "tricks" and deal.called >= 0 else None
        )
        while True:
            if every is not None:
                if samples >= len(every):
                    break
                hands, stock = every[samples]
                hands = [list(h) for h in hands]
                stock = list(stock)
            else:
                if samples >= self.min_samples or perfect:
                    if perfect and samples:
                        break
                    if work >= budget:
                        break
                    if deadline is not None and time.perf_counter() > deadline:
                        break
                sampled = sample_hands(deal, rng)
                if sampled is None:
                    # Void constraints are hard to meet by chance: the engine's dealer.
                    sampled = from_engine(seen, rng)
                hands, stock = sampled
            partner = deal.partner
            if deal.called >= 0:
                partner = next(s for s in range(n) if deal.called in hands[s])
            side = sides_of(seen, partner)
            points: list[float] = [0.0] * (max(side) + 1)
            for s in range(n):
                points[side[s]] += deal.points[s]
            root_side = side[deal.me]
            target = 61
            if seen.rules.chiamata and seen.high_bid is not None:
                target = seen.high_bid.points if root_side == 0 else 121 - seen.high_bid.points
            weight = 1.0
            if history is not None and infer_rng is not None:
                weight = history.likelihood(hands, side, infer_rng)
                work += 2 * len(history)  # a policy evaluation costs about two card plays
            elif inference == "tricks":
                weight = likelihood(seen, hands, rules)
                if partner_odds is not None:
                    weight *= partner_odds[partner]
            base = Game(hands, stock, list(deal.trick), deal.turn, side, points, gone)
            seed = rng.random()
            for i, (swap_action, card) in enumerate(lines):
                game = base.copy()
                if swap_action is not None:
                    game.hands[deal.me].remove(swap_action.card.index)
                    game.hands[deal.me].append(game.stock[0])
                    game.stock[0] = swap_action.card.index
                play(game, card, rules)
                # Common random numbers: every line sees the same rollout randomness.
                work += 1 + finish(
                    game, rules, random.Random(seed), root_side, stock_solve, endings, choices
                )
                utils[i] = utility(game.points, root_side, target, three_way, self.margin)
                point_totals[i] += weight * game.points[root_side]
            base_u = utils[default]
            for i in range(len(lines)):
                totals[i] += weight * utils[i]
                diff = utils[i] - base_u
                diffs[i] += weight * diff
                diffs2[i] += weight * diff * diff
            wsum += weight
            wsum2 += weight * weight
            samples += 1
            if (
                settle
                and not exact
                and samples >= SETTLE_AFTER
                and samples % 8 == 0
                and self._settled(diffs, diffs2, wsum, wsum2, default, estimate)
            ):
                break
        found = Evaluation(
            lines=tuple(lines),
            utility_sums=tuple(totals),
            points_sums=tuple(point_totals),
            diff_sums=tuple(diffs),
            diff2_sums=tuple(diffs2),
            weight=wsum,
            weight2=wsum2,
            default=default,
            exact=exact,
            samples=samples,
            confidence=confidence,
            prior=estimate,
            prior_error=self.blend,
        )
        self.last_samples = samples
        self.last_values = {found.label(i): found.utility(i) for i in range(len(lines))}
        return found
