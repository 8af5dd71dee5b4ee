// min-throws' C++ adapter: builds `int move[]` and `N` from a case's input
// and calls the student's function, under either name the assignment takes.
//
// Both names are declared weak: the one the student defines is linked in,
// the other stays null, so a missing function is a verdict, not a link error.
// `move` lies at the end of its memory, just before a page that cannot be
// read, so reading `move[N]` crashes at once (`process_died`, SIGSEGV)
// instead of reading whatever happens to follow.

#include "_salgrade_driver.hpp"

#include <sys/mman.h>

int getMinDiceThrows(int move[], int N) __attribute__((weak));
int get_min_dice_throws(int move[], int N) __attribute__((weak));

namespace {

using Entry = int (*)(int*, int);

Entry entry() {
    if (get_min_dice_throws != nullptr) return get_min_dice_throws;
    if (getMinDiceThrows != nullptr) return getMinDiceThrows;
    return nullptr;
}

// `n` ints ending right before a PROT_NONE page. Never freed: a call that
// crashes ends the process anyway, and one process answers few cases.
int* guarded_ints(std::size_t n) {
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

}  // namespace

namespace salgrade_adapter {

const std::vector<std::string>& functions() {
    static const std::vector<std::string> names{"get_min_dice_throws"};
    return names;
}

bool defined(const std::string& function) {
    return function == "get_min_dice_throws" && entry() != nullptr;
}

salgrade::Json call(const std::string&, const salgrade::Json& input) {
    const auto& cells = input.at("move").as_array();
    int* move = guarded_ints(cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i) move[i] = static_cast<int>(cells[i].as_int());
    int answer = entry()(move, static_cast<int>(cells.size()));
    return salgrade::plain(answer);
}

}  // namespace salgrade_adapter
