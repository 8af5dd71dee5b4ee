//! The game itself, as the rules in the module's `//!` state them: a
//! validated construction that names every rule it breaks, moves that say
//! what happened on the way (bounce, snake or ladder), and `play`.
//!
//! Arguments arrive as the student's code receives them (any `i64`), so each
//! method checks them exactly as the rules say and reports which check failed.

use std::fmt;

/// How a throw past the last house ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Finish {
    /// `t = 2*size - t`: the pebble walks back from the last house.
    Bounce,
    /// `t = size`: reaching or passing the last house wins.
    Reach,
}

impl Finish {
    /// The `finish` argument naming this rule.
    pub fn name(self) -> &'static str {
        match self {
            Finish::Bounce => "bounce",
            Finish::Reach => "reach",
        }
    }

    /// The rule a `finish` argument names, if it names one.
    pub fn from_name(name: &str) -> Option<Finish> {
        match name {
            "bounce" => Some(Finish::Bounce),
            "reach" => Some(Finish::Reach),
            _ => None,
        }
    }
}

/// The smallest board the rules allow.
pub const MIN_SIZE: i64 = 7;

/// One construction rule an argument breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Broken {
    /// `size < 7`.
    Size { size: i64 },
    /// `players < 1`.
    Players { players: i64 },
    /// `finish` is neither `"bounce"` nor `"reach"`.
    Finish { finish: String },
    /// A jump's source is outside `2..size-1`.
    Source { source: i64, destination: i64 },
    /// A jump's destination is outside `1..size`.
    Destination { source: i64, destination: i64 },
    /// A jump leads to its own source.
    ToItself { house: i64 },
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Broken::Size { size } => write!(f, "size {size} < 7"),
            Broken::Players { players } => write!(f, "players {players} < 1"),
            Broken::Finish { finish } => {
                write!(f, "finish {finish:?} is neither \"bounce\" nor \"reach\"")
            }
            Broken::Source {
                source,
                destination,
            } => write!(f, "jump {source} -> {destination} starts outside 2..size-1"),
            Broken::Destination {
                source,
                destination,
            } => write!(f, "jump {source} -> {destination} leads outside 1..size"),
            Broken::ToItself { house } => write!(f, "jump {house} -> {house} leads to itself"),
        }
    }
}

/// Every construction rule the arguments break (never empty).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .broken.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct InvalidGame {
    pub broken: Vec<Broken>,
}

/// Why `move`, `play` or `position` raises `ValueError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("player {player} is not in 1..{players}")]
    Player { player: i64, players: u32 },
    #[error("a roll is 1..6, not {roll}")]
    Roll { roll: i64 },
    #[error("player {winner} has already won")]
    Over { winner: u32 },
}

/// One turn: where the pebble went and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    pub player: u32,
    pub from: u32,
    pub roll: u32,
    /// `from + roll` before the finish rule: above the size when it bounced
    /// (or was held at the end under `reach`).
    pub thrown: u32,
    /// The house the throw lands on, before any snake or ladder.
    pub landed: u32,
    /// Where the player ends: `landed`, or its jump's destination.
    pub to: u32,
    /// Whether this turn won the game.
    pub won: bool,
}

impl Turn {
    /// The turn in words: "player 2: 49 + 5 = 54, ladder 54 -> 88".
    pub fn words(&self, size: u32, finish: Finish) -> String {
        let mut out = format!(
            "player {}: {} + {} = {}",
            self.player, self.from, self.roll, self.thrown
        );
        if self.thrown > size {
            match finish {
                Finish::Bounce => out.push_str(&format!(", bounces back to {}", self.landed)),
                Finish::Reach => out.push_str(&format!(", held at {}", self.landed)),
            }
        }
        if self.to != self.landed {
            out.push_str(&format!(", {}", jump_words(self.landed, self.to)));
        }
        if self.won {
            out.push_str(", wins");
        }
        out
    }
}

/// "ladder 54 -> 88" or "snake 98 -> 13".
pub fn jump_words(source: u32, destination: u32) -> String {
    let word = if destination > source {
        "ladder"
    } else {
        "snake"
    };
    format!("{word} {source} -> {destination}")
}

/// A game in progress. Built only through [`Game::new`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    size: u32,
    /// `jumps[h]` is where house `h` leads, or 0; index 0 is unused.
    jumps: Vec<u32>,
    finish: Finish,
    positions: Vec<u32>,
    winner: u32,
}

