//! Tells the tests whether bubblewrap works on this machine, so that the
//! tests that need it are reported as ignored, with the reason, where it
//! does not, instead of passing without having run. Probed again when PATH
//! changes; a `cargo clean -p salgrade` re-probes after installing it.

#![expect(
    clippy::disallowed_methods,
    reason = "the probe starts bubblewrap, as the tests would"
)]

fn main() {
    println!("cargo::rustc-check-cfg=cfg(salgrade_no_bwrap)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=PATH");
    let works = std::process::Command::new("bwrap")
        .args(["--unshare-all", "--ro-bind", "/", "/", "--", "/bin/true"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !works {
        println!("cargo::rustc-cfg=salgrade_no_bwrap");
    }
}
