// LeetCode 909's C++ adapter: builds a fresh `vector<vector<int>>` from a
// case's input for each call (a solution may change it in place, as on
// LeetCode) and calls the glue in the student's translation unit.

#include "_salgrade_driver.hpp"

int salgrade_snakes_and_ladders(std::vector<std::vector<int>>& board);

namespace salgrade_adapter {

const std::vector<std::string>& functions() {
    static const std::vector<std::string> names{"snakesAndLadders"};
    return names;
}

bool defined(const std::string& function) { return function == "snakesAndLadders"; }

salgrade::Json call(const std::string&, const salgrade::Json& input) {
    std::vector<std::vector<int>> board;
    for (const auto& row : input.at("board").as_array()) {
        std::vector<int> cells;
        for (const auto& cell : row.as_array()) cells.push_back(static_cast<int>(cell.as_int()));
        board.push_back(std::move(cells));
    }
    return salgrade::plain(salgrade_snakes_and_ladders(board));
}

}  // namespace salgrade_adapter
