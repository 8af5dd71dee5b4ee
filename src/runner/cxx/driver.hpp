// salgrade's C++ driver: the twin of driver.py for compiled submissions.
//
// It names no assignment. The assignment's adapter (a .cpp file that
// includes this header) defines, in namespace salgrade_adapter:
//
//   const std::vector<std::string>& functions();   // the names graded
//   bool defined(const std::string& function);     // false when missing
//   salgrade::Json call(const std::string& function, const salgrade::Json& input);
//       // builds fresh arguments from the case input, calls the student's
//       // code, and returns the description of the result (values.py's form)
//
// The student's file is compiled as its own translation unit (its `main`,
// if any, renamed) and linked with the adapter's. The program is started as
// `prog IN_FD OUT_FD`; the wire format is the one `src/runner/protocol.rs`
// specifies (JSON lines on two private descriptors, never stdin/stdout).
// Exceptions that escape the student's code are data (`raised`); a crash
// ends the process, and the runner records how.

#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include <cxxabi.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace salgrade {

// A JSON value: just what the protocol needs, strictly parsed.
struct Json {
    enum class Kind { Null, Bool, Int, Float, String, Array, Object };
    Kind kind = Kind::Null;
    bool boolean = false;
    std::int64_t integer = 0;
    double number = 0.0;
    std::string text;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> fields;

    static Json null() { return Json(); }
    static Json of(bool b) { Json j; j.kind = Kind::Bool; j.boolean = b; return j; }
    static Json of(std::int64_t i) { Json j; j.kind = Kind::Int; j.integer = i; return j; }
    static Json of(int i) { return of(static_cast<std::int64_t>(i)); }
    static Json of(double d) { Json j; j.kind = Kind::Float; j.number = d; return j; }
    static Json of(const std::string& s) { Json j; j.kind = Kind::String; j.text = s; return j; }
    static Json of(const char* s) { return of(std::string(s)); }
    static Json array() { Json j; j.kind = Kind::Array; return j; }
    static Json object() { Json j; j.kind = Kind::Object; return j; }

    Json& set(const std::string& key, Json value) {
        kind = Kind::Object;
        fields.emplace_back(key, std::move(value));
        return *this;
    }
    const Json* get(const std::string& key) const {
        for (const auto& f : fields) {
            if (f.first == key) return &f.second;
        }
        return nullptr;
    }
    const Json& at(const std::string& key) const {
        const Json* j = get(key);
        if (j == nullptr) throw std::runtime_error("salgrade: missing field " + key);
        return *j;
    }
    std::int64_t as_int() const {
        if (kind != Kind::Int) throw std::runtime_error("salgrade: not an integer");
        return integer;
    }
    const std::string& as_string() const {
        if (kind != Kind::String) throw std::runtime_error("salgrade: not a string");
        return text;
    }
    const std::vector<Json>& as_array() const {
        if (kind != Kind::Array) throw std::runtime_error("salgrade: not an array");
        return items;
    }
};

class Parser {
  public:
    explicit Parser(const std::string& s) : s_(s) {}

    Json parse() {
        Json v = value();
        space();
        if (i_ != s_.size()) fail();
        return v;
    }

  private:
    const std::string& s_;
    std::size_t i_ = 0;

    [[noreturn]] void fail() { throw std::runtime_error("salgrade: malformed JSON request"); }
    void space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    bool take(char c) {
        space();
        if (i_ < s_.size() && s_[i_] == c) { ++i_; return true; }
        return false;
    }
    void expect(char c) { if (!take(c)) fail(); }
    bool word(const char* w) {
        std::size_t n = std::strlen(w);
        if (s_.compare(i_, n, w) == 0) { i_ += n; return true; }
        return false;
    }

    Json value() {
        space();
        if (i_ >= s_.size()) fail();
        char c = s_[i_];
        if (c == '{') {
            ++i_;
            Json o = Json::object();
            if (take('}')) return o;
            do {
                space();
                std::string key = string();
                expect(':');
                o.fields.emplace_back(std::move(key), value());
            } while (take(','));
            expect('}');
            return o;
        }
        if (c == '[') {
            ++i_;
            Json a = Json::array();
            if (take(']')) return a;
            do { a.items.push_back(value()); } while (take(','));
            expect(']');
            return a;
        }
        if (c == '"') return Json::of(string());
        if (word("true")) return Json::of(true);
        if (word("false")) return Json::of(false);
        if (word("null")) return Json::null();
        return number();
    }

