//! `clasp-cli inspect` run as a program: JSON per file on stdout, one line per failure on stderr,
//! and the exit status.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

use serde_json::{Value, json};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

fn inspect(args: &[&Path], flags: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clasp-cli"))
        .arg("inspect")
        .args(flags)
        .args(args)
        .env_remove("GRASPIT")
        .output()
        .unwrap()
}

fn stdout_json(output: &Output) -> Vec<Value> {
    String::from_utf8(output.stdout.clone())
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn stderr_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stderr.clone())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A fresh folder holding the given files.
fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clasp-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

#[test]
fn summarises_each_kind_of_file() {
    let m = models();
    let files = [
        m.join("objects/clasp_mug.off"),
        m.join("objects/clasp_mug.xml"),
        m.join("robots/ClaspHand/ClaspHand.xml"),
        m.join("worlds/default.xml"),
        m.join("robots/ClaspHand/ClaspHand.urdf"),
    ];
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let output = inspect(&paths, &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The bare mesh says how it was read, and nothing else is said.
    assert_eq!(
        stderr_lines(&output),
        [
            "clasp-cli: clasp_mug.off: 105 across, read as millimetres (105 mm); pass --units m if it is not"
        ]
    );
    let [mesh, body, robot, world, urdf] = <[Value; 5]>::try_from(stdout_json(&output)).unwrap();

    assert_eq!(mesh["kind"], "geometry");
    assert_eq!(mesh["file"], files[0].display().to_string());
    let triangles = mesh["triangles"].as_u64().unwrap();
    assert!(triangles > 100, "{mesh}");
    assert_eq!(mesh["closed"], true);
    assert_eq!((&mesh["units"], &mesh["up"]), (&json!("mm"), &json!("z")));
    let lo = &mesh["bounding_box"]["min"];
    assert_eq!(lo.as_array().unwrap().len(), 3);

    assert_eq!(body["kind"], "body");
    assert_eq!(body["triangles"].as_u64(), Some(triangles));
    assert_eq!(
        (&body["material"], &body["mass"]),
        (&"glass".into(), &300.0.into())
    );
    assert_eq!(body["cog"].as_array().unwrap().len(), 3);
    assert_eq!(body["inertia_per_unit_mass"].as_array().unwrap().len(), 3);
    assert_eq!(body["youngs"], Value::Null);
    assert_eq!(body["open_mesh_estimate"], false);

    assert_eq!(robot["kind"], "robot");
    assert_eq!(robot["name"], "ClaspHand");
    let dofs = robot["dofs"].as_array().unwrap();
    assert_eq!(dofs.len(), 4);
    assert_eq!(dofs[0]["kind"], "rigid");
    // GraspIt's DOFs carry no names: each is named by the joints it drives.
    assert_eq!(dofs[0]["name"], "chain 0 joint 0, chain 1 joint 0");
    assert_eq!(dofs[1]["limits"].as_array().unwrap().len(), 2);
    let chains = robot["chains"].as_array().unwrap();
    assert_eq!(chains.len(), 3);
    let links = robot["links"].as_array().unwrap();
    let chain_links: usize = chains
        .iter()
        .map(|c| c["links"].as_array().unwrap().len())
        .sum();
    // The palm, then every chain's links.
    assert_eq!(links.len(), 1 + chain_links);
    assert_eq!(links[0], "ClaspHandBase");
    assert!(robot["triangles"].as_u64().unwrap() > 0);
    // No eigengrasp file: one identity eigengrasp per DOF, the amplitudes measured from the
    // middle of each DOF's range.
    let eigen = &robot["eigengrasps"];
    assert_eq!(
        (&eigen["from_file"], &eigen["count"]),
        (&json!(false), &json!(4))
    );
    assert_eq!(eigen["amplitudes"].as_array().unwrap().len(), 4);

    // The same hand described in URDF: the same DOFs, chains and triangles.
    assert_eq!(urdf["kind"], "urdf");
    assert_eq!(urdf["dofs"].as_array().unwrap().len(), 4);
    // A URDF's DOF is named by its joint (the one the mimic joints follow).
    let names: Vec<&str> = urdf["dofs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "chain1_joint0",
            "chain0_joint1",
            "chain1_joint1",
            "chain2_joint0"
        ]
    );
    assert_eq!(urdf["chains"].as_array().unwrap().len(), 3);
    assert_eq!(urdf["triangles"], robot["triangles"]);

    assert_eq!(world["kind"], "world");
    assert_eq!(world["bodies"][0]["name"], "clasp_mug");
    assert_eq!(world["bodies"][0]["kind"], "graspable");
    assert_eq!(world["robots"][0]["name"], "ClaspHand");
    assert_eq!(world["robots"][0]["dof_values"][1], 0.2);
    let t = &world["robots"][0]["pose"]["translation"];
    assert_eq!((t[0].as_f64(), t[2].as_f64()), (Some(-60.0), Some(80.0)));
}

