//! The CI examples under `examples/` work for a course whose copy of
//! salgrade is private, and do not rebuild it on every push.

use std::path::Path;

fn workflows() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut found = Vec::new();
    for dir in ["github-classroom", "github-actions"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = e.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            found.push((path.display().to_string(), text));
        }
    }
    assert!(found.len() >= 2, "{found:?}");
    found
}

#[test]
fn workflows_install_the_wheel_with_a_token_that_can_read_it() {
    for (path, text) in workflows() {
        let text: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        // A checkout of another (private) repository with the default
        // token fails; building salgrade on each push costs minutes.
        assert!(
            !text.contains("repository:"),
            "{path} checks out another repository"
        );
        assert!(!text.contains("cargo install"), "{path} builds salgrade");
        // The wheel comes from a release (with a token that can read it)
        // or from the repository itself (no token needed).
        let downloads = text.matches("gh release download").count();
        assert_eq!(
            text.matches("GH_TOKEN: ${{ secrets.SALGRADE_TOKEN").count(),
            downloads,
            "{path}: every download needs the token secret"
        );
        assert!(
            text.contains("pipx install"),
            "{path} does not install the wheel"
        );
    }
}