    std::string string() {
        if (i_ >= s_.size() || s_[i_] != '"') fail();
        ++i_;
        std::string out;
        while (i_ < s_.size() && s_[i_] != '"') {
            char c = s_[i_++];
            if (c != '\\') { out.push_back(c); continue; }
            if (i_ >= s_.size()) fail();
            char e = s_[i_++];
            switch (e) {
                case '"': out.push_back('"'); break;
                case '\\': out.push_back('\\'); break;
                case '/': out.push_back('/'); break;
                case 'b': out.push_back('\b'); break;
                case 'f': out.push_back('\f'); break;
                case 'n': out.push_back('\n'); break;
                case 'r': out.push_back('\r'); break;
                case 't': out.push_back('\t'); break;
                case 'u': {
                    // Case ids are ASCII; other code points are kept as '?'.
                    if (i_ + 4 > s_.size()) fail();
                    unsigned code = std::stoul(s_.substr(i_, 4), nullptr, 16);
                    i_ += 4;
                    out.push_back(code < 0x80 ? static_cast<char>(code) : '?');
                    break;
                }
                default: fail();
            }
        }
        if (i_ >= s_.size()) fail();
        ++i_;
        return out;
    }

    Json number() {
        std::size_t start = i_;
        if (i_ < s_.size() && s_[i_] == '-') ++i_;
        bool fractional = false;
        while (i_ < s_.size()) {
            char c = s_[i_];
            if (c >= '0' && c <= '9') { ++i_; continue; }
            if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') { fractional = true; ++i_; continue; }
            break;
        }
        if (i_ == start) fail();
        std::string digits = s_.substr(start, i_ - start);
        try {
            if (fractional) return Json::of(std::stod(digits));
            return Json::of(static_cast<std::int64_t>(std::stoll(digits)));
        } catch (const std::exception&) {
            fail();
        }
    }
};

inline void write_string(std::string& out, const std::string& s) {
    out.push_back('"');
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out.push_back(static_cast<char>(c));
                }
        }
    }
    out.push_back('"');
}

inline void write(std::string& out, const Json& j) {
    switch (j.kind) {
        case Json::Kind::Null: out += "null"; break;
        case Json::Kind::Bool: out += j.boolean ? "true" : "false"; break;
        case Json::Kind::Int: out += std::to_string(j.integer); break;
        case Json::Kind::Float: {
            char buf[40];
            std::snprintf(buf, sizeof buf, "%.17g", j.number);
            out += buf;
            break;
        }
        case Json::Kind::String: write_string(out, j.text); break;
        case Json::Kind::Array:
            out.push_back('[');
            for (std::size_t k = 0; k < j.items.size(); ++k) {
                if (k) out.push_back(',');
                write(out, j.items[k]);
            }
            out.push_back(']');
            break;
        case Json::Kind::Object:
            out.push_back('{');
            for (std::size_t k = 0; k < j.fields.size(); ++k) {
                if (k) out.push_back(',');
                write_string(out, j.fields[k].first);
                out.push_back(':');
                write(out, j.fields[k].second);
            }
            out.push_back('}');
            break;
    }
}

// values.py's description of a plain returned value.
inline Json plain(std::int64_t v) {
    return Json::object().set("kind", Json::of("value")).set("type", Json::of("int")).set("value", Json::of(v));
}

// The name of an exception's type, demangled.
inline std::string type_name(const std::type_info& t) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(t.name(), nullptr, nullptr, &status), std::free);
    return status == 0 && name ? std::string(name.get()) : std::string(t.name());
}

inline double cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1000.0 + static_cast<double>(ts.tv_nsec) / 1.0e6;
}

class Channel {
  public:
    Channel(int in_fd, int out_fd) : in_(in_fd), out_(out_fd) {}

