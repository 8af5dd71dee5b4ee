// Model solution for min-throws in C++: breadth-first search over the
// cells, one throw an edge, snakes and ladders taken on landing (one hop).
#include <queue>
#include <vector>

int get_min_dice_throws(int move[], int n) {
    std::vector<int> dist(n, -1);
    std::queue<int> frontier;
    dist[0] = 0;
    frontier.push(0);
    while (!frontier.empty()) {
        int cell = frontier.front();
        frontier.pop();
        if (cell == n - 1) return dist[cell];
        for (int k = 1; k <= 6 && cell + k < n; ++k) {
            int landed = cell + k;
            int next = move[landed] == -1 ? landed : move[landed];
            if (dist[next] == -1) {
                dist[next] = dist[cell] + 1;
                frontier.push(next);
            }
        }
    }
    return -1;
}
