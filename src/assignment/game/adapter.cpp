// The game's C++ adapter: plays a scenario on the student's `Game` and
// reports the transcript in the form `reference/src/game/compare.rs`
// specifies, exactly as adapter.py does for Python. `std::invalid_argument`
// is the rules' error (reported as `ValueError`, the name the rules use);
// any other exception from a call, or any exception from a query, is
// recorded and ends the scenario.

#include "_salgrade_driver.hpp"

void* salgrade_game_new(int size, const std::map<int, int>& jumps, int players, const std::string& finish);
int salgrade_game_move(void* g, int player, int roll);
int salgrade_game_position(void* g, int player);
int salgrade_game_winner(void* g);
int salgrade_game_play(void* g, const std::vector<int>& rolls, int max_rounds);
int salgrade_game_play_default(void* g, const std::vector<int>& rolls);
void salgrade_game_delete(void* g);

namespace {

using salgrade::Json;

// What an exception says, as the transcript records it.
Json raised_from_current(const char* query = nullptr) {
    Json out = Json::object();
    try {
        throw;
    } catch (const std::invalid_argument& e) {
        out.set("raised", Json::of("ValueError")).set("message", Json::of(std::string(e.what()).substr(0, 500)));
    } catch (const std::exception& e) {
        out.set("raised", Json::of(salgrade::type_name(typeid(e))))
            .set("message", Json::of(std::string(e.what()).substr(0, 500)));
    } catch (...) {
        std::type_info* t = abi::__cxa_current_exception_type();
        out.set("raised", Json::of(t ? salgrade::type_name(*t) : std::string("unknown")))
            .set("message", Json::of("an exception that is not a std::exception"));
    }
    if (query != nullptr) out.set("query", Json::of(query));
    return out;
}

int as_int(const Json& j) { return static_cast<int>(j.as_int()); }

std::vector<int> ints(const Json& j) {
    std::vector<int> out;
    for (const auto& v : j.as_array()) out.push_back(as_int(v));
    return out;
}

int call(void* game, const Json& c) {
    const std::string& name = c.at("call").as_string();
    const auto& args = c.at("args").as_array();
    if (name == "move") return salgrade_game_move(game, as_int(args.at(0)), as_int(args.at(1)));
    if (name == "position") return salgrade_game_position(game, as_int(args.at(0)));
    if (name == "winner") return salgrade_game_winner(game);
    if (name == "play") {
        if (args.size() > 1) return salgrade_game_play(game, ints(args.at(0)), as_int(args.at(1)));
        return salgrade_game_play_default(game, ints(args.at(0)));
    }
    throw std::runtime_error("salgrade: unknown call " + name);
}

}  // namespace

namespace salgrade_adapter {

const std::vector<std::string>& functions() {
    static const std::vector<std::string> names{"Game", "move", "play"};
    return names;
}

bool defined(const std::string&) { return true; }

Json call(const std::string&, const Json& input) {
    Json out = Json::object();
    out.set("kind", Json::of("transcript"));
    std::map<int, int> jumps;
    for (const auto& pair : input.at("jumps").as_array()) {
        jumps[as_int(pair.as_array().at(0))] = as_int(pair.as_array().at(1));
    }
    int players = as_int(input.at("players"));
    void* game = nullptr;
    try {
        game = salgrade_game_new(as_int(input.at("size")), jumps, players, input.at("finish").as_string());
    } catch (...) {
        out.set("construct", raised_from_current()).set("calls", Json::array()).set("after", Json::array());
        return out;
    }
    out.set("construct", Json::of("ok"));
    Json calls = Json::array();
    Json after = Json::array();
    for (const auto& c : input.at("calls").as_array()) {
        try {
            calls.items.push_back(Json::object().set("returns", salgrade::plain(::call(game, c))));
        } catch (...) {
            Json r = raised_from_current();
            bool rules_error = r.at("raised").as_string() == "ValueError";
            calls.items.push_back(std::move(r));
            if (!rules_error) break;
        }
        std::string query;
        try {
            Json positions = Json::array();
            for (int p = 1; p <= players; ++p) {
                query = "position(" + std::to_string(p) + ")";
                positions.items.push_back(salgrade::plain(salgrade_game_position(game, p)));
            }
            query = "winner()";
            Json winner = salgrade::plain(salgrade_game_winner(game));
            after.items.push_back(Json::object().set("positions", positions).set("winner", winner));
        } catch (...) {
            after.items.push_back(raised_from_current(query.c_str()));
            break;
        }
    }
    salgrade_game_delete(game);
    out.set("calls", calls).set("after", after);
    return out;
}

}  // namespace salgrade_adapter
