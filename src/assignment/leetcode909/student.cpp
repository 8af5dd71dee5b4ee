// The student's translation unit for LeetCode 909. LeetCode compiles a
// solution with the standard library included and `using namespace std;`
// in force, so this unit provides both before the student's file; a `main`
// of the student's is renamed so the harness's runs (salgrade warns). The
// glue after it is what the adapter calls.
#include <bits/stdc++.h>
using namespace std;
#define main salgrade_student_main
#include "solution.cpp"
#undef main

int salgrade_snakes_and_ladders(vector<vector<int>>& board) {
    Solution solution;
    return solution.snakesAndLadders(board);
}
