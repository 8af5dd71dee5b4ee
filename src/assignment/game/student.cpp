// The student's translation unit for the game: the student's `Game`, with
// any `main` of theirs renamed (salgrade warns), and the glue the adapter
// calls through an opaque handle. Arguments are copied first, so a method
// may take them by value, by reference or by const reference.
//
// The game has no platform that includes headers for the student, so the
// student's file comes first, as a plain `g++ -std=c++20` compiles it: a
// file that uses `std::map` without including its header fails here as it
// fails there. The one header before it, `<version>`, holds the library's
// feature-test macros and declares nothing a student would use; it is what
// lets the adapter be compiled once per run (see `runner/cxx/prelude.rs`).
#include <version>

#define main salgrade_student_main
#include "snakes_game.cpp"
#undef main

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

void* salgrade_game_new(int size, const std::map<int, int>& jumps, int players,
                        const std::string& finish) {
    std::map<int, int> j = jumps;
    std::string f = finish;
    return new Game(size, j, players, f);
}
int salgrade_game_move(void* g, int player, int roll) { return static_cast<Game*>(g)->move(player, roll); }
int salgrade_game_position(void* g, int player) { return static_cast<Game*>(g)->position(player); }
int salgrade_game_winner(void* g) { return static_cast<Game*>(g)->winner(); }
int salgrade_game_play(void* g, const std::vector<int>& rolls, int max_rounds) {
    std::vector<int> r = rolls;
    return static_cast<Game*>(g)->play(r, max_rounds);
}
int salgrade_game_play_default(void* g, const std::vector<int>& rolls) {
    std::vector<int> r = rolls;
    return static_cast<Game*>(g)->play(r);
}
void salgrade_game_delete(void* g) { delete static_cast<Game*>(g); }
