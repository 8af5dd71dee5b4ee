"""Snakes and ladders for several players (seed 004): the model solution."""


class Game:
    def __init__(self, size, jumps, players=2, finish="bounce"):
        if size < 7:
            raise ValueError("size must be at least 7")
        if players < 1:
            raise ValueError("there must be at least one player")
        if finish not in ("bounce", "reach"):
            raise ValueError('finish must be "bounce" or "reach"')
        for source, destination in jumps.items():
            if not 2 <= source <= size - 1:
                raise ValueError(f"jump {source} starts outside 2..{size - 1}")
            if not 1 <= destination <= size:
                raise ValueError(f"jump {source} leads outside 1..{size}")
            if source == destination:
                raise ValueError(f"jump {source} leads to itself")
        self.size = size
        self.jumps = dict(jumps)
        self.finish = finish
        self.positions = [1] * players
        self.won_by = 0

    def _check_player(self, player):
        if not 1 <= player <= len(self.positions):
            raise ValueError(f"no player {player}")

    def move(self, player, roll):
        self._check_player(player)
        if not 1 <= roll <= 6:
            raise ValueError(f"a roll is 1..6, not {roll}")
        if self.won_by:
            raise ValueError(f"player {self.won_by} has already won")
        target = self.positions[player - 1] + roll
        if target > self.size:
            target = 2 * self.size - target if self.finish == "bounce" else self.size
        target = self.jumps.get(target, target)
        self.positions[player - 1] = target
        if target == self.size:
            self.won_by = player
        return target

    def position(self, player):
        self._check_player(player)
        return self.positions[player - 1]

    def winner(self):
        return self.won_by

    def play(self, rolls, max_rounds=150):
        if self.won_by:
            raise ValueError(f"player {self.won_by} has already won")
        rolls = iter(rolls)
        for _ in range(max_rounds):
            for player in range(1, len(self.positions) + 1):
                roll = next(rolls, None)
                if roll is None:
                    return 0
                self.move(player, roll)
                if self.won_by:
                    return player
        return 0
