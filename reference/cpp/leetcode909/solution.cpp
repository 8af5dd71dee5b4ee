// Model solution for LeetCode 909 in C++, written as LeetCode submissions
// are: no includes, `using namespace std;` assumed.
class Solution {
public:
    int snakesAndLadders(vector<vector<int>>& board) {
        int n = board.size();
        int last = n * n;
        auto at = [&](int label) -> int {
            int index = label - 1;
            int row = n - 1 - index / n;
            int col = index % n;
            if ((index / n) % 2 == 1) col = n - 1 - col;
            return board[row][col];
        };
        vector<int> dist(last + 1, -1);
        queue<int> frontier;
        dist[1] = 0;
        frontier.push(1);
        while (!frontier.empty()) {
            int square = frontier.front();
            frontier.pop();
            if (square == last) return dist[square];
            for (int next = square + 1; next <= min(square + 6, last); ++next) {
                int to = at(next) == -1 ? next : at(next);
                if (dist[to] == -1) {
                    dist[to] = dist[square] + 1;
                    frontier.push(to);
                }
            }
        }
        return -1;
    }
};