impl Game {
    /// `Game(size, jumps, players, finish)`: every broken rule, or the game.
    /// `size` and `players` must be bounded by the caller (a scenario bounds
    /// them) since the game allocates one slot per house and per player.
    pub fn new(
        size: i64,
        jumps: &[(i64, i64)],
        players: i64,
        finish: &str,
    ) -> Result<Game, InvalidGame> {
        let mut broken = Vec::new();
        if size < MIN_SIZE {
            broken.push(Broken::Size { size });
        }
        if players < 1 {
            broken.push(Broken::Players { players });
        }
        let rule = Finish::from_name(finish);
        if rule.is_none() {
            broken.push(Broken::Finish {
                finish: finish.to_owned(),
            });
        }
        for &(source, destination) in jumps {
            if !(2..size).contains(&source) {
                broken.push(Broken::Source {
                    source,
                    destination,
                });
            }
            if !(1..=size).contains(&destination) {
                broken.push(Broken::Destination {
                    source,
                    destination,
                });
            }
            if source == destination {
                broken.push(Broken::ToItself { house: source });
            }
        }
        let (Some(finish), true) = (rule, broken.is_empty()) else {
            return Err(InvalidGame { broken });
        };
        // Every value below was checked to lie in 1..=size above.
        let size = size as u32;
        let mut table = vec![0; size as usize + 1];
        for &(source, destination) in jumps {
            table[source as usize] = destination as u32;
        }
        Ok(Game {
            size,
            jumps: table,
            finish,
            positions: vec![1; players as usize],
            winner: 0,
        })
    }

    pub fn size(&self) -> u32 {
        self.size
    }

    pub fn finish(&self) -> Finish {
        self.finish
    }

    pub fn players(&self) -> u32 {
        self.positions.len() as u32
    }

    /// Where house `house` leads, if it holds a snake or ladder.
    pub fn jump(&self, house: u32) -> Option<u32> {
        match self.jumps.get(house as usize) {
            Some(&d) if d != 0 => Some(d),
            _ => None,
        }
    }

    /// Every player's house, player 1 first.
    pub fn positions(&self) -> &[u32] {
        &self.positions
    }

    /// The winner, or 0 while nobody has won.
    pub fn winner(&self) -> u32 {
        self.winner
    }

    fn index(&self, player: i64) -> Result<usize, Refused> {
        if (1..=i64::from(self.players())).contains(&player) {
            Ok(player as usize - 1)
        } else {
            Err(Refused::Player {
                player,
                players: self.players(),
            })
        }
    }

    /// `position(player)`.
    pub fn position(&self, player: i64) -> Result<u32, Refused> {
        Ok(self.positions[self.index(player)?])
    }

    /// `move(player, roll)`: the turn taken, or why it was refused (and then
    /// nothing changed).
    pub fn step(&mut self, player: i64, roll: i64) -> Result<Turn, Refused> {
        let i = self.index(player)?;
        if !(1..=6).contains(&roll) {
            return Err(Refused::Roll { roll });
        }
        if self.winner != 0 {
            return Err(Refused::Over {
                winner: self.winner,
            });
        }
        let from = self.positions[i];
        let thrown = from + roll as u32;
        let landed = if thrown <= self.size {
            thrown
        } else {
            match self.finish {
                // from <= size - 1 (nobody has won) and roll <= 6 <= size - 1,
                // so 2*size - thrown lies in size-5..size-1, inside the board.
                Finish::Bounce => 2 * self.size - thrown,
                Finish::Reach => self.size,
            }
        };
        let to = self.jump(landed).unwrap_or(landed);
        self.positions[i] = to;
        let won = to == self.size;
        if won {
            self.winner = player as u32;
        }
        Ok(Turn {
            player: player as u32,
            from,
            roll: roll as u32,
            thrown,
            landed,
            to,
            won,
        })
    }