    // One line, or false at the end of input.
    bool receive(std::string& line) {
        line.clear();
        for (;;) {
            std::size_t nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return true;
            }
            char chunk[65536];
            ssize_t n = ::read(in_, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    void send(const Json& message) {
        std::string data;
        write(data, message);
        data.push_back('\n');
        std::size_t done = 0;
        while (done < data.size()) {
            ssize_t n = ::write(out_, data.data() + done, data.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) std::_Exit(3);
            done += static_cast<std::size_t>(n);
        }
    }

  private:
    int in_;
    int out_;
    std::string buffer_;
};

// Moves the protocol descriptors near the top of the allowed range, so a
// student's write(3, ...) or write(4, ...) hits nothing.
inline std::pair<int, int> take_private_fds(int in_fd, int out_fd) {
    rlimit lim{};
    getrlimit(RLIMIT_NOFILE, &lim);
    rlim_t soft = lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > 1024 ? 1024 : lim.rlim_cur;
    int base = static_cast<int>(soft) - 12 + static_cast<int>(getpid() % 8);
    if (base < 10) base = 10;
    int moved_in = fcntl(in_fd, F_DUPFD_CLOEXEC, base);
    int moved_out = fcntl(out_fd, F_DUPFD_CLOEXEC, base + 1);
    ::close(in_fd);
    ::close(out_fd);
    return {moved_in, moved_out};
}

inline void flush_student_streams() {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
    std::fflush(stderr);
}

inline Json raised(const std::string& type, const std::string& message) {
    return Json::object()
        .set("kind", Json::of("raised"))
        .set("type", Json::of(type))
        .set("message", Json::of(message.substr(0, 500)))
        .set("line", Json::null())
        .set("traceback", Json::of(""));
}

}  // namespace salgrade

namespace salgrade_adapter {
const std::vector<std::string>& functions();
bool defined(const std::string& function);
salgrade::Json call(const std::string& function, const salgrade::Json& input);
}  // namespace salgrade_adapter

int main(int argc, char** argv) {
    using salgrade::Json;
    if (argc < 3) return 2;
    auto fds = salgrade::take_private_fds(std::atoi(argv[1]), std::atoi(argv[2]));
    salgrade::Channel channel(fds.first, fds.second);
    Json defined = Json::object();
    for (const auto& f : salgrade_adapter::functions()) defined.set(f, Json::of(salgrade_adapter::defined(f)));
    std::string runtime = "C++ (" __VERSION__ ")";
    channel.send(Json::object()
                     .set("type", Json::of("ready"))
                     .set("protocol", Json::of(2))
                     .set("runtime", Json::of(runtime))
                     .set("functions", defined));
    std::string line;
    while (channel.receive(line)) {
        Json request = salgrade::Parser(line).parse();
        const Json* type = request.get("type");
        if (type == nullptr || type->kind != Json::Kind::String || type->text != "call") continue;
        const std::string& id = request.at("case").as_string();
        const std::string& function = request.at("function").as_string();
        Json outcome;
        Json cpu = Json::null();
        if (!salgrade_adapter::defined(function)) {
            outcome = Json::object().set("kind", Json::of("missing"));
        } else {
            double start = salgrade::cpu_ms();
            try {
                Json answer = salgrade_adapter::call(function, request.at("input"));
                outcome = Json::object().set("kind", Json::of("returned")).set("answer", answer);
            } catch (const std::exception& e) {
                outcome = salgrade::raised(salgrade::type_name(typeid(e)), e.what());
            } catch (...) {
                std::type_info* t = abi::__cxa_current_exception_type();
                outcome = salgrade::raised(t ? salgrade::type_name(*t) : "unknown", "an exception that is not a std::exception");
            }
            cpu = Json::of(salgrade::cpu_ms() - start);
            salgrade::flush_student_streams();
        }
        channel.send(Json::object()
                         .set("type", Json::of("result"))
                         .set("case", Json::of(id))
                         .set("outcome", outcome)
                         .set("cpu_ms", cpu)
                         .set("input_changed", Json::null()));
    }
    return 0;
}
