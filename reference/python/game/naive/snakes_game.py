"""The slowest acceptable snakes_game.py: the shape students write.

salgrade's deadlines come from this file, not from the model. It keeps every
player's rolls and replays them all from house 1 whenever it needs a
position, so a game of m moves costs O(m^2). Nothing here is wrong; it is
only slow.
"""


class Game:
    def __init__(self, size, jumps, players=2, finish="bounce"):
        if size < 7:
            raise ValueError("size must be at least 7")
        if players < 1:
            raise ValueError("there must be at least one player")
        if finish != "bounce" and finish != "reach":
            raise ValueError('finish must be "bounce" or "reach"')
        for source in jumps:
            destination = jumps[source]
            if source < 2 or source > size - 1:
                raise ValueError("a jump starts outside the board")
            if destination < 1 or destination > size:
                raise ValueError("a jump leads outside the board")
            if source == destination:
                raise ValueError("a jump leads to itself")
        self.size = size
        self.jumps = {}
        for source in jumps:
            self.jumps[source] = jumps[source]
        self.finish = finish
        self.players = players
        self.rolls = []
        for _ in range(players):
            self.rolls.append([])

    def _step(self, at, roll):
        target = at + roll
        if target > self.size:
            if self.finish == "bounce":
                target = 2 * self.size - target
            else:
                target = self.size
        if target in self.jumps:
            target = self.jumps[target]
        return target

    def position(self, player):
        if player < 1 or player > self.players:
            raise ValueError("no such player")
        at = 1
        for roll in self.rolls[player - 1]:
            at = self._step(at, roll)
        return at

    def winner(self):
        for player in range(1, self.players + 1):
            if self.position(player) == self.size:
                return player
        return 0

    def move(self, player, roll):
        if player < 1 or player > self.players:
            raise ValueError("no such player")
        if roll < 1 or roll > 6:
            raise ValueError("a roll is 1..6")
        if self.winner() != 0:
            raise ValueError("the game is over")
        self.rolls[player - 1].append(roll)
        return self.position(player)

    def play(self, rolls, max_rounds=150):
        if self.winner() != 0:
            raise ValueError("the game is over")
        i = 0
        for _ in range(max_rounds):
            for player in range(1, self.players + 1):
                if i >= len(rolls):
                    return 0
                self.move(player, rolls[i])
                i += 1
                if self.winner() == player:
                    return player
        return 0
