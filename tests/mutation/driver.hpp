// The mutation harness's C++ driver, compiled after every mutant (each in
// a namespace of its own) and before the table of their entries:
//
//     prog run|calibrate INDEX CASES BUDGETS STEP
//
// asks mutant INDEX every STEP-th case of CASES (one a line: the expected
// answer, a tab, the input as numbers; see `assignments.py`), in order,
// the first first, each under a
// CPU-time limit read from BUDGETS (one a line, in seconds; SIGPROF ends
// the process when it runs out). It writes, unbuffered, `S k` before case
// k, `T k seconds` after it when calibrating, `W k answer` at the first
// wrong answer (and stops), and `P` when every case is right. Inputs are
// built as salgrade's C++ adapters build them (`src/assignment/*/
// adapter.cpp`): min-throws' `move` ends right before a page that cannot be
// read, and the game's `std::invalid_argument` is the rules' error.

#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

namespace mutants_driver {

inline void say(const std::string& line) {
    std::string text = line + "\n";
    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
        ssize_t n = ::write(1, p, left);
        if (n <= 0) _exit(3);
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

inline double cpu_seconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

inline void limit(double seconds) {
    itimerval timer{};
    if (seconds > 0) {
        timer.it_value.tv_sec = static_cast<time_t>(seconds);
        timer.it_value.tv_usec = static_cast<suseconds_t>((seconds - static_cast<double>(timer.it_value.tv_sec)) * 1e6);
        if (timer.it_value.tv_sec == 0 && timer.it_value.tv_usec == 0) timer.it_value.tv_usec = 1;
    }
    setitimer(ITIMER_PROF, &timer, nullptr);
}

// `n` ints ending right before a PROT_NONE page, as min-throws' adapter
// allocates them. Never freed: the process answers one mutant's cases.
inline int* guarded_ints(std::size_t n) {
    std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    std::size_t bytes = n * sizeof(int);
    std::size_t data_pages = (bytes + page - 1) / page;
    std::size_t total = (data_pages + 1) * page;
    void* base = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    char* guard = static_cast<char*>(base) + data_pages * page;
    mprotect(guard, page, PROT_NONE);
    return reinterpret_cast<int*>(guard - bytes);
}

}  // namespace mutants_driver

#if defined(MUTANTS_LEETCODE909)
using Entry = int (*)(std::vector<std::vector<int>>&);
inline std::string ask(Entry entry, std::istringstream& in) {
    int n;
    in >> n;
    std::vector<std::vector<int>> board(n, std::vector<int>(n));
    for (auto& row : board)
        for (auto& v : row) in >> v;
    return "int:" + std::to_string(entry(board));
}
#elif defined(MUTANTS_MIN_THROWS)
using Entry = int (*)(int*, int);
inline std::string ask(Entry entry, std::istringstream& in) {
    int n;
    in >> n;
    int* move = mutants_driver::guarded_ints(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) in >> move[i];
    return "int:" + std::to_string(entry(move, n));
}
#elif defined(MUTANTS_GAME)
struct Scenario {
    int size = 0, players = 0;
    std::map<int, int> jumps;
    std::string finish;
    struct Call {
        char kind;
        int a = 0, b = 0;
        std::vector<int> rolls;
        bool rounds = false;
    };
    std::vector<Call> calls;
};

// One mutant's `Game`, reached through plain functions so that the
// transcript below is compiled once, not once per mutant.
struct GameOps {
    void* (*make)(int, const std::map<int, int>&, int, const std::string&);
    int (*move)(void*, int, int);
    int (*position)(void*, int);
    int (*winner)(void*);
    int (*play)(void*, const std::vector<int>&, int, bool);
    void (*destroy)(void*);
};

inline std::string transcript(const GameOps& ops, const Scenario& s) {
    void* game = nullptr;
    try {
        game = ops.make(s.size, s.jumps, s.players, s.finish);
    } catch (const std::invalid_argument&) {
        return "construct:ValueError";
    }
    std::string out = "construct:ok";
    for (const auto& call : s.calls) {
        std::string outcome;
        try {
            int value = 0;
            switch (call.kind) {
                case 'M': value = ops.move(game, call.a, call.b); break;
                case 'Q': value = ops.position(game, call.a); break;
                case 'W': value = ops.winner(game); break;
                default: value = ops.play(game, call.rolls, call.b, call.rounds);
            }
            outcome = "R" + std::to_string(value);
        } catch (const std::invalid_argument&) {
            outcome = "V";
        }
        out += ";" + outcome + "|";
        for (int p = 1; p <= s.players; ++p) {
            out += (p > 1 ? "," : "") + std::to_string(ops.position(game, p));
        }
        out += "|" + std::to_string(ops.winner(game));
    }
    ops.destroy(game);
    return out;
}

using Entry = std::string (*)(const Scenario&);
inline std::string ask(Entry entry, std::istringstream& in) {
    Scenario s;
    int jumps = 0, calls = 0;
    in >> s.size >> jumps;
    for (int i = 0; i < jumps; ++i) {
        int a, b;
        in >> a >> b;
        s.jumps[a] = b;
    }
    in >> s.players >> s.finish >> calls;
    if (s.finish == "-") s.finish = "";
    for (int i = 0; i < calls; ++i) {
        Scenario::Call c;
        in >> c.kind;
        if (c.kind == 'M') in >> c.a >> c.b;
        if (c.kind == 'Q') in >> c.a;
        if (c.kind == 'P') {
            int k;
            in >> k;
            c.rolls.resize(k);
            for (auto& r : c.rolls) in >> r;
            std::string rounds;
            in >> rounds;
            c.rounds = rounds != "-";
            if (c.rounds) c.b = std::stoi(rounds);
        }
        s.calls.push_back(c);
    }
    return entry(s);
}
#endif

inline int mutants_main(int argc, char** argv, const Entry* entries, int count) {
    if (argc != 6) return 2;
    bool calibrate = std::string(argv[1]) == "calibrate";
    int index = std::atoi(argv[2]);
    int step = std::atoi(argv[5]);
    if (index < 0 || index >= count || step < 1) return 2;
    std::ifstream cases(argv[3]), budgets_file(argv[4]);
    std::vector<double> budgets;
    for (double b; budgets_file >> b;) budgets.push_back(b);
    std::string line;
    for (int k = 0; std::getline(cases, line); ++k) {
        if (k % step != 0) continue;
        auto tab = line.find('\t');
        std::string expected = line.substr(0, tab);
        std::istringstream in(line.substr(tab + 1));
        mutants_driver::say("S " + std::to_string(k));
        mutants_driver::limit(k < static_cast<int>(budgets.size()) ? budgets[k] : 1.0);
        double start = mutants_driver::cpu_seconds();
        std::string got;
        try {
            got = ask(entries[index], in);
        } catch (const std::exception& e) {
            got = std::string("raised:") + typeid(e).name();
        } catch (...) {
            got = "raised:unknown";
        }
        double spent = mutants_driver::cpu_seconds() - start;
        mutants_driver::limit(0);
        if (calibrate) {
            char buffer[64];
            std::snprintf(buffer, sizeof buffer, "T %d %.9f", k, spent);
            mutants_driver::say(buffer);
        }
        if (got != expected) {
            mutants_driver::say("W " + std::to_string(k) + " " + got);
            return 0;
        }
    }
    mutants_driver::say("P");
    return 0;
}