#[test]
fn a_malformed_file_is_one_stderr_line_with_file_and_line() {
    let dir = scratch(
        "bad",
        &[
            (
                "bad.xml",
                "<root>\n  <material>wood</material>\n  <mass>heavy</mass>\n</root>\n",
            ),
            ("broken.xml", "<root>\n<mass>1</mass>\n"),
        ],
    );
    let good = models().join("objects/clasp_box.xml");
    let bad = dir.join("bad.xml");
    let output = inspect(&[&bad, &good], &[]);
    assert_eq!(output.status.code(), Some(1));
    // The good file is still summarised.
    assert_eq!(stdout_json(&output).len(), 1);
    let lines = stderr_lines(&output);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(
        lines[0],
        format!(
            "{}:3: <mass> holds \"heavy\", which is not a finite number",
            bad.display()
        )
    );

    let broken = dir.join("broken.xml");
    let output = inspect(&[&broken], &["--progress"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let lines = stderr_lines(&output);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with(&format!("{}:3: ", broken.display())),
        "{lines:?}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn missing_and_unknown_files_each_fail_on_one_line() {
    let dir = scratch(
        "unknown",
        &[
            ("notes.txt", "hello"),
            (
                "eigen.xml",
                "<?xml version=\"1.0\"?>\n<EigenGrasps dimensions=\"4\"/>\n",
            ),
        ],
    );
    let missing = dir.join("nowhere.off");
    let (notes, eigen) = (dir.join("notes.txt"), dir.join("eigen.xml"));
    let output = inspect(&[&missing, &notes, &eigen], &[]);
    assert_eq!(output.status.code(), Some(1));
    let lines = stderr_lines(&output);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with(&format!("{}: missing", missing.display())),
        "{lines:?}"
    );
    assert!(lines[1].contains("unknown file type \".txt\""), "{lines:?}");
    assert!(lines[2].starts_with(&format!(
        "{}:2: root element <EigenGrasps>",
        eigen.display()
    )));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_open_mesh_body_loads_with_a_warning() {
    let dir = scratch(
        "open",
        &[
            ("tri.off", "OFF\n3 1 0\n0 0 0\n10 0 0\n0 10 0\n3 0 1 2\n"),
            (
                "sheet.xml",
                "<root><geometryFile>tri.off</geometryFile></root>",
            ),
        ],
    );
    let sheet = dir.join("sheet.xml");
    let output = inspect(&[&sheet], &["--progress"]);
    assert!(output.status.success());
    let json = stdout_json(&output);
    assert_eq!(json[0]["open_mesh_estimate"], true);
    assert_eq!(json[0]["closed"], false);
    let lines = stderr_lines(&output);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("warning: body \"sheet\" has an open mesh"),
        "{lines:?}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn worlds_resolve_against_the_graspit_root_flag() {
    let dir = scratch(
        "root",
        &[(
            "w.xml",
            "<world><graspableBody><filename>models/objects/clasp_box.xml</filename></graspableBody></world>",
        )],
    );
    let world = dir.join("w.xml");
    let output = inspect(&[&world], &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr_lines(&output)[0].contains("cannot find \"models/objects/clasp_box.xml\""));
    let root = models().join("..");
    let flag = format!("--graspit-root={}", root.display());
    let output = inspect(&[&world], &[&flag]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout_json(&output)[0]["bodies"][0]["name"], "clasp_box");
    std::fs::remove_dir_all(dir).unwrap();
}

/// GraspIt's Barrett: its eigengrasps (a spread and a close-all one, from its file) and its
/// virtual contacts, both in the robot's summary; a virtual contact file on its own.
#[test]
fn the_barrett_s_eigengrasps_and_virtual_contacts_are_listed() {
    let Some(library) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let robot = library.join("robots/Barrett/Barrett.xml");
    let tips = library.join("robots/Barrett/virtual/fingertips.xml");
    let output = inspect(&[&robot, &tips], &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let [robot, tips] = <[Value; 2]>::try_from(stdout_json(&output)).unwrap();
    let eigen = &robot["eigengrasps"];
    assert_eq!(
        (&eigen["from_file"], &eigen["count"]),
        (&json!(true), &json!(2))
    );
    assert_eq!(eigen["amplitudes"].as_array().unwrap().len(), 2);
    assert_eq!(
        robot["virtual_contacts"]["count"], 19,
        "all_16_contacts.xml lists 19"
    );
    assert_eq!(tips["kind"], "virtual contacts");
    assert_eq!(
        (&tips["robot_name"], &tips["count"]),
        (&json!("Barrett"), &json!(3))
    );
    for contact in tips["contacts"].as_array().unwrap() {
        assert!(contact["body"]["chain"].as_u64().unwrap() < 3, "{contact}");
        assert!(contact["friction_edges"].as_u64().unwrap() > 0, "{contact}");
    }
}
