// The slowest acceptable LeetCode 909 solution in C++: the shape students
// write. salgrade's deadlines come from this file, not from the model. A
// breadth-first search with a vector as its queue (`erase(begin())`), a
// visited vector searched linearly, and each label turned into a cell by
// walking the rows. No includes: LeetCode provides them.
class Solution {
public:
    int snakesAndLadders(vector<vector<int>>& board) {
        int n = board.size();
        int last = n * n;
        vector<pair<int, int>> queue;
        vector<int> visited;
        queue.push_back({1, 0});
        visited.push_back(1);
        while (!queue.empty()) {
            auto [square, moves] = queue[0];
            queue.erase(queue.begin());
            if (square == last) return moves;
            for (int next = square + 1; next <= min(square + 6, last); ++next) {
                int jump = cell(board, next);
                int stand = jump == -1 ? next : jump;
                if (find(visited.begin(), visited.end(), stand) == visited.end()) {
                    visited.push_back(stand);
                    queue.push_back({stand, moves + 1});
                }
            }
        }
        return -1;
    }

private:
    int cell(vector<vector<int>>& board, int label) {
        int n = board.size();
        int count = 0;
        for (int r = n - 1; r >= 0; --r) {
            bool left_to_right = (n - 1 - r) % 2 == 0;
            for (int i = 0; i < n; ++i) {
                int c = left_to_right ? i : n - 1 - i;
                if (++count == label) return board[r][c];
            }
        }
        return -1;
    }
};
