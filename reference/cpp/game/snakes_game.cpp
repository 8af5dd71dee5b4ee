// Model solution for the game in C++: the same class as snakes_game.py.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

class Game {
public:
    Game(int size, std::map<int, int> jumps, int players = 2, std::string finish = "bounce")
        : size_(size), jumps_(std::move(jumps)), positions_(players > 0 ? players : 0, 1), finish_(finish) {
        if (size < 7) throw std::invalid_argument("size must be at least 7");
        if (players < 1) throw std::invalid_argument("there must be at least one player");
        if (finish != "bounce" && finish != "reach") throw std::invalid_argument("finish is \"bounce\" or \"reach\"");
        for (const auto& [source, destination] : jumps_) {
            if (source < 2 || source > size - 1) throw std::invalid_argument("a jump must start on 2..size-1");
            if (destination < 1 || destination > size) throw std::invalid_argument("a jump must end on 1..size");
            if (source == destination) throw std::invalid_argument("a jump cannot lead to itself");
        }
    }

    int move(int player, int roll) {
        check_player(player);
        if (roll < 1 || roll > 6) throw std::invalid_argument("a roll is 1..6");
        if (winner_ != 0) throw std::invalid_argument("the game is over");
        int t = positions_[player - 1] + roll;
        if (t > size_) t = finish_ == "bounce" ? 2 * size_ - t : size_;
        auto jump = jumps_.find(t);
        if (jump != jumps_.end()) t = jump->second;
        positions_[player - 1] = t;
        if (t == size_) winner_ = player;
        return t;
    }

    int position(int player) const {
        check_player(player);
        return positions_[player - 1];
    }

    int winner() const { return winner_; }

    int play(const std::vector<int>& rolls, int max_rounds = 150) {
        if (winner_ != 0) throw std::invalid_argument("the game is over");
        std::size_t next = 0;
        int players = static_cast<int>(positions_.size());
        for (int round = 0; round < max_rounds; ++round) {
            for (int p = 1; p <= players; ++p) {
                if (next == rolls.size()) return 0;
                move(p, rolls[next++]);
                if (winner_ != 0) return winner_;
            }
        }
        return 0;
    }

private:
    void check_player(int player) const {
        if (player < 1 || player > static_cast<int>(positions_.size())) {
            throw std::invalid_argument("no such player");
        }
    }

    int size_;
    std::map<int, int> jumps_;
    std::vector<int> positions_;
    std::string finish_;
    int winner_ = 0;
};