    /// `play(rolls, max_rounds)`: the winner (or 0) and the turns taken. The
    /// rolls must each be in `1..6` (a scenario guarantees it).
    pub fn play(&mut self, rolls: &[u8], max_rounds: i64) -> Result<(u32, Vec<Turn>), Refused> {
        if self.winner != 0 {
            return Err(Refused::Over {
                winner: self.winner,
            });
        }
        let mut turns = Vec::new();
        let mut next = rolls.iter();
        let mut round = 0;
        while round < max_rounds {
            for player in 1..=self.players() {
                let Some(&roll) = next.next() else {
                    return Ok((0, turns));
                };
                let turn = self.step(i64::from(player), i64::from(roll))?;
                turns.push(turn);
                if turn.won {
                    return Ok((player, turns));
                }
            }
            round += 1;
        }
        Ok((0, turns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Game {
        Game::new(100, &super::super::seed_board::JUMPS, 2, "bounce").unwrap()
    }

    #[test]
    fn construction_names_every_broken_rule() {
        let err = Game::new(6, &[(1, 3), (4, 4), (5, 9)], 0, "exact").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("size 6 < 7"), "{text}");
        assert!(text.contains("players 0 < 1"), "{text}");
        assert!(text.contains("\"exact\""), "{text}");
        assert!(text.contains("jump 1 -> 3 starts outside"), "{text}");
        assert!(text.contains("jump 4 -> 4 leads to itself"), "{text}");
        assert!(text.contains("jump 5 -> 9 leads outside"), "{text}");
        assert!(Game::new(7, &[(2, 7), (6, 1)], 1, "reach").is_ok());
        assert!(Game::new(7, &[(7, 1)], 1, "reach").is_err());
        assert!(Game::new(7, &[(2, 8)], 1, "reach").is_err());
        assert!(Game::new(7, &[(2, 0)], 1, "reach").is_err());
    }

    #[test]
    fn bounce_one_hop_and_a_ladder_to_the_end_wins() {
        let mut g = Game::new(100, &[(99, 50), (50, 91), (95, 100)], 2, "bounce").unwrap();
        // 1 -> 50 is not reachable in one roll; walk there.
        g.positions = vec![98, 94];
        let t = g.step(1, 3).unwrap();
        assert_eq!(
            (t.thrown, t.landed, t.to),
            (101, 99, 50),
            "one hop: 50 -> 91 not taken"
        );
        let t = g.step(2, 1).unwrap();
        assert!(t.won);
        assert_eq!(g.winner(), 2);
        assert_eq!(g.step(1, 1), Err(Refused::Over { winner: 2 }));
        assert_eq!(g.play(&[1], 150), Err(Refused::Over { winner: 2 }));
        assert_eq!(
            g.position(3),
            Err(Refused::Player {
                player: 3,
                players: 2
            })
        );
    }

    #[test]
    fn the_seed_bounce_lands_on_the_snake_at_98() {
        let mut g = seed();
        g.positions = vec![97, 1];
        let t = g.step(1, 5).unwrap();
        assert_eq!((t.landed, t.to), (98, 13));
        assert_eq!(
            t.words(100, Finish::Bounce),
            "player 1: 97 + 5 = 102, bounces back to 98, snake 98 -> 13"
        );
    }

    #[test]
    fn play_stops_at_a_win_and_at_the_cap() {
        let mut g = Game::new(10, &[], 3, "reach").unwrap();
        assert_eq!(g.play(&[6, 1, 1], 150).unwrap().0, 0, "the rolls ran out");
        assert_eq!(g.positions(), &[7, 2, 2]);
        // play starts with player 1 again: 7 + 6 reaches 10 under reach.
        let (winner, turns) = g.play(&[6, 6, 6], 150).unwrap();
        assert_eq!((winner, turns.len()), (1, 1));
        let mut g = Game::new(10, &[], 2, "bounce").unwrap();
        let (winner, turns) = g.play(&[1; 10], 2).unwrap();
        assert_eq!(
            (winner, turns.len()),
            (0, 4),
            "two full rounds of two turns"
        );
        assert_eq!(g.positions(), &[3, 3]);
        assert_eq!(g.play(&[1], 0).unwrap().0, 0);
        assert_eq!(g.positions(), &[3, 3]);
    }

    #[test]
    fn refused_moves_change_nothing() {
        let mut g = seed();
        let before = g.clone();
        assert_eq!(
            g.step(0, 3),
            Err(Refused::Player {
                player: 0,
                players: 2
            })
        );
        assert_eq!(g.step(1, 7), Err(Refused::Roll { roll: 7 }));
        assert_eq!(g.step(1, 0), Err(Refused::Roll { roll: 0 }));
        assert_eq!(g, before);
    }
}
