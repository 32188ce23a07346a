//! `clasp-cli contacts`, `clasp-cli grasp` and `clasp-cli quality` run as a program on the default
//! scene and on small world files written for each test: what they print, as text and JSON, and
//! how they fail. The Barrett test needs GraspIt's model library in `../shared/graspit-models`;
//! without it it says so and passes.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

use serde_json::Value;

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models")
        .canonicalize()
        .unwrap()
}

fn default_world() -> PathBuf {
    models().join("worlds/default.xml")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clasp-cli"))
        .args(args)
        .env_remove("GRASPIT")
        .output()
        .unwrap()
}

fn ok_stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn ok_json(output: &Output) -> Value {
    serde_json::from_str(&ok_stdout(output)).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// A fresh folder holding the given files.
fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clasp-cli-world-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Two 50 × 40 × 80 mm boxes side by side along x, `gap` mm apart: an obstacle at the origin
/// and a graspable body.
fn boxes_world(gap: f64) -> String {
    let object = models().join("objects/clasp_box.xml");
    let object = object.display();
    format!(
        r#"<?xml version="1.0" ?>
<world>
    <obstacle>
        <filename>{object}</filename>
    </obstacle>
    <graspableBody>
        <filename>{object}</filename>
        <transform><translation>{} 0 0</translation></transform>
    </graspableBody>
</world>
"#,
        50.0 + gap
    )
}

/// The mug of the default scene and Clasp's hand at `palm_x` on the x axis, 80 mm up, turned
/// about y by `turn` degrees (90 faces the mug).
fn hand_and_mug_world(palm_x: f64, turn: f64) -> String {
    let mug = models().join("objects/clasp_mug.xml");
    let hand = models().join("robots/ClaspHand/ClaspHand.xml");
    format!(
        r#"<?xml version="1.0" ?>
<world>
    <graspableBody>
        <filename>{}</filename>
        <transform><fullTransform>(0.8660254 0 0 -0.5)[0 0 0]</fullTransform></transform>
    </graspableBody>
    <robot>
        <filename>{}</filename>
        <dofValues>0 0.2 0.2 0.2</dofValues>
        <transform><translation>{palm_x} 0 80</translation><rotation>{turn} y</rotation></transform>
    </robot>
</world>
"#,
        mug.display(),
        hand.display()
    )
}

fn contacts_of(document: &Value) -> &Vec<Value> {
    let contacts = document["contacts"].as_array().unwrap();
    assert_eq!(document["count"].as_u64().unwrap() as usize, contacts.len());
    contacts
}

fn vector(value: &Value) -> [f64; 3] {
    let v: Vec<f64> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    <[f64; 3]>::try_from(v).unwrap()
}

/// Checks that each finger chain of the hand touches the mug, with every contact of the world
/// closer than the default threshold.
fn assert_every_finger_on_the_mug(document: &Value) {
    let contacts = contacts_of(document);
    for contact in contacts {
        let separation = contact["separation"].as_f64().unwrap();
        assert!((0.0..0.1).contains(&separation), "{contact}");
        let normal = vector(&contact["normal"]);
        let length = normal.iter().map(|x| x * x).sum::<f64>().sqrt();
        assert!((length - 1.0).abs() < 1e-9, "{contact}");
        let (mu_s, mu_k) = (
            contact["static_friction"].as_f64().unwrap(),
            contact["kinetic_friction"].as_f64().unwrap(),
        );
        assert!(mu_s > 0.0 && mu_k > 0.0 && mu_k <= mu_s, "{contact}");
    }
    for chain in 0..3 {
        let on_mug = contacts.iter().any(|c| {
            let sides = [&c["body"], &c["other"]];
            sides
                .iter()
                .any(|s| s["name"] == "clasp_mug" && s["id"] == "body 0")
                && sides.iter().any(|s| {
                    s["robot"] == "ClaspHand"
                        && s["chain"] == chain
                        && s["id"]
                            .as_str()
                            .unwrap()
                            .starts_with(&format!("robot 0 chain {chain} link "))
                })
        });
        assert!(
            on_mug,
            "finger chain {chain} does not touch the mug: {document}"
        );
    }
    for contact in contacts {
        assert_eq!(contact["is_self_collision"], false, "{contact}");
        // The mug is body 0, the pair's first body; the hand is dynamic.
        assert_eq!(contact["body"]["name"], "clasp_mug");
        assert_eq!(contact["other_type"], "dynamic");
    }
}

#[test]
fn the_default_scene_has_no_contacts_until_the_threshold_reaches_the_mug() {
    let world = default_world();
    let text = ok_stdout(&run(&["contacts", path_str(&world)]));
    assert_eq!(text.trim(), "0 contacts within 0.1 mm");
    let document = ok_json(&run(&["contacts", path_str(&world), "--json"]));
    assert_eq!(document["threshold"], 0.1);
    assert!(contacts_of(&document).is_empty());

    // The palm is about 20 mm from the mug: 30 mm reaches it, each contact listed once.
    let document = ok_json(&run(&[
        "contacts",
        "--threshold",
        "30",
        "--json",
        path_str(&world),
    ]));
    let contacts = contacts_of(&document);
    let palm_mug = contacts
        .iter()
        .filter(|c| c["body"]["name"] == "clasp_mug" && c["other"]["id"] == "robot 0 palm")
        .count();
    assert!(palm_mug > 0, "{document}");
    for contact in contacts {
        let separation = contact["separation"].as_f64().unwrap();
        assert!((0.0..30.0).contains(&separation), "{contact}");
        assert_ne!(contact["body"]["id"], contact["other"]["id"], "{contact}");
    }
}

#[test]
fn contacts_of_two_boxes_follow_the_threshold() {
    let dir = scratch("boxes", &[("boxes.xml", &boxes_world(0.05))]);
    let world = dir.join("boxes.xml");

    let document = ok_json(&run(&["contacts", path_str(&world), "--json"]));
    assert_eq!(document["file"], path_str(&world));
    let contacts = contacts_of(&document);
    assert!(!contacts.is_empty(), "{document}");
    for contact in contacts {
        // Each physical contact once, from the obstacle's side (body 0).
        assert_eq!(contact["body"]["id"], "body 0", "{contact}");
        assert_eq!(contact["body"]["name"], "clasp_box");
        assert_eq!(contact["other"]["id"], "body 1", "{contact}");
        assert!(contact["body"].get("robot").is_none());
        let separation = contact["separation"].as_f64().unwrap();
        assert!((separation - 0.05).abs() < 1e-6, "{contact}");
        let point = vector(&contact["point"]);
        let other = vector(&contact["other_point"]);
        assert!((point[0] - 25.0).abs() < 1e-6, "{contact}");
        assert!((other[0] - 25.05).abs() < 1e-6, "{contact}");
        // The normal points into the obstacle: the other box pushes it along -x.
        let normal = vector(&contact["normal"]);
        assert!((normal[0] + 1.0).abs() < 1e-9, "{contact}");
        assert_eq!(contact["other_type"], "dynamic");
        assert_eq!(contact["is_self_collision"], false);
        let (mu_s, mu_k) = (
            contact["static_friction"].as_f64().unwrap(),
            contact["kinetic_friction"].as_f64().unwrap(),
        );
        assert!(mu_s > 0.0 && mu_k > 0.0 && mu_k <= mu_s, "{contact}");
    }
    let at_default = contacts.len();

    // The text form: one line per contact and a count.
    let text = ok_stdout(&run(&["contacts", path_str(&world)]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), at_default + 1, "{text}");
    assert_eq!(
        lines[at_default],
        format!("{at_default} contacts within 0.1 mm")
    );
    for line in &lines[..at_default] {
        assert!(
            line.starts_with("clasp_box | clasp_box: point (25.000, "),
            "{line}"
        );
        assert!(line.contains("separation 0.0500 mm"), "{line}");
        assert!(line.contains("μ static"), "{line}");
    }

    // A threshold below the gap finds nothing; a wider one at least as much.
    let tiny = ok_json(&run(&[
        "contacts",
        path_str(&world),
        "--threshold",
        "0.000001",
        "--json",
    ]));
    assert_eq!(tiny["threshold"], 0.000001);
    assert!(contacts_of(&tiny).is_empty(), "{tiny}");
    let wide = ok_json(&run(&[
        "contacts",
        path_str(&world),
        "--threshold=1",
        "--json",
    ]));
    assert!(contacts_of(&wide).len() >= at_default, "{wide}");
}

#[test]
fn approach_and_auto_grasp_put_every_finger_on_the_mug() {
    let world = default_world();
    let document = ok_json(&run(&[
        "grasp",
        path_str(&world),
        "--approach",
        "--auto",
        "--json",
    ]));
    assert_eq!(document["robot"], "ClaspHand");
    assert_eq!(document["approach"]["touched"], true, "{document}");
    let approach_stops = document["approach"]["stopped_by"].as_array().unwrap();
    assert!(!approach_stops.is_empty());
    assert!(
        approach_stops
            .iter()
            .all(|pair| pair[0]["robot"] == "ClaspHand" && pair[1]["name"] == "clasp_mug"),
        "{document}"
    );
    assert!(!document["stopped_by"].as_array().unwrap().is_empty());
    let dofs: Vec<f64> = document["dof_values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(dofs.len(), 4);
    // The fingers closed from 0.2 rad and stopped on the mug, short of their 100° limit.
    for &flex in &dofs[1..] {
        assert!(flex > 0.2 && flex < 1.7, "{dofs:?}");
    }
    assert_every_finger_on_the_mug(&document);

    let text = ok_stdout(&run(&["grasp", path_str(&world), "--approach", "--auto"]));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("approach: touched: "), "{text}");
    assert!(lines[1].starts_with("grasp: stopped by "), "{text}");
    assert!(lines[2].starts_with("DOF values"), "{text}");
    let count = contacts_of(&document).len();
    assert_eq!(lines.len(), 3 + count + 1, "{text}");
    assert_eq!(lines[lines.len() - 1], format!("{count} contacts"));
}

#[test]
fn auto_grasp_alone_closes_on_a_mug_within_reach() {
    let dir = scratch("reach", &[("reach.xml", &hand_and_mug_world(-50.0, 90.0))]);
    let world = dir.join("reach.xml");
    // Nothing touches before the grasp.
    let before = ok_json(&run(&["contacts", path_str(&world), "--json"]));
    assert!(contacts_of(&before).is_empty(), "{before}");

    let document = ok_json(&run(&["grasp", path_str(&world), "--auto", "--json"]));
    assert!(document["approach"].is_null(), "{document}");
    assert_every_finger_on_the_mug(&document);
}

#[test]
fn an_approach_that_meets_nothing_goes_back_and_the_fingers_close_fully() {
    // The hand faces away from the mug, with nothing in front of it.
    let dir = scratch("away", &[("away.xml", &hand_and_mug_world(-150.0, -90.0))]);
    let world = dir.join("away.xml");
    let document = ok_json(&run(&[
        "grasp",
        path_str(&world),
        "--auto",
        "--approach",
        "--json",
    ]));
    assert_eq!(document["approach"]["touched"], false, "{document}");
    assert!(document["approach"]["max_distance"].as_f64().unwrap() > 100.0);
    assert!(document["stopped_by"].as_array().unwrap().is_empty());
    assert!(contacts_of(&document).is_empty(), "{document}");
    let dofs = document["dof_values"].as_array().unwrap();
    // Each finger flexes to its 100° limit.
    for flex in &dofs[1..] {
        assert!((flex.as_f64().unwrap() - 100f64.to_radians()).abs() < 1e-9);
    }
    let text = ok_stdout(&run(&["grasp", path_str(&world), "--auto", "--approach"]));
    assert!(
        text.starts_with("approach: touched nothing within "),
        "{text}"
    );
    assert!(text.trim_end().ends_with("0 contacts"), "{text}");
}

#[test]
fn grasp_needs_auto_and_a_robot() {
    let world = default_world();
    let output = run(&["grasp", path_str(&world), "--approach"]);
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains("only auto-grasp"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("--auto"));

    let mug = models().join("objects/clasp_mug.xml");
    let text = format!(
        "<world><graspableBody><filename>{}</filename></graspableBody></world>",
        mug.display()
    );
    let dir = scratch("no-robot", &[("mug.xml", &text)]);
    let world = dir.join("mug.xml");
    let output = run(&["grasp", path_str(&world), "--auto"]);
    assert!(!output.status.success());
    assert_eq!(
        stderr(&output).trim_end(),
        format!(
            "{}: the world has no hand to grasp with (it has no robot)",
            world.display()
        )
    );
}

/// An arm listed before the hand: `grasp` and `quality` use the world's first hand, as
/// GraspIt's current hand; `--robot` takes a name or an index; a robot that is not there is
/// refused, naming the ones that are.
#[test]
fn the_current_hand_grasps_and_robot_takes_a_name_or_an_index() {
    let Some(library) = graspit_models() else {
        return;
    };
    let puma = library.join("robots/Puma560/Puma560.xml");
    let with_arm = hand_and_mug_world(-95.0, 90.0).replace(
        "<world>",
        &format!(
            "<world>\n    <robot><filename>{}</filename><transform><translation>0 600 0</translation></transform></robot>",
            puma.display()
        ),
    );
    let dir = scratch("arm-first", &[("w.xml", &with_arm)]);
    let world = dir.join("w.xml");
    let robot_of = |extra: &[&str]| {
        let mut args = vec!["grasp", path_str(&world), "--auto", "--json"];
        args.extend_from_slice(extra);
        ok_json(&run(&args))["robot"].clone()
    };
    assert_eq!(robot_of(&[]), "ClaspHand", "the first hand, past the arm");
    assert_eq!(robot_of(&["--robot", "1"]), "ClaspHand");
    assert_eq!(robot_of(&["--robot", "Puma560"]), "Puma560");
    let quality = quality_json(&[path_str(&world), "--auto"]);
    assert_eq!(quality["robot"], "ClaspHand");
    assert_eq!(quality["robot_index"], 1);

    let output = run(&["grasp", path_str(&world), "--auto", "--robot", "Shadow"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("no robot \"Shadow\" (its robots: 0 Puma560, 1 ClaspHand)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bad_thresholds_are_refused() {
    let world = default_world();
    for bad in ["0", "-1", "NaN", "inf", "-0.5", "abc"] {
        let output = run(&["contacts", path_str(&world), "--threshold", bad]);
        assert!(!output.status.success(), "--threshold {bad} was taken");
        assert!(output.stdout.is_empty());
        let message = stderr(&output);
        assert!(message.contains("--threshold"), "{message}");
        assert!(
            message.contains("positive number of millimetres")
                || message.contains("is not a number"),
            "{message}"
        );
        assert!(message.contains(bad), "{message}");
    }
}

#[test]
fn a_missing_or_broken_world_is_one_line_naming_the_file() {
    let dir = scratch("broken", &[]);
    let missing = dir.join("missing.xml");
    for command in [
        vec!["contacts", path_str(&missing)],
        vec!["grasp", path_str(&missing), "--auto"],
    ] {
        let output = run(&command);
        assert_eq!(output.status.code(), Some(1));
        assert!(output.stdout.is_empty());
        let message = stderr(&output);
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(message.starts_with(path_str(&missing)), "{message}");
    }

    // A world whose body file is missing: the world file and the line of the name.
    let text = "<?xml version=\"1.0\" ?>\n<world>\n<graspableBody>\n\
                <filename>no/such/body.xml</filename>\n</graspableBody>\n</world>\n";
    let dir = scratch("broken-body", &[("broken.xml", text)]);
    let world = dir.join("broken.xml");
    let output = run(&["contacts", path_str(&world), "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.starts_with(&format!("{}:4: ", world.display())),
        "{message}"
    );
    assert!(message.contains("no/such/body.xml"), "{message}");
}

#[test]
fn graspit_root_resolves_the_world_s_file_names() {
    let text = "<world>\n<obstacle><filename>objects/clasp_box.xml</filename></obstacle>\n\
                <graspableBody><filename>objects/clasp_box.xml</filename>\n\
                <transform><translation>50.05 0 0</translation></transform></graspableBody>\n\
                </world>\n";
    let dir = scratch("root", &[("boxes.xml", text)]);
    let world = dir.join("boxes.xml");
    // Without a root the names do not resolve from the scratch folder.
    assert!(!run(&["contacts", path_str(&world)]).status.success());
    let models = models();
    let document = ok_json(&run(&[
        "contacts",
        path_str(&world),
        "--graspit-root",
        path_str(&models),
        "--json",
    ]));
    assert!(!contacts_of(&document).is_empty(), "{document}");
    // $GRASPIT does the same when no flag is given.
    let output = Command::new(env!("CARGO_BIN_EXE_clasp-cli"))
        .args(["contacts", path_str(&world), "--json"])
        .env("GRASPIT", &models)
        .output()
        .unwrap();
    assert_eq!(ok_json(&output)["count"], document["count"]);
}

/// GraspIt's model library beside the workspace, or `None` after saying why a test skips.
fn graspit_models() -> Option<PathBuf> {
    clasp_io::fixtures::graspit_models()
}

fn quality_json(args: &[&str]) -> Value {
    let mut all = vec!["quality"];
    all.extend_from_slice(args);
    all.push("--json");
    ok_json(&run(&all))
}

/// Checks the fields every `quality --json` document has, and returns its contacts.
fn assert_quality_document(document: &Value) -> &Vec<Value> {
    for key in [
        "file",
        "robot",
        "object",
        "wrench_space",
        "metric",
        "force_closure",
        "epsilon",
        "volume",
        "contacts",
    ] {
        assert!(document.get(key).is_some(), "no {key}: {document}");
    }
    let force_closure = document["force_closure"].as_bool().unwrap();
    match document["epsilon"].as_f64() {
        Some(epsilon) => assert!(force_closure && epsilon > 0.0, "{document}"),
        None => assert!(
            !force_closure && document["epsilon"].is_null(),
            "{document}"
        ),
    }
    let contacts = document["contacts"].as_array().unwrap();
    for contact in contacts {
        let friction = contact["friction"].as_f64().unwrap();
        assert!(friction >= 0.0, "{contact}");
        assert!(
            contact["body"]["id"]
                .as_str()
                .unwrap()
                .starts_with("robot ")
        );
        vector(&contact["point"]);
        let kind = contact["model"]["kind"].as_str().unwrap();
        assert!(
            ["point", "point_fallback", "soft"].contains(&kind),
            "{contact}"
        );
        let wrenches = contact["wrenches"].as_array().unwrap();
        assert!(!wrenches.is_empty(), "{contact}");
        assert!(
            wrenches.iter().all(|w| w.as_array().unwrap().len() == 6),
            "{contact}"
        );
    }
    contacts
}

#[test]
fn the_default_grasp_is_force_closure_with_the_same_quality_every_run() {
    let world = default_world();
    let args = [path_str(&world), "--approach", "--auto"];
    let document = quality_json(&args);
    let contacts = assert_quality_document(&document);
    assert_eq!(document["file"], path_str(&world));
    assert_eq!(document["robot"], "ClaspHand");
    assert_eq!(document["robot_index"], 0);
    assert_eq!(document["object"]["name"], "clasp_mug");
    assert_eq!(document["object"]["id"], "body 0");
    assert_eq!(document["wrench_space"], "l1");
    assert_eq!(document["metric"], "epsilon");
    assert_eq!(document["force_closure"], true, "{document}");
    assert!(document["epsilon"].as_f64().unwrap() > 0.0);
    assert!(document["volume"].is_null(), "{document}");
    assert_eq!(document["approach"]["touched"], true, "{document}");
    assert!(
        !document["auto_grasp"]["stopped_by"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // Every finger chain pushes on the mug.
    for chain in 0..3 {
        assert!(
            contacts.iter().any(|c| c["body"]["chain"] == chain),
            "chain {chain}: {document}"
        );
    }
    // A second run gives the same numbers, to the last bit.
    let again = quality_json(&args);
    assert_eq!(again["epsilon"], document["epsilon"]);
    assert_eq!(again["contacts"], document["contacts"]);

    // Text: the moves, a line per contact, the quality, force closure.
    let text = ok_stdout(&run(&["quality", path_str(&world), "--approach", "--auto"]));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("approach: touched: "), "{text}");
    assert!(lines[1].starts_with("grasp: stopped by "), "{text}");
    assert_eq!(
        lines[2],
        format!(
            "clasp_mug grasped by ClaspHand (robot 0): {} contacts",
            contacts.len()
        )
    );
    let n = contacts.len();
    assert_eq!(lines.len(), 3 + n + 2, "{text}");
    for line in &lines[3..3 + n] {
        assert!(line.starts_with("ClaspHand_chain"), "{line}");
        assert!(line.contains(" mm, μ "), "{line}");
        assert!(line.ends_with("point contact"), "{line}");
    }
    let epsilon = document["epsilon"].as_f64().unwrap();
    assert_eq!(
        lines[3 + n],
        format!("epsilon {epsilon:.6} (l1 wrench space, {n} contacts)")
    );
    assert_eq!(lines[4 + n], "force-closure: yes");
}

#[test]
fn the_volume_is_reported_only_when_asked_for() {
    let world = default_world();
    let document = quality_json(&[
        path_str(&world),
        "--approach",
        "--auto",
        "--metric",
        "volume",
    ]);
    assert_quality_document(&document);
    assert_eq!(document["metric"], "volume");
    assert!(document["volume"].as_f64().unwrap() > 0.0, "{document}");
    let epsilon_only = quality_json(&[path_str(&world), "--approach", "--auto"]);
    assert_eq!(document["epsilon"], epsilon_only["epsilon"]);

    let text = ok_stdout(&run(&[
        "quality",
        path_str(&world),
        "--approach",
        "--auto",
        "--metric=volume",
    ]));
    let quality_line = text.lines().rev().nth(1).unwrap();
    assert!(
        quality_line.starts_with("epsilon ") && quality_line.contains(", volume "),
        "{text}"
    );
}

#[test]
fn without_a_grasp_the_default_hand_does_not_touch_the_mug() {
    let world = default_world();
    let text = ok_stdout(&run(&["quality", path_str(&world)]));
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "clasp_mug grasped by ClaspHand (robot 0): 0 contacts",
            "not force-closure (l1 wrench space, 0 contacts)",
            "force-closure: no",
        ],
        "{text}"
    );
    assert!(!text.contains("-1"), "{text}");
    let document = quality_json(&[path_str(&world), "--metric", "volume"]);
    assert!(assert_quality_document(&document).is_empty());
    assert_eq!(document["force_closure"], false);
    assert!(document["epsilon"].is_null());
    assert_eq!(document["volume"], 0.0);
    assert!(document["approach"].is_null() && document["auto_grasp"].is_null());
}

#[test]
fn the_l_infinity_wrench_space_works_or_says_why_not() {
    let world = default_world();
    // No contacts: an empty Minkowski sum, not force-closure.
    let document = quality_json(&[path_str(&world), "--gws", "linf"]);
    assert_eq!(document["wrench_space"], "linf");
    assert_eq!(document["force_closure"], false);
    let text = ok_stdout(&run(&["quality", path_str(&world), "--gws=LINF"]));
    assert!(
        text.contains("not force-closure (linf wrench space, 0 contacts)"),
        "{text}"
    );
    // The approach alone: the first links of two fingers touch the mug, four contacts on one
    // line, so the Minkowski sum is flat: no volume, not force-closure.
    let document = quality_json(&[
        path_str(&world),
        "--approach",
        "--gws",
        "linf",
        "--metric",
        "volume",
    ]);
    assert_eq!(document["wrench_space"], "linf");
    assert!(!assert_quality_document(&document).is_empty(), "{document}");
    assert_eq!(document["force_closure"], false, "{document}");
    assert_eq!(document["volume"], 0.0, "{document}");
}

#[test]
fn a_soft_object_s_contacts_say_how_they_are_modelled() {
    // Clasp's mug made of rubber with a Young's modulus: its contacts are soft, or point
    // contacts with the reason the surfaces could not be fitted.
    let mug = models().join("objects/clasp_mug.off");
    let body = format!(
        "<root><material>rubber</material><youngs>1500000</youngs><mass>300</mass>\
         <geometryFile type=\"off\">{}</geometryFile></root>",
        mug.display()
    );
    let dir = scratch("soft", &[("soft_mug.xml", &body)]);
    let world_text = hand_and_mug_world(-60.0, 90.0).replace(
        &models().join("objects/clasp_mug.xml").display().to_string(),
        &dir.join("soft_mug.xml").display().to_string(),
    );
    std::fs::write(dir.join("world.xml"), world_text).unwrap();
    let world = dir.join("world.xml");
    let document = quality_json(&[path_str(&world), "--approach", "--auto"]);
    let contacts = assert_quality_document(&document);
    assert!(!contacts.is_empty(), "{document}");
    for contact in contacts {
        let model = &contact["model"];
        match model["kind"].as_str().unwrap() {
            "soft" => assert!(model["torsion_radius"].as_f64().unwrap() > 0.0, "{model}"),
            "point_fallback" => assert!(!model["reason"].as_str().unwrap().is_empty()),
            other => panic!("a soft body's contact is a plain {other} contact: {contact}"),
        }
    }
    let text = ok_stdout(&run(&["quality", path_str(&world), "--approach", "--auto"]));
    for line in text.lines().filter(|l| l.starts_with("ClaspHand_chain")) {
        assert!(
            line.contains("soft contact, torsion radius ")
                || line.contains("point contact (not soft: "),
            "{line}"
        );
    }
}

#[test]
fn quality_refuses_bad_options_and_worlds_it_cannot_grasp_in() {
    let world = default_world();
    for (option, bad) in [("--metric", "epsilom"), ("--gws", "l2")] {
        let output = run(&["quality", path_str(&world), option, bad]);
        assert_eq!(output.status.code(), Some(2), "{option} {bad} was taken");
        assert!(output.stdout.is_empty());
        let message = stderr(&output);
        assert!(
            message.contains(option) && message.contains(bad),
            "{message}"
        );
    }
    for missing in ["1", "first"] {
        let output = run(&["quality", path_str(&world), "--robot", missing]);
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(
            stderr(&output).trim_end(),
            format!(
                "{}: the world has no robot \"{missing}\" (its robots: 0 ClaspHand)",
                world.display()
            )
        );
    }

    // No robot.
    let mug = models().join("objects/clasp_mug.xml");
    let text = format!(
        "<world><graspableBody><filename>{}</filename></graspableBody></world>",
        mug.display()
    );
    let dir = scratch("quality-no-robot", &[("mug.xml", &text)]);
    let no_robot = dir.join("mug.xml");
    let output = run(&["quality", path_str(&no_robot)]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output).trim_end(),
        format!(
            "{}: the world has no hand to grasp with (it has no robot)",
            no_robot.display()
        )
    );

    // A robot but nothing graspable: the mug as an obstacle.
    let text = hand_and_mug_world(-60.0, 90.0)
        .replace("<graspableBody>", "<obstacle>")
        .replace("</graspableBody>", "</obstacle>");
    let dir = scratch("quality-no-object", &[("obstacle.xml", &text)]);
    let no_object = dir.join("obstacle.xml");
    let output = run(&["quality", path_str(&no_object), "--auto"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr(&output).trim_end(),
        format!("{}: the world has no graspable object", no_object.display())
    );

    // A world that does not load: one line naming the file.
    let missing = dir.join("missing.xml");
    let output = run(&["quality", path_str(&missing), "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.starts_with(path_str(&missing)), "{message}");
}

/// A world file (in a scratch folder named after `name`) of GraspIt's mug centred on the origin
/// (its bounding box's centre is at (-11.67, -8.93, 0)) and the Barrett 200 mm away along -x
/// with its approach direction (palm z) along +x; its file names resolve in GraspIt's library.
fn barrett_facing_graspits_mug(name: &str) -> PathBuf {
    let text = "<world>\n<graspableBody><filename>objects/mug.xml</filename>\n\
                <transform><translation>11.67 8.93 0</translation></transform></graspableBody>\n\
                <robot><filename>robots/Barrett/Barrett.xml</filename>\n\
                <transform><translation>-200 0 0</translation><rotation>90 y</rotation></transform>\n\
                </robot>\n</world>\n";
    scratch(name, &[("barrett.xml", text)]).join("barrett.xml")
}

#[test]
fn barrett_grasps_graspits_mug_through_the_graspit_root() {
    let Some(root) = graspit_models() else {
        return;
    };
    let world = barrett_facing_graspits_mug("barrett");
    let args = [
        path_str(&world),
        "--graspit-root",
        path_str(&root),
        "--approach",
        "--auto",
        "--metric",
        "volume",
    ];
    let document = quality_json(&args);
    let contacts = assert_quality_document(&document);
    println!("Barrett on GraspIt's mug: {document}");
    assert_eq!(document["robot"], "Barrett");
    assert_eq!(document["object"]["name"], "mug");
    assert!(contacts.len() >= 3, "{document}");
    assert!(document["volume"].as_f64().unwrap() > 0.0, "{document}");
    let again = quality_json(&args);
    assert_eq!(again["epsilon"], document["epsilon"]);
    assert_eq!(again["volume"], document["volume"]);
}

/// RaiSim's four spheres: neighbours all touch, and only the groups and masks decide.
#[test]
fn raisims_four_spheres_meet_as_their_groups_and_masks_say() {
    let world = models().join("worlds/raisim_four_spheres.xml");
    let document = ok_json(&run(&["contacts", path_str(&world), "--json"]));
    let contacts = contacts_of(&document);
    assert!(!contacts.is_empty(), "{document}");
    for contact in contacts {
        assert_eq!(contact["body"]["id"], "body 0", "{contact}");
        assert_eq!(contact["other"]["id"], "body 1", "{contact}");
        assert_eq!(contact["body"]["collision_group"], 0);
        assert_eq!(contact["body"]["collision_mask"], "0 1");
        assert_eq!(contact["other"]["collision_group"], 1);
    }
    // With a threshold that reaches every neighbour, still only sphere0–sphere1.
    let wide = ok_json(&run(&[
        "contacts",
        path_str(&world),
        "--json",
        "--threshold",
        "1",
    ]));
    assert!(
        contacts_of(&wide)
            .iter()
            .all(|c| (c["body"]["id"].clone(), c["other"]["id"].clone())
                == ("body 0".into(), "body 1".into()))
    );
    // Inspect shows each body's group and mask.
    let summary = ok_json(&run(&["inspect", path_str(&world)]));
    let bodies = summary["bodies"].as_array().unwrap();
    let groups: Vec<_> = bodies
        .iter()
        .map(|b| {
            (
                b["collision_group"].as_u64().unwrap(),
                b["collision_mask"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(groups, [(0, "0 1"), (1, "0 1"), (2, "1"), (3, "all")]);
}

/// `contacts --json` lists every field of RaiSim's contact API.
#[test]
fn contacts_json_lists_every_field() {
    let dir = scratch("fields", &[("boxes.xml", &boxes_world(0.05))]);
    let document = ok_json(&run(&[
        "contacts",
        path_str(&dir.join("boxes.xml")),
        "--json",
    ]));
    let contact = &contacts_of(&document)[0];
    for field in [
        "body",
        "other",
        "index",
        "pair_index",
        "is_object_a",
        "point",
        "other_point",
        "normal",
        "frame_rotation_wxyz",
        "separation",
        "depth",
        "triangle",
        "other_triangle",
        "local_index",
        "body_type",
        "other_type",
        "static_friction",
        "kinetic_friction",
        "is_self_collision",
        "skip",
        "model",
        "friction_edges",
    ] {
        assert!(
            contact.get(field).is_some(),
            "{field} missing from {contact}"
        );
    }
    assert_eq!(contact["is_object_a"], true);
    assert_eq!(
        contact["depth"].as_f64().unwrap(),
        -contact["separation"].as_f64().unwrap()
    );
    assert_eq!(
        contact["friction_edges"].as_array().unwrap().len(),
        8,
        "GraspIt's pyramid"
    );
    // The other box is dynamic, so the same contact has a place in its list.
    assert!(contact["pair_index"].is_u64(), "{contact}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// GraspIt's multi-threading example: a table and a glass shared, eight domains each with its
/// own Barrett, on two threads; each grasp the same as when run alone.
#[test]
fn eight_domains_on_two_threads_grasp_as_each_would_alone() {
    let Some(root) = graspit_models() else {
        return;
    };
    let world = models().join("worlds/graspit_glass_on_table.xml");
    let hand = root.join("robots/Barrett/Barrett.xml");
    let document = ok_json(&run(&[
        "domains",
        path_str(&world),
        "--graspit-root",
        path_str(&root),
        "--hand",
        path_str(&hand),
        "--count",
        "8",
        "--threads",
        "2",
        "--check",
        "--json",
    ]));
    assert_eq!(document["identical_to_alone"], true, "{document}");
    let grasps = document["grasps"].as_array().unwrap();
    assert_eq!(grasps.len(), 8);
    assert!(
        grasps.iter().all(|g| g["contacts"].as_u64().unwrap() > 0),
        "{document}"
    );
    assert!(
        grasps.iter().any(|g| g["force_closure"] == true),
        "{document}"
    );
    // A hand file that is not there is one line naming it.
    let failed = run(&[
        "domains",
        path_str(&world),
        "--graspit-root",
        path_str(&root),
        "--hand",
        "no/such/hand.xml",
    ]);
    assert!(!failed.status.success());
    assert!(
        stderr(&failed).contains("no/such/hand.xml"),
        "{}",
        stderr(&failed)
    );
}

/// `quality --virtual` scores the hand's virtual contacts where they stand, with no object:
/// GraspIt's Barrett open (flat) holds nothing, closed 60 % of the way it is force-closure; a
/// hand without virtual contacts is refused, naming the file.
#[test]
fn quality_on_virtual_contacts_needs_no_object() {
    let Some(library) = graspit_models() else {
        return;
    };
    let barrett = library.join("robots/Barrett/Barrett.xml");
    let world_with = |stream: &str| {
        format!(
            "<world><robot><filename>{}</filename><dofValues>{stream}</dofValues></robot></world>",
            barrett.display()
        )
    };
    let dir = scratch(
        "virtual",
        &[
            ("open.xml", &world_with("0 0 0 0 0 0 0 0 0 0")),
            ("closed.xml", &world_with("0 1.508 0 0 1.508 0 0 1.508 0 0")),
        ],
    );
    let score = |name: &str| {
        let file = dir.join(name);
        quality_json(&[path_str(&file), "--virtual", "--metric", "volume"])
    };
    let (open, closed) = (score("open.xml"), score("closed.xml"));
    assert_eq!(open["virtual_contacts"], closed["virtual_contacts"]);
    assert!(open["virtual_contacts"].as_u64().unwrap() >= 16);
    assert_eq!(open["force_closure"], false, "{open}");
    assert_eq!(closed["force_closure"], true, "{closed}");
    assert!(closed["epsilon"].as_f64().unwrap() > 0.05);
    assert!(closed["volume"].as_f64().unwrap() > 0.0);

    let output = run(&["quality", path_str(&default_world()), "--virtual"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("default.xml: robot 0 (ClaspHand) has no virtual contacts"),
        "{}",
        stderr(&output)
    );
}

/// `plan`: GraspIt's planner on GraspIt's Barrett and mug, default settings: at least five
/// force-closure grasps, best first; the same seed gives the same grasps.
#[test]
fn plan_finds_force_closure_grasps_and_repeats_them_for_a_seed() {
    let Some(library) = graspit_models() else {
        return;
    };
    let world_text = format!(
        "<world><graspableBody><filename>{0}/objects/mug.xml</filename></graspableBody>\
         <robot><filename>{0}/robots/Barrett/Barrett.xml</filename>\
         <transform><translation>0 0 1000</translation></transform></robot></world>",
        library.display()
    );
    let dir = scratch("plan", &[("w.xml", &world_text)]);
    let world = dir.join("w.xml");
    let plan = |extra: &[&str]| {
        let mut args = vec!["plan", path_str(&world), "--json"];
        args.extend_from_slice(extra);
        ok_json(&run(&args))
    };
    let found = plan(&[]);
    let grasps = found["grasps"].as_array().unwrap();
    let closures = grasps.iter().filter(|g| g["force_closure"] == true).count();
    assert!(closures >= 5, "{closures} force-closure grasps");
    assert_eq!(found["robot"], "Barrett");
    assert_eq!(
        found["steps"],
        4 * clasp_core::PlanSettings::default().steps
    );
    let epsilons: Vec<f64> = grasps
        .iter()
        .filter_map(|g| g["epsilon"].as_f64())
        .collect();
    assert!(
        epsilons.windows(2).all(|w| w[0] >= w[1]),
        "best first: {epsilons:?}"
    );
    let (a, b) = (
        plan(&["--steps", "2000", "--seed", "5"]),
        plan(&["--steps", "2000", "--seed", "5"]),
    );
    assert_eq!(a["grasps"], b["grasps"]);

    // --save writes each grasp as a world that loads with the hand where the grasp left it,
    // and changes nothing of the plan. (A plan asking for fewer grasps closes fewer states,
    // so it is compared with the same plan unsaved, not with the first of a longer one.)
    let saved = dir.join("saved");
    let two = ["--steps", "2000", "--seed", "5", "--grasps", "2"];
    let with_files = plan(&[&two[..], &["--save", path_str(&saved)]].concat());
    assert_eq!(with_files["grasps"], plan(&two)["grasps"]);
    assert_eq!(with_files["grasps"].as_array().unwrap().len(), 2);
    for (k, grasp) in with_files["grasps"].as_array().unwrap().iter().enumerate() {
        let read = ok_json(&run(&[
            "inspect",
            path_str(&saved.join(format!("grasp-{k}.xml"))),
        ]));
        let robot = &read["robots"][0];
        assert_eq!(robot["dof_values"], grasp["dofs"], "grasp {k}");
        let palm = grasp["palm"].as_array().unwrap();
        for (axis, at) in [3, 7, 11].into_iter().enumerate() {
            let (saved, planned) = (
                robot["pose"]["translation"][axis].as_f64(),
                palm[at].as_f64(),
            );
            assert!(
                (saved.unwrap() - planned.unwrap()).abs() < 1e-9,
                "grasp {k}, axis {axis}"
            );
        }
    }
    // The annealing's parameters: GraspIt's defaults named change nothing; others change the
    // search; a bad one is refused, naming it.
    let defaults = "yc=7,hc=7,ydims=8,hdims=8,nbr_adj=1,err_adj=1e-6,t0=1e6,k0=30000,attempts=11";
    let named = plan(&["--steps", "2000", "--seed", "5", "--anneal", defaults]);
    assert_eq!(named["grasps"], a["grasps"]);
    let hot = plan(&["--steps", "2000", "--seed", "5", "--anneal", "k0=0,t0=1e7"]);
    assert_ne!(hot["grasps"], a["grasps"]);
    assert_eq!(hot["why_empty"], Value::Null);
    // --guided: the best states seed child searches that close the hand (negative energies).
    let guided = plan(&["--steps", "500", "--seed", "5", "--guided", "2"]);
    let energies: Vec<f64> = guided["grasps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["energy"].as_f64())
        .collect();
    assert!(energies.iter().any(|&e| e < 0.0), "{energies:?}");
    // --test (and --preset, which implies it): the plan closes states until the grasps asked
    // for hold, those first, each with its test's figures.
    let tested = plan(&["--steps", "2000", "--seed", "5", "--grasps", "2", "--test"]);
    assert_eq!(tested["held"], 2, "{tested}");
    assert_eq!(tested["why_short_of_held"], Value::Null);
    assert!(tested["tested"].as_u64().unwrap() >= 2);
    for grasp in tested["grasps"].as_array().unwrap() {
        assert_eq!(grasp["held"], true);
        assert_eq!(grasp["test"]["held"], true);
        assert_eq!(grasp["test"]["directions"].as_array().unwrap().len(), 6);
    }
    let preset = plan(&[
        "--steps", "2000", "--seed", "5", "--grasps", "1", "--preset", "graspgen",
    ]);
    let runs = preset["grasps"][0]["test"]["directions"]
        .as_array()
        .unwrap();
    assert_eq!(runs.len(), 1, "GraspGen's test is one run: {preset}");
    let output = run(&["plan", path_str(&world), "--anneal", "t0=-1"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("t0 cannot be -1"),
        "{}",
        stderr(&output)
    );
    let output = run(&["plan", path_str(&default_world())]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("no virtual contacts"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn simulate_lets_the_default_scenes_mug_settle_on_its_table_and_says_so_in_json() {
    let world = default_world();
    // Falling the 1 mm to the table takes 14 ms; half a second later it stands.
    let doc = ok_json(&run(&[
        "simulate",
        world.to_str().unwrap(),
        "--seconds",
        "0.5",
        "--json",
    ]));
    assert_eq!(doc["steps"], 500);
    let bodies = doc["bodies"].as_array().unwrap();
    assert_eq!(bodies.len(), 1, "the mug is the one free graspable body");
    let speed = vector(&bodies[0]["linear_velocity"])
        .iter()
        .map(|v| v * v)
        .sum::<f64>()
        .sqrt();
    assert!(speed < 1.0, "at rest, not at {speed} mm/s");
    let pose = bodies[0]["pose"].as_array().unwrap();
    let z = pose[11].as_f64().unwrap();
    assert!(
        (z + 1.0).abs() < 0.1,
        "it dropped the 1 mm onto the table: z = {z}"
    );
    // The table carries its weight: 300 g × g × 1 ms.
    let contacts = doc["contacts"].as_array().unwrap();
    assert!(!contacts.is_empty());
    let mut up = 0.0;
    for contact in contacts {
        assert_eq!(contact["impulse"].as_array().unwrap().len(), 3);
        assert_eq!(contact["world_impulse"].as_array().unwrap().len(), 3);
        assert_eq!(contact["inverse_inertia"].as_array().unwrap().len(), 9);
        up += contact["world_impulse"][2].as_f64().unwrap().abs();
    }
    assert!((up - 300.0 * 9810.0 * 0.001).abs() < 0.01 * up, "{up}");
}

#[test]
fn simulate_refuses_a_bad_time_step_or_duration_saying_which() {
    let world = default_world();
    let output = run(&[
        "simulate",
        world.to_str().unwrap(),
        "--seconds",
        "0.1",
        "--time-step",
        "0",
    ]);
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("default.xml") && err.contains("time step"),
        "{err}"
    );
    // A step too short to ever end a run, or a run that would not end, is refused up front
    // (it hung before), each saying what is wrong.
    let cases = [
        (
            ["--seconds", "1", "--time-step", "1e-300"],
            "a time step must be between",
        ),
        (
            ["--seconds", "1", "--time-step", "1e9"],
            "a time step must be between",
        ),
        (
            ["--seconds", "1e300", "--time-step", "0.001"],
            "run it in parts",
        ),
        (
            ["--time-step", "0.001", "--json", "--seconds=-1"],
            "a duration must be",
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["simulate", world.to_str().unwrap()];
        all.extend(args);
        let output = run(&all);
        assert!(!output.status.success(), "{args:?}");
        let err = stderr(&output);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn bodies_inside_one_another_are_named_by_contacts_refused_by_simulate_and_separated_on_request() {
    // Two 50 mm boxes, the second 10 mm into the first.
    let dir = scratch("overlap", &[("overlap.xml", &boxes_world(-10.0))]);
    let world = dir.join("overlap.xml");
    let text = ok_stdout(&run(&["contacts", path_str(&world)]));
    assert!(
        text.starts_with("clasp_box and clasp_box interpenetrate\n"),
        "{text}"
    );
    let doc = ok_json(&run(&["contacts", path_str(&world), "--json"]));
    assert_eq!(doc["overlapping"].as_array().unwrap().len(), 1, "{doc}");

    let refused = run(&["simulate", path_str(&world), "--seconds", "0.1"]);
    assert!(!refused.status.success());
    let err = stderr(&refused);
    // Each box by its name and file, and the world file's line that placed it.
    assert!(
        err.contains("clasp_box.xml), placed at ")
            && err.contains("overlap.xml:3 and clasp_box (")
            && err.contains("overlap.xml:8 interpenetrate")
            && err.contains("--resolve-overlaps"),
        "{err}"
    );

    let doc = ok_json(&run(&[
        "simulate",
        path_str(&world),
        "--seconds",
        "0.1",
        "--resolve-overlaps",
        "--json",
    ]));
    let separated = doc["separated"].as_array().unwrap();
    assert_eq!(separated.len(), 1, "{doc}");
    let said = separated[0].as_str().unwrap();
    assert_eq!(
        said,
        "clasp_box moved (10.025, 0.000, 0.000) mm out of clasp_box"
    );
    assert_eq!(doc["steps"], 100);
}

#[test]
fn an_inertia_that_cannot_move_a_body_is_refused_at_its_files_line() {
    // The box with a negative inertia on its diagonal, dropped on the table.
    let geometry = models().join("objects/clasp_box.off");
    let body = format!(
        "<?xml version=\"1.0\" ?>\n<root>\n    <mass>200</mass>\n    <cog>0 0 0</cog>\n    \
         <inertia_matrix>-1000 0 0 0 400 0 0 0 400</inertia_matrix>\n    \
         <geometryFile type=\"off\">{}</geometryFile>\n</root>\n",
        geometry.display()
    );
    let world = boxes_world(10.0).replace(
        &models().join("objects/clasp_box.xml").display().to_string(),
        "bad_box.xml",
    );
    let dir = scratch("inertia", &[("bad_box.xml", &body), ("world.xml", &world)]);
    let refused = run(&[
        "simulate",
        path_str(&dir.join("world.xml")),
        "--seconds",
        "0.1",
    ]);
    assert!(!refused.status.success());
    let err = stderr(&refused);
    assert!(
        err.contains("bad_box.xml:5)") && err.contains("inertia"),
        "the inertia's line of the body file: {err}"
    );
}

#[test]
fn a_contact_query_alone_gives_zero_impulses_and_no_place_in_a_problem() {
    let world = default_world();
    let doc = ok_json(&run(&[
        "contacts",
        world.to_str().unwrap(),
        "--threshold",
        "5",
        "--json",
    ]));
    let contacts = doc["contacts"].as_array().unwrap();
    assert!(
        !contacts.is_empty(),
        "within 5 mm the hand and the mug meet"
    );
    for c in contacts {
        let zeros = |key: &str| c[key].as_array().unwrap().iter().all(|x| x == 0.0);
        assert!(zeros("impulse") && zeros("world_impulse") && zeros("inverse_inertia"));
        assert_eq!(c["inverse_inertia"].as_array().unwrap().len(), 9);
        assert!(c["index_in_contact_problem"].is_null());
    }
}

#[test]
fn grasp_test_pulls_the_mug_six_ways_and_says_whether_the_hand_holds_it() {
    let world = default_world();
    let args = [path_str(&world), "--approach", "--auto", "--test", "--json"];
    let document = ok_json(&run(&[&["grasp"][..], &args].concat()));
    let test = &document["test"];
    let directions = test["directions"].as_array().unwrap();
    assert_eq!(directions.len(), 6, "{test}");
    for d in directions {
        let (moved, turned) = (
            d["displacement"].as_f64().unwrap(),
            d["rotation_degrees"].as_f64().unwrap(),
        );
        assert!(moved >= 0.0 && turned >= 0.0, "{d}");
        assert_eq!(
            d["held"].as_bool().unwrap(),
            moved <= 20.0 && turned <= 15.0,
            "{d}"
        );
        let (steps, unsettled) = (
            d["steps"].as_u64().unwrap(),
            d["unsettled_steps"].as_u64().unwrap(),
        );
        let relaxed = d["relaxed_steps"].as_u64().unwrap();
        assert!(steps > 0 && unsettled <= steps && relaxed <= steps, "{d}");
        // Every solve takes at most the default cap of 200 iterations (none where the last
        // step's answer already balances, as MuJoCo's warm start ends at zero).
        let (median, p99) = (
            d["sweeps_median"].as_u64().unwrap(),
            d["sweeps_p99"].as_u64().unwrap(),
        );
        assert!(median <= p99 && p99 <= 200, "{d}");
    }
    let held = directions.iter().all(|d| d["held"].as_bool().unwrap());
    assert_eq!(test["held"].as_bool().unwrap(), held);
    // ClaspHand's grasp of its mug holds; the same run gives the same numbers.
    assert!(held, "{test}");
    let again = ok_json(&run(&[&["grasp"][..], &args].concat()));
    assert_eq!(again["test"], *test);
    let text = ok_stdout(&run(&[
        "grasp",
        path_str(&world),
        "--approach",
        "--auto",
        "--test",
    ]));
    assert!(text.trim_end().ends_with("held: yes"), "{text}");
    let refused = run(&["grasp", path_str(&world), "--auto", "--test-seconds", "1"]);
    assert!(!refused.status.success(), "--test-seconds needs --test");
}

#[test]
fn grasp_lift_raises_the_mug_with_the_palm() {
    let world = default_world();
    let document = ok_json(&run(&[
        "grasp",
        path_str(&world),
        "--approach",
        "--auto",
        "--lift",
        "100",
        "--json",
    ]));
    let lift = &document["lift"];
    assert_eq!(lift["held"], true, "{lift}");
    let raised = lift["raised"].as_f64().unwrap();
    assert!((raised - 100.0).abs() < 5.0, "{lift}");
    let refused = run(&["grasp", path_str(&world), "--auto", "--lift", "-5"]);
    assert!(!refused.status.success());
}

/// A headless render on a machine with no display and no Wayland session prints nothing on
/// stderr: nothing there that is not about the user's work.
#[test]
fn a_headless_render_prints_nothing_on_stderr() {
    let dir = scratch("render-quiet", &[]);
    let output = Command::new(env!("CARGO_BIN_EXE_clasp-cli"))
        .args(["render", path_str(&default_world()), "--size", "64x48"])
        .arg("--out")
        .arg(dir.join("rgb.png"))
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("NODEVICE_SELECT")
        .output()
        .unwrap();
    ok_stdout(&output);
    assert_eq!(stderr(&output), "", "stderr of a headless render");
}

#[test]
fn render_writes_colour_depth_and_mask_and_names_each_body() {
    let dir = scratch("render", &[]);
    let (rgb, depth, mask, depth_png) = (
        dir.join("rgb.png"),
        dir.join("depth.npy"),
        dir.join("mask.png"),
        dir.join("depth.png"),
    );
    let output = run(&[
        "render",
        path_str(&default_world()),
        "--out",
        path_str(&rgb),
        "--depth",
        path_str(&depth),
        "--mask",
        path_str(&mask),
        "--size",
        "160x120",
        "--look-from",
        "1,-0.3,0.4",
        "--json",
    ]);
    let answer = ok_json(&output);
    assert_eq!(answer["width"], 160);
    assert_eq!(answer["bodies"][0]["name"], "clasp_mug");
    assert!(answer["bodies"][0]["pixels"].as_u64().unwrap() > 1000);
    let picture = image::open(&rgb).unwrap();
    assert_eq!((picture.width(), picture.height()), (160, 120));
    // The mask: the mug (index 0) as 1, nothing as 0.
    let labels = image::open(&mask).unwrap().into_luma16();
    let mug = labels.pixels().filter(|p| p.0[0] == 1).count() as u64;
    assert_eq!(mug, answer["bodies"][0]["pixels"].as_u64().unwrap());
    // The .npy: NumPy's header, then 160 × 120 little-endian floats, inf where nothing is.
    let bytes = std::fs::read(&depth).unwrap();
    assert!(bytes.starts_with(b"\x93NUMPY\x01\x00"));
    let header = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + header) % 64, 0);
    let text = std::str::from_utf8(&bytes[10..10 + header]).unwrap();
    assert!(text.contains("'shape': (120, 160)"), "{text}");
    let values: Vec<f32> = bytes[10 + header..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    assert_eq!(values.len(), 160 * 120);
    let seen = labels.pixels().zip(&values);
    assert!(seen.clone().all(|(l, d)| (l.0[0] > 0) == d.is_finite()));
    // A 16-bit PNG of whole millimetres, 0 where nothing is seen.
    let output = run(&[
        "render",
        path_str(&default_world()),
        "--out",
        path_str(&rgb),
        "--depth",
        path_str(&depth_png),
        "--size",
        "160x120",
        "--look-from",
        "1,-0.3,0.4",
    ]);
    assert!(ok_stdout(&output).contains("0: clasp_mug"));
    let millimetres = image::open(&depth_png).unwrap().into_luma16();
    for (mm, d) in millimetres.pixels().zip(&values) {
        match d.is_finite() {
            true => assert!((mm.0[0] as f32 - d).abs() <= 0.5),
            false => assert_eq!(mm.0[0], 0),
        }
    }
}

#[test]
fn render_refuses_bad_sizes_and_cameras_naming_the_problem() {
    let out = std::env::temp_dir().join("clasp-cli-render-refused.png");
    let world = default_world();
    let cases: [(&[&str], &str); 4] = [
        (&["--size", "0x480"], "width is 0"),
        (&["--size", "640x20000"], "height is 20000"),
        (&["--camera", "0,0,0,0,0,0"], "looks at its own position"),
        (&["--camera", "1,2,nan,0,0,0"], "finite"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["render", path_str(&world), "--out", path_str(&out)];
        all.extend_from_slice(args);
        let output = run(&all);
        assert!(!output.status.success());
        assert!(
            stderr(&output).contains(expected),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    // In the mug's wall: 38 mm from its axis (its wall spans about 36.5 to 40 mm), 50 mm up,
    // the mug turned −60° about z.
    let output = run(&[
        "render",
        path_str(&world),
        "--out",
        path_str(&out),
        "--camera",
        "19,-32.909,50,0,0,50",
    ]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("the camera is inside clasp_mug"),
        "{}",
        stderr(&output)
    );
}

/// GraspIt's `barrettGlassDyn` world, its file names taken from the model library's root: the
/// Puma on its stand carrying the Barrett, a table, and the glass on it in front of the hand.
fn barrett_glass_dyn() -> String {
    "<world>\n\
     <obstacle><filename>obstacles/simpleFloor.xml</filename></obstacle>\n\
     <obstacle><filename>obstacles/table.xml</filename></obstacle>\n\
     <obstacle><filename>obstacles/puma_stand.xml</filename>\n\
     <transform><fullTransform>(+1 0 0 0)[0 0 -1]</fullTransform></transform></obstacle>\n\
     <graspableBody><filename>objects/glass.xml</filename>\n\
     <transform><fullTransform>(+0.996 -0.0781588 +0.0111872 +0.0418439)[+1.31244 +525.048 -465.928]</fullTransform></transform>\n\
     </graspableBody>\n\
     <robot><filename>robots/Puma560/Puma560.xml</filename>\n\
     <dofValues>+1.85318 +0.43586 -3.20326 +0.00906244 -0.397201 +0.218149</dofValues></robot>\n\
     <robot><filename>robots/Barrett/Barrett.xml</filename>\n\
     <dofValues>+4.98626e-06 +0.9 +0 +0 +0.9 +0 +0 +0.9 +0 +0</dofValues></robot>\n\
     <connection><parentRobot>0</parentRobot><parentChain>0</parentChain><childRobot>1</childRobot>\n\
     <mountFilename>robots/Barrett/iv/barrettmount.xml</mountFilename>\n\
     <transform><fullTransform>(+1 0 0 0)[0 0 +175.05]</fullTransform></transform></connection>\n\
     </world>\n"
        .to_string()
}

/// GraspIt's model root, and `barrettGlassDyn` written in a fresh folder `name`; `None` (the test
/// skipped, saying why) without GraspIt's models.
fn barrett_glass_dyn_world(name: &str) -> Option<(PathBuf, PathBuf)> {
    let root = graspit_models()?;
    let dir = scratch(name, &[("barrettGlassDyn.xml", &barrett_glass_dyn())]);
    Some((root, dir.join("barrettGlassDyn.xml")))
}

/// GraspIt's `barrettGlassDyn`: the glass lies on its side by the table's edge, and GraspIt's
/// contact energy ranks best the states that wrap the hand round one side of it, none of them
/// force closure; the default mixed energy's quality term finds grasps the arm reaches.
#[test]
fn the_default_planner_finds_force_closure_grasps_the_arm_reaches_of_the_glass_by_the_table() {
    let Some((root, world)) = barrett_glass_dyn_world("arm-plan") else {
        return;
    };
    let closures = |energy: &str| {
        let document = ok_json(&run(&[
            "plan",
            path_str(&world),
            "--graspit-root",
            path_str(&root),
            "--robot",
            "1",
            "--steps",
            "5000",
            "--energy",
            energy,
            "--json",
        ]));
        let grasps = document["grasps"].as_array().unwrap();
        grasps.iter().filter(|g| g["force_closure"] == true).count()
    };
    let (mixed, contact) = (closures("mixed"), closures("contact"));
    println!("force-closure grasps of 10: mixed {mixed}, contact {contact}");
    assert!(mixed >= 8, "mixed: {mixed} force-closure grasps");
    assert!(
        contact < mixed,
        "the contact energy alone did as well: {contact}"
    );
}

#[test]
fn an_arm_mounted_barrett_approaches_the_glass_by_its_arm_and_closes_on_it() {
    let Some((root, world)) = barrett_glass_dyn_world("arm") else {
        return;
    };
    let document = ok_json(&run(&[
        "grasp",
        path_str(&world),
        "--graspit-root",
        path_str(&root),
        "--approach",
        "--auto",
        "--json",
    ]));
    assert_eq!(document["approach"]["touched"], true, "{document}");
    let name = |side: &Value| side["name"].as_str().unwrap_or("").to_string();
    let mut fingers = std::collections::BTreeSet::new();
    for contact in contacts_of(&document) {
        // Touching, never in: every contact is a gap.
        assert!(contact["depth"].as_f64().unwrap() < 0.0, "{contact}");
        let pair = [name(&contact["body"]), name(&contact["other"])];
        if pair.contains(&"glass".to_string()) {
            fingers.extend(
                [&contact["body"], &contact["other"]]
                    .into_iter()
                    .filter_map(|side| side["chain"].as_u64()),
            );
        }
        assert!(
            [&contact["body"], &contact["other"]]
                .iter()
                .all(|side| side["robot"] != "Puma560"),
            "the arm touches something: {contact}"
        );
    }
    println!("fingers on the glass: {fingers:?}");
    assert!(fingers.len() >= 2, "fingers on the glass: {fingers:?}");
}

/// Each of the field's tests (issue 43's presets) runs on the Barrett's grasp of GraspIt's mug
/// and reports the squeeze: each DOF's effort within its limit, the force on the mug, what
/// each finger touches.
#[test]
fn grasp_test_runs_each_preset_on_the_barrett_and_graspits_mug() {
    let Some(root) = graspit_models() else {
        return;
    };
    let world = barrett_facing_graspits_mug("presets");
    for (preset, runs) in [
        ("clasp", 6),
        ("dexgraspnet", 6),
        ("bodex", 6),
        ("graspgen", 1),
    ] {
        let args = [
            "grasp",
            path_str(&world),
            "--graspit-root",
            path_str(&root),
            "--approach",
            "--auto",
            "--test",
            "--preset",
            preset,
            "--json",
        ];
        let document = ok_json(&run(&args));
        let test = &document["test"];
        println!("{preset}: held {}", test["held"]);
        assert_eq!(
            test["directions"].as_array().unwrap().len(),
            runs,
            "{preset}: {test}"
        );
        let squeeze = &test["squeeze"];
        let efforts = squeeze["dof_efforts"].as_array().unwrap();
        let limits = squeeze["effort_limits"].as_array().unwrap();
        assert_eq!(efforts.len(), 4, "{squeeze}");
        for (e, l) in efforts.iter().zip(limits) {
            assert!(e.as_f64().unwrap().abs() <= l.as_f64().unwrap() * (1.0 + 1e-9));
        }
        assert!(
            squeeze["normal_force"].as_f64().unwrap() >= 0.0,
            "{preset}: {squeeze}"
        );
        let fingers = squeeze["fingers"].as_array().unwrap();
        assert_eq!(fingers.len(), 3);
        let touched = fingers.iter().any(|f| f["on_object"] == true);
        if preset == "graspgen" && test["held"] == true {
            assert!(touched, "held by fingers that touch: {squeeze}");
        }
    }
    let refused = run(&[
        "grasp",
        path_str(&world),
        "--auto",
        "--test",
        "--preset",
        "isaac",
    ]);
    assert!(!refused.status.success(), "an unknown preset is refused");
}
