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

/// A linter the tests' Python environment installs (`tests/requirements.txt`,
/// beside `SALGRADE_TEST_PYTHON`), else one on the PATH; `None` says why not.
fn linter(name: &str) -> Result<std::path::PathBuf, String> {
    if let Some(python) = std::env::var_os("SALGRADE_TEST_PYTHON") {
        let beside = Path::new(&python).with_file_name(name);
        if beside.is_file() {
            return Ok(beside);
        }
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!("`{name}` is not installed (.ci/run installs it from tests/requirements.txt)")
        })
}

fn examples() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// Every workflow passes actionlint, which also knows each action's
/// current major and refuses one whose runtime GitHub has removed.
#[test]
fn the_workflows_pass_actionlint() {
    let actionlint = match linter("actionlint") {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let files: Vec<std::path::PathBuf> = ["github-actions", "github-classroom"]
        .iter()
        .flat_map(|d| std::fs::read_dir(examples().join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml"))
        .collect();
    assert!(files.len() >= 2, "{files:?}");
    let out = std::process::Command::new(&actionlint)
        .args(["-no-color"])
        .args(&files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The Job passes Kubernetes's own schema (strictly: no unknown field).
#[test]
fn the_kubernetes_job_passes_the_kubernetes_schema() {
    let validate = match linter("kubernetes-validate") {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let out = std::process::Command::new(&validate)
        .arg("--strict")
        .arg(examples().join("kubernetes/grade-job.yaml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What the linters cannot know: the seed never on a command line, the
/// Secret readable by its owner only, limits (not only requests) with `-j`
/// to match, and the shard count taken from the scheduler where it can be.
#[test]
fn the_examples_keep_the_seed_secret_and_size_their_jobs() {
    let read = |p: &str| std::fs::read_to_string(examples().join(p)).unwrap();
    let code = |text: &str| -> String {
        text.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    for file in [
        "github-actions/grade-sharded.yml",
        "kubernetes/grade-job.yaml",
        "slurm/grade.sbatch",
    ] {
        let text = code(&read(file));
        assert!(
            !text.contains("--seed "),
            "{file} passes the seed as an argument"
        );
        assert!(
            text.contains("--seed-file"),
            "{file} does not read the seed from a file"
        );
    }
    let k8s = read("kubernetes/grade-job.yaml");
    assert!(
        k8s.contains("defaultMode: 0400"),
        "the Secret is not mounted 0400"
    );
    assert!(k8s.contains("limits:"), "the pod has no limits");
    assert!(
        k8s.contains("-j 4") && k8s.contains("cpu: \"4\""),
        "`-j` does not match the CPUs"
    );
    let sbatch = read("slurm/grade.sbatch");
    assert!(sbatch.contains("SHARDS=${SLURM_ARRAY_TASK_COUNT"));
    assert!(code(&sbatch).contains("exec salgrade grade"));
    assert!(code(&sbatch).contains("--python"));
}
