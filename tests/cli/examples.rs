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

/// The JSON of a JSON-with-comments file whose comments are whole lines
/// (`// ...`), as `examples/devcontainer/devcontainer.json` writes them.
fn without_line_comments(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The part of the Development Container specification's schema that the
/// example uses, with the types the specification gives each property; any
/// other property is refused, so a misspelt one (`postCreateCommands`,
/// `runargs`) fails here instead of being ignored by the editor.
const DEVCONTAINER_SUBSET: &str = r#"{
  "type": "object",
  "required": ["name", "image", "postCreateCommand"],
  "additionalProperties": false,
  "properties": {
    "name": {"type": "string", "minLength": 1},
    "image": {"type": "string", "minLength": 1},
    "runArgs": {"type": "array", "items": {"type": "string"}},
    "postCreateCommand": {
      "anyOf": [
        {"type": "string"},
        {"type": "array", "items": {"type": "string"}},
        {"type": "object", "additionalProperties": {"type": ["string", "array"]}}
      ]
    },
    "customizations": {
      "type": "object",
      "properties": {
        "vscode": {
          "type": "object",
          "properties": {"extensions": {"type": "array", "items": {"type": "string"}}}
        }
      }
    },
    "hostRequirements": {
      "type": "object",
      "properties": {"cpus": {"type": "integer", "minimum": 1}}
    }
  }
}"#;

#[test]
fn the_dev_container_installs_the_classroom_wheel_on_x86_64_with_python_and_gxx() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let text = std::fs::read_to_string(root.join("devcontainer/devcontainer.json")).unwrap();
    let config: serde_json::Value = serde_json::from_str(&without_line_comments(&text))
        .unwrap_or_else(|e| panic!("devcontainer.json is not JSON with line comments: {e}"));
    let schema: serde_json::Value = serde_json::from_str(DEVCONTAINER_SUBSET).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&config)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let mut misspelt = config.clone();
    let command = misspelt
        .as_object_mut()
        .unwrap()
        .remove("postCreateCommand")
        .unwrap();
    misspelt["postCreateCommands"] = command;
    assert!(
        !validator.is_valid(&misspelt),
        "the subset accepts anything"
    );
    // The wheel is x86_64 only: the container must be, on an Arm laptop too.
    let run_args: Vec<&str> = config["runArgs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(run_args.contains(&"--platform=linux/amd64"), "{run_args:?}");
    // Python for Python submissions and g++ for C++ ones: a full Debian
    // Python image, not a slim one (which has no compiler).
    let image = config["image"].as_str().unwrap();
    assert!(
        image.starts_with("python:3.") && image.ends_with("-bookworm"),
        "{image}"
    );
    // The same wheel, at the same path, as the Classroom workflow.
    let workflow = std::fs::read_to_string(root.join("github-classroom/classroom.yml")).unwrap();
    let wheel = ".github/salgrade/salgrade-*.whl";
    assert!(workflow.contains(&format!("pipx install {wheel}")));
    let install = config["postCreateCommand"].as_str().unwrap();
    assert!(
        install.contains(&format!(
            "pip install --no-cache-dir --root-user-action=ignore {wheel}"
        )),
        "{install}"
    );
    assert!(install.ends_with("salgrade --version"), "{install}");
}
