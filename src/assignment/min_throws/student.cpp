// The student's translation unit for min-throws. GeeksforGeeks' driver
// code, where the seed comes from, starts with `#include <bits/stdc++.h>`
// and `using namespace std;`, so this unit provides both before the
// student's file, with any `main` of theirs renamed so the harness's runs
// (salgrade warns).
#include <bits/stdc++.h>
using namespace std;
#define main salgrade_student_main
#include "min_throws.cpp"
#undef main
