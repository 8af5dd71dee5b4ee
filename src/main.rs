fn main() -> std::process::ExitCode {
    salgrade::run()
}
