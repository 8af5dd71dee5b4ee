// The slowest acceptable min-throws solution in C++: the shape students
// write. salgrade's deadlines come from this file, not from the model. A
// breadth-first search whose queue is a vector popped from the front
// (`erase(begin())` shifts the whole vector): quadratic in the worst case.
#include <vector>

int get_min_dice_throws(int move[], int n) {
    std::vector<int> dist(n, -1);
    std::vector<int> queue;
    dist[0] = 0;
    queue.push_back(0);
    while (!queue.empty()) {
        int cell = queue[0];
        queue.erase(queue.begin());
        if (cell == n - 1) return dist[cell];
        for (int k = 1; k <= 6 && cell + k < n; ++k) {
            int stand = move[cell + k] == -1 ? cell + k : move[cell + k];
            if (dist[stand] == -1) {
                dist[stand] = dist[cell] + 1;
                queue.push_back(stand);
            }
        }
    }
    return -1;
}
