// The slowest acceptable game in C++: the shape students write. salgrade's
// deadlines come from this file, not from the model. It keeps every
// player's rolls and replays them from house 1 whenever it needs a
// position, so a game of m moves costs O(m^2).
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

class Game {
public:
    Game(int size, std::map<int, int> jumps, int players = 2, std::string finish = "bounce") {
        if (size < 7) throw std::invalid_argument("size must be at least 7");
        if (players < 1) throw std::invalid_argument("there must be at least one player");
        if (finish != "bounce" && finish != "reach") throw std::invalid_argument("bad finish");
        for (auto it = jumps.begin(); it != jumps.end(); ++it) {
            if (it->first < 2 || it->first > size - 1) throw std::invalid_argument("bad jump source");
            if (it->second < 1 || it->second > size) throw std::invalid_argument("bad jump destination");
            if (it->first == it->second) throw std::invalid_argument("a jump leads to itself");
        }
        size_ = size;
        jumps_ = jumps;
        finish_ = finish;
        rolls_.resize(players);
    }

    int move(int player, int roll) {
        check_player(player);
        if (roll < 1 || roll > 6) throw std::invalid_argument("a roll is 1..6");
        if (winner() != 0) throw std::invalid_argument("the game is over");
        rolls_[player - 1].push_back(roll);
        return position(player);
    }

    int position(int player) const {
        check_player(player);
        int at = 1;
        for (int roll : rolls_[player - 1]) {
            int t = at + roll;
            if (t > size_) t = finish_ == "bounce" ? 2 * size_ - t : size_;
            if (jumps_.count(t)) t = jumps_.at(t);
            at = t;
        }
        return at;
    }

    int winner() const {
        for (int p = 1; p <= static_cast<int>(rolls_.size()); ++p) {
            if (position(p) == size_) return p;
        }
        return 0;
    }

    int play(const std::vector<int>& rolls, int max_rounds = 150) {
        if (winner() != 0) throw std::invalid_argument("the game is over");
        std::size_t next = 0;
        int players = static_cast<int>(rolls_.size());
        for (int round = 0; round < max_rounds; ++round) {
            for (int p = 1; p <= players; ++p) {
                if (next == rolls.size()) return 0;
                move(p, rolls[next++]);
                if (winner() == p) return p;
            }
        }
        return 0;
    }

private:
    void check_player(int player) const {
        if (player < 1 || player > static_cast<int>(rolls_.size())) {
            throw std::invalid_argument("no such player");
        }
    }

    int size_ = 0;
    std::map<int, int> jumps_;
    std::vector<std::vector<int>> rolls_;
    std::string finish_;
};
